/**
 * What an author wants to know about one node while writing its SOP, from the compiler's model: its shape and
 * label, whether it is the entry node, a hub, a decision or a terminal, its prompt, tools and examples, its edges
 * both ways with their conditions (and, going out, the `when` conditions that decide them by data), its visit limit, and the policies that guard it or that it satisfies. The hover
 * of the language server and the preview's node panel both show this. Policies and visit limits are resolved by the
 * model stage's own functions, so the answer holds while the file still has errors elsewhere.
 */
import type { GraphFacts, SopModel } from '../../generator/model/sop-model.js';
import { resolveSelector, type SelectorContext, selectorContextOf } from '../../generator/model/policy-selectors.js';
import { resolveVisitLimits } from '../../generator/model/visit-limits.js';
import type { EdgeDetail, NodeDetails } from './node-details-types.js';

export interface ModelQueries {
  details(id: string): NodeDetails | undefined;
  /** Nodes whose `tools` name the tool, in flowchart order. */
  nodesOffering(tool: string): readonly string[];
}

export function modelQueries(model: SopModel, facts: GraphFacts | null): ModelQueries {
  const prompts = new Map(model.prompts.map((p) => [p.nodeId, p]));
  const toolsByNode = new Map(model.nodes.map((n) => [n.id, (prompts.get(n.id)?.tools ?? []).map((t) => t.name)]));
  const decisions = new Set(facts?.decisionNodes ?? model.nodes.filter((n) => n.type === 'rhombus').map((n) => n.id));
  const outgoing = new Map<string, EdgeDetail[]>();
  const incoming = new Map<string, EdgeDetail[]>();
  const when = (from: string, to: string) => prompts.get(from)?.when.find((w) => w.target === to)?.condition?.text;
  for (const e of model.edges) {
    const data = when(e.from, e.to);
    push(outgoing, e.from, { node: e.to, condition: e.condition, style: e.style, ...(data === undefined ? {} : { when: data }) });
    push(incoming, e.to, { node: e.from, condition: e.condition, style: e.style });
  }
  const terminals = new Set(facts?.terminalNodes ?? model.nodes.filter((n) => !outgoing.has(n.id)).map((n) => n.id));
  const context: SelectorContext = selectorContextOf(
    model.nodes.map((n) => n.id),
    toolsByNode,
    terminals,
  );
  const policies = model.policies.map((p) => ({
    id: p.id,
    description: p.description,
    severity: p.severity,
    guards: new Set(resolveSelector(p.everyPathTo, context).nodes),
    passes: resolveSelector(p.passes, context).nodes,
  }));
  const limits = new Map(resolveVisitLimits(model).map((l) => [l.node, { max: l.max, escalation: l.escalation }]));
  const hubs = new Set(model.hubs.map((h) => h.id));
  const nodes = new Map(model.nodes.map((n) => [n.id, n]));

  return {
    details(id) {
      const node = nodes.get(id);
      if (node === undefined) return undefined;
      const prompt = prompts.get(id);
      return {
        id,
        type: node.type,
        label: node.description,
        entry: model.entryNode === id,
        hub: hubs.has(id),
        decision: decisions.has(id),
        terminal: terminals.has(id),
        prompt: prompt?.prompt ?? null,
        tools: toolsByNode.get(id) ?? [],
        examples: prompt?.examples.length ?? 0,
        outgoing: outgoing.get(id) ?? [],
        incoming: incoming.get(id) ?? [],
        visitLimit: limits.get(id) ?? null,
        guardedBy: policies
          .filter((p) => p.guards.has(id))
          .map((p) => ({ id: p.id, description: p.description, severity: p.severity, passes: p.passes })),
        satisfies: policies.filter((p) => p.passes.includes(id)).map((p) => p.id),
      };
    },
    nodesOffering(tool) {
      return model.nodes.filter((n) => (toolsByNode.get(n.id) ?? []).includes(tool)).map((n) => n.id);
    },
  };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
