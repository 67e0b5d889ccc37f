/**
 * Golden paths: the ways through a compiled SOP from the entry node to a terminal node, for `sop paths` and for
 * the test fixtures an app walks through the real runtime (`sop-toolkit/testing`).
 *
 * A path follows flowchart edges (every one a legal move) and goes around each loop at most once: as the runtime
 * keeps a run's path, a move to a node already on it rewinds the path there and so closes a loop (the cycle of
 * nodes it erased), and a path closes each cycle at most once. It respects visit limits (it never enters a node
 * more often than its `max_visits`).
 * Hub jumps and restarts are not edges: they add no path the edges do not already give.
 *
 * Bounded twice, so any SOP answers quickly: the search stops after `maxSteps` edge extensions (then the count is
 * a lower bound and says so), and at most `maxPaths` paths are listed. Which ones is decided, deterministically,
 * for coverage: first the shortest path to every terminal node, then paths that take an edge no listed path
 * takes yet, then the rest; fewest loops first, then shortest, then in flowchart order.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { type ForkWalk, searchForkWalks } from './fork-walks.js';

export const PATHS_FORMAT = 'sop-paths/1';

export interface PathLimits {
  /** Paths listed at most. */
  readonly maxPaths: number;
  /** Edge extensions the search makes at most; past it the count is a lower bound. */
  readonly maxSteps: number;
}

export const DEFAULT_PATH_LIMITS: PathLimits = Object.freeze({ maxPaths: 200, maxSteps: 1_000_000 });

/** Paths found beyond this many are counted but not kept as candidates for the listing (memory stays bounded). */
const CANDIDATES_KEPT = 20_000;

export interface GoldenPath {
  readonly terminal: string;
  /**
   * Entry node first, terminal last: the `goto_node` targets in order. A node appears again where the path goes
   * around a loop; with forks, a join appears after each branch (the moves that finish one).
   */
  readonly nodes: readonly string[];
  /** Loops gone around (moves that re-enter a node on the path): 0 for a simple path. */
  readonly loops: number;
  /** With forks: the indices in `nodes` of moves into a join that report the branch `failed`; absent when none do. */
  readonly failed?: readonly number[];
}

export interface GoldenPaths {
  readonly format: typeof PATHS_FORMAT;
  readonly agent: string;
  readonly source_hash: string;
  readonly entry_node: string;
  readonly rule: string;
  readonly limits: { readonly max_paths: number; readonly max_steps: number };
  /** `total` paths found; `exact` false when the search stopped at `max_steps` (then `total` is a lower bound). */
  readonly count: { readonly total: number; readonly exact: boolean; readonly listed: number };
  /** Paths found per terminal node, in the SOP's terminal order (lower bounds when the count is not exact). */
  readonly per_terminal: { readonly [terminal: string]: number };
  /** Terminal nodes no path reaches (unreachable from the entry node, or not met before `max_steps`). */
  readonly unreached_terminals: readonly string[];
  /** Edges (`FROM -> TO`) that no listed path takes. */
  readonly uncovered_edges: readonly string[];
  readonly paths: readonly GoldenPath[];
}

export const PATH_RULE =
  'Paths follow flowchart edges from the entry node to a terminal node, go around each loop at most once (a move to a node already on the path closes the loop of the nodes it leaves) and enter no node more often than its max_visits.';

/** What the rule adds for a SOP with forks. */
export const FORK_RULE =
  " At a fork they take the open branches in edge order, finishing each with a move into the join, once with every branch passed and, when the join has edges for an outcome, once with every branch failed ('failed' lists those moves).";

/**
 * The golden paths of `sop`. A SOP with sub-flows is walked expanded (`contract/composition.ts`): give its
 * expansion, as the runtime serves it.
 */
export function goldenPaths(sop: CompiledSop, limits: PathLimits = DEFAULT_PATH_LIMITS): GoldenPaths {
  if (sop.transitions.forks !== undefined) return forkGoldenPaths(sop, limits);
  const graph = indexGraph(sop);
  const search = searchPaths(graph, limits.maxSteps);
  const listed = choosePaths(graph, search, limits.maxPaths);
  const covered = new Set(listed.flatMap((path) => path.slice(1).map((to, i) => edgeKey(path[i]!, to))));
  const names = (path: readonly number[]): string[] => path.map((index) => graph.ids[index]!);
  return {
    format: PATHS_FORMAT,
    agent: sop.meta.agent,
    source_hash: sop.sourceHash,
    entry_node: sop.transitions.entry,
    rule: PATH_RULE,
    limits: { max_paths: limits.maxPaths, max_steps: limits.maxSteps },
    count: { total: search.total, exact: search.exact, listed: listed.length },
    per_terminal: Object.fromEntries(graph.terminals.map((t) => [graph.ids[t]!, search.perTerminal.get(t) ?? 0])),
    unreached_terminals: graph.terminals.filter((t) => !search.perTerminal.has(t)).map((t) => graph.ids[t]!),
    uncovered_edges: graph.edges
      .filter(([from, to]) => !covered.has(edgeKey(from, to)))
      .map(([from, to]) => `${graph.ids[from]} -> ${graph.ids[to]}`),
    paths: listed.map((path) => ({ terminal: graph.ids[path.at(-1)!]!, nodes: names(path), loops: loopsOf(path) })),
  };
}

interface IndexedGraph {
  readonly ids: readonly string[];
  readonly entry: number;
  /** Distinct successors per node, in edge order. */
  readonly successors: readonly (readonly number[])[];
  /** Edge number per (node, successor position). */
  readonly edgeIds: readonly (readonly number[])[];
  readonly edges: readonly (readonly [number, number])[];
  readonly terminals: readonly number[];
  /** max_visits per node, 0 for none. */
  readonly maxVisits: readonly number[];
}

function indexGraph(sop: CompiledSop): IndexedGraph {
  const ids = sop.nodeIds;
  const index = new Map(ids.map((id, i) => [id, i]));
  const edges: [number, number][] = [];
  const successors: number[][] = [];
  const edgeIds: number[][] = [];
  for (const [from, id] of ids.entries()) {
    const next = (entryOf(sop.transitions.successors, id) ?? []).flatMap((to) => (index.has(to) ? [index.get(to)!] : []));
    successors.push(next);
    edgeIds.push(next.map((to) => edges.push([from, to]) - 1));
  }
  return {
    ids,
    entry: index.get(sop.transitions.entry) ?? 0,
    successors,
    edgeIds,
    edges,
    terminals: sop.terminalNodes.flatMap((id) => (index.has(id) ? [index.get(id)!] : [])),
    maxVisits: ids.map((id) => entryOf(sop.transitions.limits, id)?.max ?? 0),
  };
}

interface SearchResult {
  readonly total: number;
  readonly exact: boolean;
  readonly perTerminal: ReadonlyMap<number, number>;
  /** The first paths found (at most CANDIDATES_KEPT), plus the best path to each terminal. */
  readonly candidates: readonly (readonly number[])[];
}

/** What a move changed, so the search can take it back. */
type Undo = { readonly kind: 'append' } | { readonly kind: 'close'; readonly erased: readonly number[]; readonly cycle: string };

/**
 * Depth-first over the walks from the entry node, iteratively (a walk may be long). The walk's loop-erased path is
 * kept as the runtime keeps it (a move to a node on the path rewinds it there): each rewind closes a loop, the
 * cycle of nodes it erased, and a walk closes each cycle at most once.
 */
function searchPaths(graph: IndexedGraph, maxSteps: number): SearchResult {
  const visits = new Int32Array(graph.ids.length);
  /** Position + 1 of each node on the loop-erased path, 0 when off it. */
  const onPath = new Int32Array(graph.ids.length);
  const path: number[] = [graph.entry];
  const walk: number[] = [graph.entry];
  const cursor: number[] = [0];
  const undo: Undo[] = [{ kind: 'append' }];
  const closed = new Set<string>();
  visits[graph.entry] = 1;
  onPath[graph.entry] = 1;
  const perTerminal = new Map<number, number>();
  const bestPerTerminal = new Map<number, readonly number[]>();
  const candidates: (readonly number[])[] = [];
  let total = 0;
  let steps = 0;
  let exact = true;

  const found = (): void => {
    total += 1;
    const terminal = walk.at(-1)!;
    perTerminal.set(terminal, (perTerminal.get(terminal) ?? 0) + 1);
    const copy = walk.slice();
    const best = bestPerTerminal.get(terminal);
    if (best === undefined || comparePaths(copy, best) < 0) bestPerTerminal.set(terminal, copy);
    if (candidates.length < CANDIDATES_KEPT) candidates.push(copy);
  };
  const takeBack = (node: number, change: Undo): void => {
    visits[node]! -= 1;
    if (change.kind === 'append') {
      path.pop();
      onPath[node] = 0;
      return;
    }
    closed.delete(change.cycle);
    for (const erased of change.erased) onPath[erased] = path.push(erased);
  };
  if (graph.successors[graph.entry]!.length === 0) found();

  while (walk.length > 0) {
    const depth = walk.length - 1;
    const node = walk[depth]!;
    const next = graph.successors[node]!;
    const position = cursor[depth]!;
    if (position >= next.length) {
      walk.pop();
      cursor.pop();
      takeBack(node, undo.pop()!);
      continue;
    }
    cursor[depth] = position + 1;
    const to = next[position]!;
    const max = graph.maxVisits[to]!;
    if (max > 0 && visits[to]! >= max) continue;
    let change: Undo = { kind: 'append' };
    if (onPath[to]! > 0) {
      const erased = path.slice(onPath[to]!);
      const cycle = cycleKey([to, ...erased]);
      if (closed.has(cycle)) continue;
      change = { kind: 'close', erased, cycle };
    }
    if (++steps > maxSteps) {
      exact = false;
      break;
    }
    if (change.kind === 'close') {
      closed.add(change.cycle);
      path.length = onPath[to]!;
      for (const erased of change.erased) onPath[erased] = 0;
    } else onPath[to] = path.push(to);
    visits[to]! += 1;
    walk.push(to);
    cursor.push(0);
    undo.push(change);
    if (graph.successors[to]!.length === 0) found();
  }
  const kept = new Set(candidates);
  for (const best of bestPerTerminal.values()) if (!kept.has(best)) candidates.push(best);
  return { total, exact, perTerminal, candidates };
}

/** A cycle the same whichever of its nodes closed it: rotated to start at its smallest node index. */
function cycleKey(cycle: readonly number[]): string {
  let start = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i]! < cycle[start]!) start = i;
  return [...cycle.slice(start), ...cycle.slice(0, start)].join(',');
}

/** Up to `maxPaths`: the best path to each terminal, then paths taking new edges, then the rest; in path order. */
function choosePaths(graph: IndexedGraph, search: SearchResult, maxPaths: number): (readonly number[])[] {
  const ordered = [...search.candidates].sort(comparePaths);
  const chosen = new Set<readonly number[]>();
  const covered = new Set<string>();
  const take = (path: readonly number[]): void => {
    if (chosen.size >= maxPaths || chosen.has(path)) return;
    chosen.add(path);
    for (let i = 1; i < path.length; i++) covered.add(edgeKey(path[i - 1]!, path[i]!));
  };
  for (const terminal of graph.terminals) {
    const best = ordered.find((path) => path.at(-1) === terminal);
    if (best !== undefined) take(best);
  }
  for (const path of ordered) if (path.some((to, i) => i > 0 && !covered.has(edgeKey(path[i - 1]!, to)))) take(path);
  for (const path of ordered) take(path);
  return [...chosen].sort(comparePaths);
}

/** Fewest loops, then shortest, then node by node in flowchart order. */
function comparePaths(a: readonly number[], b: readonly number[]): number {
  const byLoops = loopsOf(a) - loopsOf(b);
  if (byLoops !== 0) return byLoops;
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Loops a walk goes around: the moves that re-enter a node on its loop-erased path. */
function loopsOf(walk: readonly number[]): number {
  const onPath = new Map<number, number>();
  const path: number[] = [];
  let loops = 0;
  for (const node of walk) {
    const at = onPath.get(node);
    if (at === undefined) {
      onPath.set(node, path.push(node) - 1);
      continue;
    }
    loops += 1;
    for (const erased of path.splice(at + 1)) onPath.delete(erased);
  }
  return loops;
}

function edgeKey(from: number, to: number): string {
  return `${from}>${to}`;
}

/** The golden paths of a SOP with forks, from its walks (`fork-walks.ts`), chosen for coverage as the plain ones are. */
function forkGoldenPaths(sop: CompiledSop, limits: PathLimits): GoldenPaths {
  const search = searchForkWalks(sop, limits.maxSteps);
  const order = new Map(sop.nodeIds.map((id, i) => [id, i]));
  const rank = (id: string) => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  const compare = (a: ForkWalk, b: ForkWalk): number => {
    if (a.loops !== b.loops) return a.loops - b.loops;
    if (a.nodes.length !== b.nodes.length) return a.nodes.length - b.nodes.length;
    if (a.failed.length !== b.failed.length) return a.failed.length - b.failed.length;
    for (let i = 0; i < a.nodes.length; i++) if (a.nodes[i] !== b.nodes[i]) return rank(a.nodes[i]!) - rank(b.nodes[i]!);
    return 0;
  };
  const isEdge = (from: string | null, to: string) => from !== null && (entryOf(sop.transitions.successors, from) ?? []).includes(to);
  const edgesOf = (walk: ForkWalk): string[] =>
    walk.nodes.flatMap((to, i) => {
      const from = walk.froms[i] ?? null;
      return isEdge(from, to) ? [`${from} -> ${to}`] : [];
    });
  const ordered = [...search.walks].sort(compare);
  const chosen = new Set<ForkWalk>();
  const covered = new Set<string>();
  const take = (walk: ForkWalk): void => {
    if (chosen.size >= limits.maxPaths || chosen.has(walk)) return;
    chosen.add(walk);
    for (const edge of edgesOf(walk)) covered.add(edge);
  };
  for (const terminal of sop.terminalNodes) {
    const best = ordered.find((walk) => walk.nodes.at(-1) === terminal);
    if (best !== undefined) take(best);
  }
  for (const walk of ordered) if (edgesOf(walk).some((edge) => !covered.has(edge))) take(walk);
  for (const walk of ordered) take(walk);
  const listed = [...chosen].sort(compare);
  const perTerminal = new Map<string, number>();
  for (const walk of search.walks) perTerminal.set(walk.nodes.at(-1)!, (perTerminal.get(walk.nodes.at(-1)!) ?? 0) + 1);
  const allEdges = sop.nodeIds.flatMap((from) => (entryOf(sop.transitions.successors, from) ?? []).map((to) => `${from} -> ${to}`));
  return {
    format: PATHS_FORMAT,
    agent: sop.meta.agent,
    source_hash: sop.sourceHash,
    entry_node: sop.transitions.entry,
    rule: PATH_RULE + FORK_RULE,
    limits: { max_paths: limits.maxPaths, max_steps: limits.maxSteps },
    count: { total: search.total, exact: search.exact, listed: listed.length },
    per_terminal: Object.fromEntries(sop.terminalNodes.map((t) => [t, perTerminal.get(t) ?? 0])),
    unreached_terminals: sop.terminalNodes.filter((t) => !perTerminal.has(t)),
    uncovered_edges: allEdges.filter((edge) => !covered.has(edge)),
    paths: listed.map((walk) => ({
      terminal: walk.nodes.at(-1)!,
      nodes: walk.nodes,
      loops: walk.loops,
      ...(walk.failed.length === 0 ? {} : { failed: walk.failed }),
    })),
  };
}
