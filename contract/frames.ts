/**
 * Node ids inside sub-flows: a called SOP's node is named by the sub-flow nodes of its frames, then its own id
 * (`AUTHENTICATE.VERIFY`). Pure (the transition rule its only import): the server, the replay and the pages' browser
 * scripts share it.
 */
import { entryOf } from './name-table.js';
import {
  decideMove,
  type ForkProgress,
  type MoveVerdict,
  NO_FORKS,
  NO_VISITS,
  type Outcome,
  type TransitionTable,
  type Visits,
} from './transitions.js';

/** Between a sub-flow node's id and the ids of the SOP it calls. */
export const QUALIFIER = '.';

/** The id of `node` of the SOP called at `call`. */
export function qualify(call: string, node: string): string {
  return `${call}${QUALIFIER}${node}`;
}

/**
 * The node a `node_id` typed at `current` names, as `goto_node` reads it: itself when it is a node; else, inside a
 * call, that id in the frame of `current`, or of a caller, outward (`VERIFY` at `AUTHENTICATE.IDENTIFY` is
 * `AUTHENTICATE.VERIFY`); else as typed (and refused as unknown).
 */
export function resolveInFrame(typed: string, current: string | null | undefined, isNode: (id: string) => boolean): string {
  if (isNode(typed)) return typed;
  const frames = (current ?? '').split(QUALIFIER);
  for (let depth = frames.length - 1; depth > 0; depth--) {
    const candidate = qualify(frames.slice(0, depth).join(QUALIFIER), typed);
    if (isNode(candidate)) return candidate;
  }
  return typed;
}

/**
 * A move as `goto_node` makes it: by the one rule (`decideMove`), and a move into a sub-flow node goes on, in the
 * same move, into the called SOP's entry node (`callEntry`: the entry node's own id in the called SOP, for a
 * sub-flow node; undefined for any other node). A call the move ended stays in `returned`.
 */
export function decideMoveIntoCalls<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  callEntry: (node: string) => string | undefined,
  visits: Visits = NO_VISITS,
  forks: readonly ForkProgress[] = NO_FORKS,
  outcome: Outcome = 'passed',
): MoveVerdict<N> {
  const verdict = decideMove(table, path, target, visits, forks, outcome);
  if (!verdict.ok || verdict.path.at(-1) !== target) return verdict;
  const entry = callEntry(target);
  if (entry === undefined) return verdict;
  const entered = decideMove(table, verdict.path, qualify(target, entry), verdict.visits, verdict.forks);
  return entered.ok && verdict.returned !== undefined ? { ...entered, returned: verdict.returned } : entered;
}

/**
 * Whether `path` passed one of `passes` (a policy's): a node on it, or a call that ended at one of them. A call that
 * ended left only its sub-flow node on the path; it ended at a `passes` node when every terminal of the call that
 * leads on to the node after it is one (`passes: AUTHENTICATE.AUTHENTICATED`, and `ROUTE` after `AUTHENTICATE`).
 */
export function passesOnPath(table: TransitionTable, passes: readonly string[], path: readonly string[]): boolean {
  if (path.some((node) => passes.includes(node))) return true;
  const returns = Object.entries(table.returns ?? {});
  if (returns.length === 0) return false;
  return path.some((node, i) => {
    if (i === 0) return false;
    const ended = returns.filter(([terminal, call]) => call === path[i - 1] && (entryOf(table.successors, terminal) ?? []).includes(node));
    return ended.length > 0 && ended.every(([terminal]) => passes.includes(terminal));
  });
}
