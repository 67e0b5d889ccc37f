/**
 * Derives the graph facts the spec defines (decision nodes = rhombus nodes, terminal nodes = nodes with no
 * outgoing edges, successors in edge order) from a model, once, so checks, emitters and `inspect` agree.
 */
import type { GraphFacts, SopModel } from './sop-model.js';

export function deriveGraphFacts(model: Pick<SopModel, 'nodes' | 'edges'>): GraphFacts {
  const successors = new Map<string, string[]>();
  const unique = new Map<string, Set<string>>();
  for (const node of model.nodes) {
    successors.set(node.id, []);
    unique.set(node.id, new Set());
  }
  for (const edge of model.edges) {
    // An edge's endpoints are always nodes (the model adds referenced ids); keep successors unique.
    const seen = unique.get(edge.from);
    if (seen && !seen.has(edge.to)) {
      seen.add(edge.to);
      successors.get(edge.from)!.push(edge.to);
    }
  }
  return {
    decisionNodes: model.nodes.filter((n) => n.type === 'rhombus').map((n) => n.id),
    terminalNodes: model.nodes.filter((n) => (successors.get(n.id) ?? []).length === 0).map((n) => n.id),
    successors,
  };
}
