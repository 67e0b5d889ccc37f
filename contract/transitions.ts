/**
 * The one transition rule (spec, "Transitions"). The compiler emits a `TransitionTable` per SOP; the server
 * decides every `goto_node` with `nextPath`, and the generated XState machine moves with `enterPath` behind
 * guards built from the same table, so the two cannot disagree (a property test checks it on every SOP).
 *
 * From the current node the agent may go to:
 *   - a direct successor;
 *   - the entry node, always: the path restarts as [entry];
 *   - a hub on the path, i.e. one reached through the flowchart since the last restart (so a hub such as
 *     `ROUTE` can be re-entered for the next intent but never used to skip `AUTH`).
 * Before the first move only the entry node is legal. A terminal node has no successors: from it, only the
 * entry node and the hubs on the path are legal.
 *
 * The path is how the agent got here from the entry node, a simple walk. Moving to a node already on it (a hub
 * re-entered, a fallback edge back, any loop) rewinds it to that node; any other legal move appends. By
 * induction every path is a walk along the flowchart's edges from the entry node with no node twice, so it never
 * holds more nodes than the SOP has, and a hub is open exactly while it is on the path.
 *
 * Pure, dependency-free and browser-safe: generated machines import it at run time.
 */

export interface TransitionTable<N extends string = string> {
  /** Always legal; moving there restarts the path. */
  readonly entry: N;
  /** Legal whenever they are on the path. */
  readonly hubs: readonly N[];
  /** Every node's distinct successors, in edge order (empty for terminal nodes). */
  readonly successors: { readonly [K in N]: readonly N[] };
}

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

/** Whether moving from `path` to `target` is legal. Unknown ids are never legal. */
export function isLegalMove<N extends string>(table: TransitionTable<N>, path: readonly N[], target: string): target is N {
  if (target === table.entry) return true;
  const current = path.at(-1);
  if (current === undefined || !Object.hasOwn(table.successors, target)) return false;
  if (successorsOf(table, current).includes(target as N)) return true;
  return table.hubs.includes(target as N) && path.includes(target as N);
}

/** The path after moving to `target`, or null when the move is not legal from `path`. */
export function nextPath<N extends string>(table: TransitionTable<N>, path: readonly N[], target: string): readonly N[] | null {
  return isLegalMove(table, path, target) ? enterPath(path, target, table.entry) : null;
}

/** Every legal target from `path`: the successors in edge order, then the entry node, then the hubs on the path. */
export function legalTargets<N extends string>(table: TransitionTable<N>, path: readonly N[]): N[] {
  const current = path.at(-1);
  if (current === undefined) return [table.entry];
  const targets = new Set<N>(successorsOf(table, current));
  targets.add(table.entry);
  for (const hub of table.hubs) if (path.includes(hub)) targets.add(hub);
  return [...targets];
}

function successorsOf<N extends string>(table: TransitionTable<N>, node: N): readonly N[] {
  return Object.hasOwn(table.successors, node) ? table.successors[node] : [];
}
