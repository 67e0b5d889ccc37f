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
 * Fork/join (`fork` and `join` on nodes) lets the agent work through branches in any order before the flow goes on.
 * A fork's successors are its branches. A run keeps a record per fork on its path (`ForkProgress`: the branches done
 * and how each went); moving from a branch into the fork's join finishes that branch (with the move's `outcome`,
 * `passed` unless said otherwise): when that completes the join (every branch done for `all`; a branch passed, or
 * every branch done, for `any`) the run enters the join, else it goes back to the fork (the path rewinds to it, as to
 * a node on it) and the finished branch is no longer open there. At the join, the successors reserved for an outcome
 * (its edges labelled `passed` or `failed`) are legal only when the join came out that way. Entering a fork anew
 * (from outside, or round a loop) starts its record afresh; a record lives while its fork is on the path. Without
 * forks the rule is the one above.
 *
 * In a SOP expanded with its sub-flows (`composition.ts`) the path is the frames of the call stack one after the other;
 * a move from a called SOP's terminal node out of the call (`returns`) rewinds the path to the sub-flow node first, so
 * the call's frame ends and its hubs close.
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
  /** The fork nodes, in flowchart order; absent when the SOP has none. */
  readonly forks?: { readonly [K in N]?: ForkRule<N> };
  /**
   * Only in a SOP expanded with its sub-flows (`composition.ts`): each terminal node of a called SOP, and the sub-flow
   * node whose call it ends. A move from it out of the call first rewinds the path to that node: the call's frame ends.
   */
  readonly returns?: { readonly [K in N]?: N };
}

/** How a branch, or a join, came out. */
export type Outcome = 'passed' | 'failed';

/** A fork node's join and how it completes (`strategy`), and which successors of the join an outcome reserves. */
export interface ForkRule<N extends string = string> {
  /** The fork's successors: the first node of each branch, in edge order. */
  readonly branches: readonly N[];
  readonly join: N;
  /** `all`: every branch must be done; `any`: one branch that passed is enough (or every branch done). */
  readonly strategy: 'all' | 'any';
  /** Successors of the join legal only when it passed (edges labelled `passed`). */
  readonly passed: readonly N[];
  /** Successors of the join legal only when it failed (edges labelled `failed`). */
  readonly failed: readonly N[];
}

/** A branch of a fork, finished. */
export interface BranchDone {
  /** The branch's first node (a successor of the fork). */
  readonly branch: string;
  readonly outcome: Outcome;
}

/** A fork on the run's path (`fork` at `depth`): the branches done so far, and, once the join is entered, its outcome. */
export interface ForkProgress {
  readonly fork: string;
  readonly depth: number;
  readonly done: readonly BranchDone[];
  readonly outcome?: Outcome;
}

export const NO_FORKS: readonly ForkProgress[] = Object.freeze([]);

/** Moves made into each limited node since the run started (nodes without a limit are not counted). */
export interface Visits {
  readonly [node: string]: number;
}

export const NO_VISITS: Visits = Object.freeze({});

/**
 * Why a move is refused: not a move of the rule, a move into a node whose visits are used up, a branch of the fork
 * the run is at that is already done, or a successor of a join that its outcome does not open.
 */
export type MoveRefusal<N extends string = string> =
  | { readonly ok: false; readonly reason: 'not-a-move' }
  | { readonly ok: false; readonly reason: 'visit-limit'; readonly node: N; readonly max: number; readonly escalation: N }
  | { readonly ok: false; readonly reason: 'branch-done'; readonly node: N; readonly fork: N }
  | { readonly ok: false; readonly reason: 'join-outcome'; readonly node: N; readonly join: N; readonly outcome: Outcome };

/** A legal move: the path and the visit counts after it (and, for a table with forks, the forks' progress). */
export interface MoveAccepted<N extends string = string> {
  readonly ok: true;
  readonly path: readonly N[];
  readonly visits: Visits;
  /** The records of the forks on the new path; present when the table has forks. */
  readonly forks?: readonly ForkProgress[];
  /** Set when the move finished a branch without completing the join: the run is back at this fork. */
  readonly back?: N;
  /** Set when the move left a call from one of its terminal nodes: the sub-flow node whose call ended. */
  readonly returned?: N;
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

/**
 * Decides a move: the path and visits after it (with the forks' progress, for a table with forks), or why it is
 * refused. Unknown ids are never legal. `outcome` is how the branch a move into a join finishes came out.
 */
export function decideMove<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  visits: Visits = NO_VISITS,
  forks: readonly ForkProgress[] = NO_FORKS,
  outcome: Outcome = 'passed',
): MoveVerdict<N> {
  if (!hasEntry(table.successors, target)) return NOT_A_MOVE;
  const node = target as N;
  const limit = limitOf(table, node);
  if (isPlainMove(table, path, node)) {
    if (limit !== undefined && !hasVisitsLeft(visits, node, limit.max)) {
      return { ok: false, reason: 'visit-limit', node, max: limit.max, escalation: limit.escalation };
    }
  } else if (!escalationTargets(table, path, visits).includes(node)) return NOT_A_MOVE;
  const counted = limit === undefined ? visits : withVisit(visits, node);
  const call = returnOf(table, path, node);
  const from = call === undefined ? path : path.slice(0, path.lastIndexOf(call) + 1);
  const returned = call === undefined ? {} : { returned: call };
  if (table.forks === undefined) return { ok: true, path: enterPath(from, node, table.entry), visits: counted, ...returned };
  const moved = forkMove(table.forks, table.entry, from, node, forks, outcome);
  if (!moved.ok) return moved;
  if (moved.back !== undefined) return { ok: true, path: moved.path, visits, forks: moved.forks, back: moved.back, ...returned };
  return { ok: true, path: moved.path, visits: counted, forks: moved.forks, ...returned };
}

/**
 * The sub-flow node whose call a move from `path` to `target` ends: the current node is a terminal of that call and
 * the target is outside it (`CALL.` is the prefix of the call's nodes) and not on the path (going back along the path
 * rewinds past the call anyway).
 */
function returnOf<N extends string>(table: TransitionTable<N>, path: readonly N[], target: N): N | undefined {
  const current = path.at(-1);
  if (table.returns === undefined || current === undefined) return undefined;
  const call = entryOf<N>(table.returns, current);
  if (call === undefined || target.startsWith(`${call}.`) || path.includes(target)) return undefined;
  return path.includes(call) ? call : undefined;
}

/** Whether moving from `path` to `target` is legal. Unknown ids are never legal. */
export function isLegalMove<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  visits: Visits = NO_VISITS,
  forks: readonly ForkProgress[] = NO_FORKS,
): target is N {
  return decideMove(table, path, target, visits, forks).ok;
}

/** The path after moving to `target`, or null when the move is not legal from `path`. */
export function nextPath<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  target: string,
  visits: Visits = NO_VISITS,
  forks: readonly ForkProgress[] = NO_FORKS,
): readonly N[] | null {
  const verdict = decideMove(table, path, target, visits, forks);
  return verdict.ok ? verdict.path : null;
}

/**
 * Every legal target from `path`: the successors in edge order, then the entry node, then the hubs on the path
 * (each unless its visits are used up), then the escalation nodes of those whose visits are used up; with forks, less
 * the branches already done at the fork the run is at and the join's successors its outcome does not open.
 */
export function legalTargets<N extends string>(
  table: TransitionTable<N>,
  path: readonly N[],
  visits: Visits = NO_VISITS,
  forks: readonly ForkProgress[] = NO_FORKS,
): N[] {
  const targets = new Set<N>();
  for (const node of plainTargets(table, path)) if (!usedUp(table, visits, node)) targets.add(node);
  for (const node of escalationTargets(table, path, visits)) targets.add(node);
  if (table.forks === undefined) return [...targets];
  return [...targets].filter((node) => decideMove(table, path, node, visits, forks).ok);
}

/** The fork records that still hold on `path` (their fork is still where it was entered). */
export function forksOnPath(forks: readonly ForkProgress[], path: readonly string[]): ForkProgress[] {
  return forks.filter((record) => record.depth < path.length && path[record.depth] === record.fork);
}

/** A fork's rule, own entries only. */
export function forkRuleOf<N extends string>(table: TransitionTable<N>, node: string): ForkRule<N> | undefined {
  return entryOf(table.forks, node);
}

/** The nodes with a visit limit, in flowchart order. */
export function limitedNodes<N extends string>(table: TransitionTable<N>): N[] {
  return table.limits === undefined ? [] : (Object.keys(table.limits) as N[]);
}

/** The forks of a table (or of a machine), by fork node. */
export type ForkTable<N extends string = string> = { readonly [K in N]?: ForkRule<N> };

/** What a move does to the forks: refused by them, into its target, or back to a fork (a branch finished early). */
export type ForkMove<N extends string = string> =
  | Extract<MoveRefusal<N>, { readonly reason: 'branch-done' | 'join-outcome' }>
  | { readonly ok: true; readonly path: readonly N[]; readonly forks: readonly ForkProgress[]; readonly back?: N };

/**
 * The fork part of a move the rest of the rule allows (the caller has checked that: `decideMove`, or a machine
 * transition that exists only for such moves): a done branch refused at its fork, a successor of a join that its
 * outcome does not open refused, a move from a branch into its join finishing the branch (into the join when that
 * completes it, else back to the fork), and a fork entered anew starting its record afresh.
 */
export function forkMove<N extends string>(
  forks: ForkTable<N>,
  entry: N,
  path: readonly N[],
  target: N,
  progress: readonly ForkProgress[],
  outcome: Outcome = 'passed',
): ForkMove<N> {
  const rule = (node: string) => entryOf<ForkRule<N>>(forks, node);
  const live = forksOnPath(progress, path);
  const current = path.at(-1);
  const here = current === undefined ? undefined : live.find((record) => record.depth === path.length - 1 && record.fork === current);
  if (here !== undefined && rule(here.fork)?.branches.includes(target) && here.done.some((done) => done.branch === target)) {
    return { ok: false, reason: 'branch-done', node: target, fork: current as N };
  }
  const joined =
    current === undefined ? undefined : live.find((record) => rule(record.fork)?.join === current && record.outcome !== undefined);
  const joinRule = joined === undefined ? undefined : rule(joined.fork);
  if (joined?.outcome !== undefined && joinRule !== undefined) {
    const reserved: Outcome | undefined = joinRule.passed.includes(target)
      ? 'passed'
      : joinRule.failed.includes(target)
        ? 'failed'
        : undefined;
    if (reserved !== undefined && reserved !== joined.outcome) {
      return { ok: false, reason: 'join-outcome', node: target, join: current as N, outcome: joined.outcome };
    }
  }
  const open = live.find((record) => rule(record.fork)?.join === target && record.depth < path.length - 1 && record.outcome === undefined);
  if (open !== undefined && !path.includes(target)) {
    const finished = rule(open.fork)!;
    const branch = path[open.depth + 1]!;
    const done = [...open.done.filter((d) => d.branch !== branch), { branch, outcome }];
    const allDone = finished.branches.every((b) => done.some((d) => d.branch === b));
    const anyPassed = done.some((d) => d.outcome === 'passed');
    const others = live.filter((record) => record !== open);
    if (!(finished.strategy === 'all' ? allDone : anyPassed || allDone)) {
      const back = path.slice(0, open.depth + 1);
      return { ok: true, path: back, forks: [...forksOnPath(others, back), { ...open, done }], back: open.fork as N };
    }
    const joinOutcome: Outcome =
      finished.strategy === 'all' ? (done.every((d) => d.outcome === 'passed') ? 'passed' : 'failed') : anyPassed ? 'passed' : 'failed';
    const next = enterPath(path, target, entry);
    return { ok: true, path: next, forks: [...forksOnPath(others, next), { ...open, done, outcome: joinOutcome }] };
  }
  const next = enterPath(path, target, entry);
  const kept = forksOnPath(live, next).filter((record) => record.fork !== target);
  return { ok: true, path: next, forks: rule(target) === undefined ? kept : [...kept, { fork: target, depth: next.length - 1, done: [] }] };
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
