/**
 * Golden walks of a SOP with forks: the moves the runtime accepts (`decideMove`, fork records included) from the
 * entry node to a terminal node, for `golden-paths.ts`. Unlike the plain search, a move here is not always an edge
 * into its target: a branch finished before its join completes brings the run back to the fork. So each walk keeps,
 * per move, where it was made from, and which moves into a join said `failed`.
 *
 * What is listed, to stay finite and small:
 *   - along edges only (hub jumps and restarts add no way the edges do not give), each loop at most once (a move to a
 *     node on the path closes the loop of the nodes it erases), no node past its `max_visits`;
 *   - at a fork, the open branch first in edge order (the runtime takes any order; listing every order would list
 *     n! walks that differ in nothing else);
 *   - every branch of a fork passed, and, when its join has edges for an outcome, every branch failed too (the two
 *     ways the join can come out).
 * Bounded by `maxSteps` like the plain search.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { decideMove, type ForkProgress, forkRuleOf, forksOnPath, type Outcome, type Visits } from '../../contract/transitions.js';

export interface ForkWalk {
  /** The targets of the moves, entry node first. */
  readonly nodes: readonly string[];
  /** Where each move was made from (null for the first). */
  readonly froms: readonly (string | null)[];
  /** Moves that closed a loop. */
  readonly loops: number;
  /** Indices (into `nodes`) of moves into a join that said `failed`. */
  readonly failed: readonly number[];
}

export interface ForkWalkSearch {
  readonly walks: readonly ForkWalk[];
  readonly total: number;
  readonly exact: boolean;
}

interface Frame {
  readonly path: readonly string[];
  readonly visits: Visits;
  readonly forks: readonly ForkProgress[];
  /** How each fork on the path is being walked: all branches passed, or all failed. */
  readonly modes: ReadonlyMap<string, Outcome>;
  readonly walk: ForkWalk;
  readonly closed: ReadonlySet<string>;
}

/** Walks kept at most as candidates for the listing; more are counted. */
const KEPT = 20_000;

export function searchForkWalks(sop: CompiledSop, maxSteps: number): ForkWalkSearch {
  const table = sop.transitions;
  const terminals = new Set(sop.terminalNodes);
  const walks: ForkWalk[] = [];
  let total = 0;
  let steps = 0;
  const first = decideMove(table, [], table.entry);
  if (!first.ok) return { walks, total, exact: true };
  const start: Frame = {
    path: first.path,
    visits: first.visits,
    forks: first.forks ?? [],
    modes: new Map(),
    walk: { nodes: [table.entry], froms: [null], loops: 0, failed: [] },
    closed: new Set(),
  };
  const stack: Frame[] = [start];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const here = frame.path.at(-1)!;
    if (terminals.has(here)) {
      total += 1;
      if (walks.length < KEPT) walks.push(frame.walk);
      continue;
    }
    const next: Frame[] = [];
    for (const move of movesFrom(sop, frame)) {
      if (++steps > maxSteps) return { walks, total, exact: false };
      const verdict = decideMove(table, frame.path, move.target, frame.visits, frame.forks, move.outcome);
      if (!verdict.ok) continue;
      const index = frame.path.indexOf(move.target);
      let closed = frame.closed;
      let loops = frame.walk.loops;
      if (index >= 0) {
        const cycle = cycleKey([move.target, ...frame.path.slice(index + 1)]);
        if (closed.has(cycle)) continue;
        closed = new Set([...closed, cycle]);
        loops += 1;
      }
      const at = frame.walk.nodes.length;
      next.push({
        path: verdict.path,
        visits: verdict.visits,
        forks: verdict.forks ?? [],
        modes: move.mode === undefined ? frame.modes : new Map([...frame.modes, [move.target, move.mode]]),
        walk: {
          nodes: [...frame.walk.nodes, move.target],
          froms: [...frame.walk.froms, here],
          loops,
          failed: move.outcome === 'failed' ? [...frame.walk.failed, at] : frame.walk.failed,
        },
        closed,
      });
    }
    // Depth first, in edge order: the first move is explored first.
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return { walks, total, exact: true };
}

interface Move {
  readonly target: string;
  readonly outcome?: Outcome;
  /** Entering a fork: how its branches are walked. */
  readonly mode?: Outcome;
}

/** The moves a walk takes from here: the edges, the first open branch at a fork, both modes into a fork. */
function movesFrom(sop: CompiledSop, frame: Frame): Move[] {
  const table = sop.transitions;
  const here = frame.path.at(-1)!;
  const live = forksOnPath(frame.forks, frame.path);
  const atFork = live.find((record) => record.fork === here && record.depth === frame.path.length - 1);
  const rule = forkRuleOf(table, here);
  let targets = entryOf(table.successors, here) ?? [];
  if (atFork !== undefined && rule !== undefined) {
    const open = rule.branches.filter((branch) => !atFork.done.some((d) => d.branch === branch));
    targets = open.slice(0, 1);
  }
  const moves: Move[] = [];
  for (const target of targets) {
    const entering = forkRuleOf(table, target);
    if (entering !== undefined && !frame.path.includes(target)) {
      moves.push({ target, mode: 'passed' });
      if (entering.passed.length > 0 || entering.failed.length > 0) moves.push({ target, mode: 'failed' });
      continue;
    }
    const finishing = live.find((record) => forkRuleOf(table, record.fork)?.join === target && record.outcome === undefined);
    const mode = finishing === undefined ? undefined : frame.modes.get(finishing.fork);
    moves.push(mode === 'failed' ? { target, outcome: 'failed' } : { target });
  }
  return moves;
}

function cycleKey(cycle: readonly string[]): string {
  let start = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i]! < cycle[start]!) start = i;
  return JSON.stringify([...cycle.slice(start), ...cycle.slice(0, start)]);
}
