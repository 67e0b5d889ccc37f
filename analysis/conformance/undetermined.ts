/**
 * Where the log cannot tell: the trace positions whose node differs between alignments of the least cost, from the
 * layers and edges a search (`search.ts`) left.
 */
import type { AlignModel } from './align-model.js';
import type { Search } from './search.js';
import { costOf, type Layer, stateOf } from './search-columns.js';

/**
 * The trace positions whose node differs between alignments of the least cost (whatever their number of moves:
 * where the log cannot tell). Entries on some least-cost alignment are marked backwards from the last layer: an
 * entry is on one when a move from it reaches a marked entry at exactly its cost. Moves between two events can go
 * round loops at no cost, so within a layer the marking runs to a fixpoint. Each event's nodes are those of the
 * marked entries it is explained from.
 */
export function undetermined(
  model: AlignModel,
  search: Search,
  layers: readonly Layer[],
  bestG: number,
): { event: number; nodes: number[] }[] {
  const entries = search.entries;
  const edges = search.edges;
  const dev = (at: number): number => costOf(entries.g[at]!);
  const bestDev = costOf(bestG);
  for (const at of layers.at(-1)!.order) if (dev(at) === bestDev) entries.mark[at] = 1;
  const result: { event: number; nodes: number[] }[] = [];
  const nodes = new Set<number>();
  const scratch = search.scratch;
  for (let position = layers.length - 2; position >= 0; position--) {
    const layer = layers[position]!;
    nodes.clear();
    const work: number[] = [];
    // The event that leaves the layer: its edges run from `events` to the next layer's `silent`.
    for (let e = layer.events; e < layers[position + 1]!.silent; e++) {
      const from = edges.from[e]!;
      const to = edges.to[e]!;
      if (entries.mark[to] !== 1 || dev(from) + edges.cost[e]! !== dev(to)) continue;
      nodes.add(model.state(stateOf(entries.key[from]!)).node);
      if (entries.mark[from] !== 1) {
        entries.mark[from] = 1;
        work.push(from);
      }
    }
    // Back through the silent moves, from the marked entries, to a fixpoint: the edges into each entry as lists.
    const span = layer.end - layer.first;
    if (scratch.head.length < span) scratch.head = new Int32Array(span * 2);
    if (scratch.link.length < edges.size) scratch.link = new Int32Array(edges.size * 2);
    const head = scratch.head;
    const link = scratch.link;
    head.fill(-1, 0, span);
    for (let e = layer.silent; e < layer.events; e++) {
      const to = edges.to[e]! - layer.first;
      link[e] = head[to]!;
      head[to] = e;
    }
    while (work.length > 0) {
      const to = work.pop()!;
      for (let e = head[to - layer.first]!; e >= 0; e = link[e]!) {
        const from = edges.from[e]!;
        if (entries.mark[from] === 1 || dev(from) + edges.cost[e]! !== dev(to)) continue;
        entries.mark[from] = 1;
        work.push(from);
      }
    }
    if (nodes.size > 1) result.push({ event: position, nodes: [...nodes].sort((a, b) => a - b) });
  }
  return result.reverse();
}
