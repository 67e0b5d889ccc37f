/**
 * SOP047: a node a run can be moved to that gives the agent nothing: no prompt, no edge on, and not drawn as an end
 * (a stadium `([…])` or a circle). Mermaid makes a node of any new id an edge names, so `ROUTE -->|refund|
 * REFUND_FLOW` adds a terminal that nobody wrote: the agent can walk into it and stop there without a word. Said at
 * the first edge into it; a node that looks like a misspelling of a declared one is SOP046's instead.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import type { NodeShape } from '../parse/flowchart/ast.js';
import { likelyTyposOf } from './check-references.js';

/** The shapes a flowchart draws its ends with: Mermaid's `terminal` (the stadium), the circles, `stop`. */
export const END_SHAPES: ReadonlySet<NodeShape> = new Set<NodeShape>(['stadium', 'circle', 'double-circle', 'framed-circle']);

export function checkDeadEnds(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  const prompted = new Set(model.prompts.map((p) => p.nodeId));
  const terminals = new Set(facts.terminalNodes);
  const firstEdgeInto = new Map<string, SopModel['edges'][number]>();
  for (const edge of model.edges) if (!firstEdgeInto.has(edge.to) && edge.from !== edge.to) firstEdgeInto.set(edge.to, edge);
  const dead = model.nodes.filter((n) => terminals.has(n.id) && !prompted.has(n.id) && !END_SHAPES.has(n.type) && firstEdgeInto.has(n.id));
  if (dead.length === 0) return;
  const typos = dead.some((n) => !n.declared) ? likelyTyposOf(model) : new Map();
  for (const node of dead) {
    if (typos.has(node)) continue;
    const edge = firstEdgeInto.get(node.id)!;
    const label = node.declared ? node.description : '...';
    // The link and, when the node is first written right after it, its id: `-->|refund| REFUND_FLOW`.
    const after = node.span.start.line === edge.span.end.line && node.span.start.column >= edge.span.end.column;
    sink.push(
      diagnosticAt(
        model.file,
        'SOP047',
        after ? { start: edge.span.start, end: node.span.end } : edge.span,
        `${quoted(node.id)} has no prompt, no edge on and is not drawn as an end: a run moved here by ${quoted(`${edge.from} → ${node.id}`)} stops without instructions.`,
        `Give ${quoted(node.id)} a prompt (\`### ${node.id}\`) and an edge to where the conversation goes on, or draw it as an end: \`${node.id}([${label}])\`.`,
      ),
    );
  }
}
