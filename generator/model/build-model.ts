/**
 * The model stage: turns one file's parse results into a `SopModel` (plain data, `.md` positions). The
 * flowchart's nodes and edges come from `flowchart-graph.ts`, which applies the SOP format's reading of Mermaid.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt, type Diagnostic, type SourceSpan } from '../diagnostics/diagnostic.js';
import { LIMITS } from '../limits.js';
import type { ParsedSop } from '../parse/parse-sop.js';
import { flowchartGraph } from './flowchart-graph.js';
import { mentionsOf } from './mention-model.js';
import { escalationNodeOf, policiesOf, renamesOf, tokenBudgetOf } from './policy-model.js';
import type { ModelEdge, ModelNode, SopModel } from './sop-model.js';

/** The model of a parsed file (null when it is too broken to model); the diagnostics found go to `sink`. */
export function buildModel(parsed: ParsedSop, sourceHash: string, sink: DiagnosticSink): SopModel | null {
  const { frontmatter: fm, frontmatterYaml: yaml, flowchart, source } = parsed;
  if (!fm || !yaml || !flowchart) return null;
  const { nodes, edges, diagnostics } = flowchartGraph(source.file, flowchart);
  for (const diagnostic of diagnostics) sink.push(diagnostic);
  const tooLarge = sizeLimit(source.file, nodes, edges);
  if (tooLarge) {
    sink.push(tooLarge);
    return null;
  }
  const systemPromptSections = parsed.systemPromptSections.map((s) => ({ heading: s.heading, span: s.headingSpan }));
  const systemPrompt = parsed.systemPromptSections.map((s) => source.text.slice(s.start, s.end).trim()).join('\n\n');
  const entryNodeSpan: SourceSpan = fm.entry_node !== undefined ? yaml.spanOf(['entry_node']) : flowchart.span;

  const model: SopModel = {
    file: source.file,
    sourceHash,
    agent: fm.agent,
    agentSpan: yaml.spanOf(['agent']),
    version: fm.version,
    description: fm.description ?? null,
    entryNode: fm.entry_node ?? 'START',
    entryNodeSpan,
    hubs: (fm.hubs ?? []).map((id, i) => ({ id, span: yaml.spanOf(['hubs', i]) })),
    model: fm.model ?? null,
    mcpServers: fm.mcp_servers ?? [],
    mcpServerSpans: (fm.mcp_servers ?? []).map((_, i) => yaml.spanOf(['mcp_servers', i, 'name'])),
    tools: fm.tools.map((name, i) => ({ name, span: yaml.spanOf(['tools', i]) })),
    nodes,
    edges,
    prompts: parsed.prompts.prompts.map((p) => ({ ...p })),
    promptForm: parsed.prompts.form,
    systemPromptSections,
    systemPrompt,
    flowchart: flowchart.source,
    flowchartSpan: flowchart.span,
    escalationNode: escalationNodeOf(fm, yaml),
    policies: policiesOf(fm, yaml),
    tokenBudget: tokenBudgetOf(fm, yaml),
    renames: renamesOf(fm, yaml),
    mentions: mentionsOf(parsed.mentions, {
      nodes: new Set(nodes.map((n) => n.id)),
      tools: fm.tools,
      servers: fm.mcp_servers ?? [],
      otherIds: [...flowchart.ast.subgraphs.map((s) => s.id), ...flowchart.ast.edges.flatMap((e) => (e.id === undefined ? [] : [e.id]))],
    }),
  };
  return model;
}

function sizeLimit(file: string, nodes: readonly ModelNode[], edges: readonly ModelEdge[]): Diagnostic | null {
  const over = (what: string, count: number, limit: number, span: SourceSpan) =>
    diagnosticAt(
      file,
      'SOP092',
      span,
      `The flowchart has ${count.toLocaleString('en')} ${what}; a SOP may have at most ${limit.toLocaleString('en')} (this is the first one over).`,
    );
  if (nodes.length > LIMITS.flowchartNodes) return over('nodes', nodes.length, LIMITS.flowchartNodes, nodes[LIMITS.flowchartNodes]!.span);
  if (edges.length > LIMITS.flowchartEdges) return over('edges', edges.length, LIMITS.flowchartEdges, edges[LIMITS.flowchartEdges]!.span);
  return null;
}
