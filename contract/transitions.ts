/**
 * The one transition rule (spec, "Transitions"). The compiler emits a `TransitionTable` per SOP; the server
 * decides every `goto_node` with `decideMove`, and the generated XState machine moves with `enterPath` (and,
 * for SOPs with visit limits, `countVisit`) behind guards built from the same table, so the two cannot disagree
 * (a property test checks it on every SOP).
 *
 * From the current node the agent may go to:
 *   - a direct successor;
 *   - the entry node, always: the path restarts as [entry];
 *   - a hub on the path, i.e. one reached through the flowchart since the last restart (so a hub such as
 *     `ROUTE` can be re-entered for the next intent but never used to skip `AUTH`).
 * Before the first move only the entry node is legal. A terminal node has no successors: from it, only the
 * entry node and the hubs on the path are legal.
 *
 * Visit limits (`max_visits` on a node) turn an endless loop into an exit. A run counts its moves into each
 * limited node (`visits`, kept with the run, never reset: a restart does not buy new attempts). A move into a
 * node that has used up its visits is refused; instead, wherever such a move would otherwise be legal, the
 * node's escalation node becomes legal. So the agent stuck at `IS_VERIFIED` after the third wrong code may
 * no longer go back to `VERIFY`, and may go to `SECURITY_HOLD`. Nothing else changes: without limits the rule
 * is the one above.
 *
 * The path is how the agent got here from the entry node, a simple walk. Moving to a node already on it (a hub
 * re-entered, a fallback edge back, any loop) rewinds it to that node; any other legal move appends. By
 * induction every path is a walk along the flowchart's edges from the entry node with no node twice (an
 * escalation move counts as an edge from where it is legal), so it never holds more nodes than the SOP has,
 * and a hub is open exactly while it is on the path.
 *
 * Node ids are names an author chose: every table is read through `name-table.ts`, so `constructor` is a node like any
 * other, or an unknown id, never a member every object inherits.
 *
 * Pure, dependency-free and browser-safe: generated machines import it at run time.
 */
import { entryOf, hasEntry } from './name-table.js';

/** A node's visit limit: at most `max` moves into it per run; once used up, `escalation` is legal instead. */
export interface VisitLimit<N extends string = string> {
  readonly max: number;
  readonly escalation: N;
}

export interface TransitionTable<N extends string = string> {
  /** Always legal; moving there restarts the path. */
  readonly entry: N;
  /** Legal whenever they are on the path. */
  readonly hubs: readonly N[];
  /** Every node's distinct successors, in edge order (empty for terminal nodes). */
  readonly successors: { readonly [K in N]: readonly N[] };
  /** The nodes with a visit limit, in flowchart order; absent when no node has one. */
  readonly limits?: { readonly [K in N]?: VisitLimit<N> };
}

/** Moves made into each limited node since the run started (nodes without a limit are not counted). */
export interface Visits {
  readonly [node: string]: number;
}

export const NO_VISITS: Visits = Object.freeze({});

/** Why a move is refused: not a move of the rule, or a move into a node whose visits are used up. */
export type MoveRefusal<N extends string = string> =
  | { readonly ok: false; readonly reason: 'not-a-move' }
  | { readonly ok: false; readonly reason: 'visit-limit'; readonly node: N; readonly max: number; readonly escalation: N };

/** A legal move: the path and the visit counts after it. */
export interface MoveAccepted<N extends string = string> {
  readonly ok: true;
  readonly path: readonly N[];
  readonly visits: Visits;
}

export type MoveVerdict<N extends string = string> = MoveAccepted<N> | MoveRefusal<N>;

/**
 * The path after moving to `target` along a legal move: [entry] for the entry node, else the path rewound to
 * `target` when it is on it (the same array when it is the current node), else the path plus `target`.
 * Does not check legality: the caller (`nextPath`, or a machine transition that only exists for legal moves) has.
 */
export function enterPath<N extends string>(path: readonly N[], target: N, entry: N): readonly N[] {
  if (target === entry) return [entry];
  const index = path.indexOf(target);
  if (index < 0) return [...path, target];
  return index === path.length - 1 ? path : path.slice(0, index + 1);
}

/** Whether a run may still enter `node`, limited to `max` visits (guards of the generated machines). */
export function hasVisitsLeft(visits: Visits, node: string, max: number): boolean {
  return visitsOf(visits, node) < max;
}

/** The visit counts after a legal move into `target`: one more for a node of `limited`, else the same object. */
export function countVisit<N extends string>(visits: Visits, target: N, limited: readonly N[]): Visits {
  return limited.includes(target) ? withVisit(visits, target) : visits;
}

/** Decides a move: the path and visits after it, or why it is refused. Unknown ids are never legal. */
export function decideMove<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  visits: Visits = NO_VISITS,
): MoveVerdict<N> {
  if (!hasEntry(table.successors, target)) return NOT_A_MOVE;
  const node = target as N;
  const limit = limitOf(table, node);
  if (isPlainMove(table, path, node)) {
    if (limit !== undefined && !hasVisitsLeft(visits, node, limit.max)) {
      return { ok: false, reason: 'visit-limit', node, max: limit.max, escalation: limit.escalation };
    }
  } else if (!escalationTargets(table, path, visits).includes(node)) return NOT_A_MOVE;
  return { ok: true, path: enterPath(path, node, table.entry), visits: limit === undefined ? visits : withVisit(visits, node) };
}

/** Whether moving from `path` to `target` is legal. Unknown ids are never legal. */
export function isLegalMove<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  visits: Visits = NO_VISITS,
): target is N {
  return decideMove(table, path, target, visits).ok;
}

/** The path after moving to `target`, or null when the move is not legal from `path`. */
export function nextPath<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  visits: Visits = NO_VISITS,
): readonly N[] | null {
  const verdict = decideMove(table, path, target, visits);
  return verdict.ok ? verdict.path : null;
}

/**
 * Every legal target from `path`: the successors in edge order, then the entry node, then the hubs on the path
 * (each unless its visits are used up), then the escalation nodes of those whose visits are used up.
 */
export function legalTargets<N extends string>(table: TransitionTable<N>, path: readonly N[], visits: Visits = NO_VISITS): N[] {
  const targets = new Set<N>();
  for (const node of plainTargets(table, path)) if (!usedUp(table, visits, node)) targets.add(node);
  for (const node of escalationTargets(table, path, visits)) targets.add(node);
  return [...targets];
}

/** The nodes with a visit limit, in flowchart order. */
export function limitedNodes<N extends string>(table: TransitionTable<N>): N[] {
  return table.limits === undefined ? [] : (Object.keys(table.limits) as N[]);
}

const NOT_A_MOVE: MoveRefusal<never> = Object.freeze({ ok: false, reason: 'not-a-move' });

/** The rule without visit limits: a successor, the entry node, a hub on the path. */
function isPlainMove<N extends string>(table: TransitionTable<N>, path: readonly N[], target: N): boolean {
  if (target === table.entry) return true;
  const current = path.at(-1);
  if (current === undefined) return false;
  if (successorsOf(table, current).includes(target)) return true;
  return table.hubs.includes(target) && path.includes(target);
}

function plainTargets<N extends string>(table: TransitionTable<N>, path: readonly N[]): N[] {
  const current = path.at(-1);
  if (current === undefined) return [table.entry];
  const targets = new Set<N>(successorsOf(table, current));
  targets.add(table.entry);
  for (const hub of table.hubs) if (path.includes(hub)) targets.add(hub);
  return [...targets];
}

/** The escalation nodes that the used-up plain targets from `path` open. */
function escalationTargets<N extends string>(table: TransitionTable<N>, path: readonly N[], visits: Visits): N[] {
  if (table.limits === undefined) return [];
  const targets: N[] = [];
  for (const node of plainTargets(table, path)) {
    const limit = limitOf(table, node);
    if (limit !== undefined && !hasVisitsLeft(visits, node, limit.max) && !targets.includes(limit.escalation))
      targets.push(limit.escalation);
  }
  return targets;
}

function usedUp<N extends string>(table: TransitionTable<N>, visits: Visits, node: N): boolean {
  const limit = limitOf(table, node);
  return limit !== undefined && !hasVisitsLeft(visits, node, limit.max);
}

function limitOf<N extends string>(table: TransitionTable<N>, node: N): VisitLimit<N> | undefined {
  return entryOf(table.limits, node);
}

function withVisit(visits: Visits, node: string): Visits {
  return { ...visits, [node]: visitsOf(visits, node) + 1 };
}

/** Own counts only: a node id such as `constructor` must not read `Object.prototype`. */
function visitsOf(visits: Visits, node: string): number {
  return entryOf(visits, node) ?? 0;
}

function successorsOf<N extends string>(table: TransitionTable<N>, node: N): readonly N[] {
  return entryOf<readonly N[]>(table.successors, node) ?? [];
}
