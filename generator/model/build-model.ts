/**
 * The model stage: turns one file's parse results into a `SopModel` (plain data, `.md` positions). Applies
 * the flowchart's semantics: a node's first appearance fixes its order, the labelled declaration wins over
 * bare references (between two labelled ones the later wins, as in Mermaid, with a warning), `<-->` links
 * run both ways, and invisible `~~~` links are layout only, so they are not transitions.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt, type Diagnostic, type SourceSpan } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import { LIMITS } from '../limits.js';
import type { EdgeOccurrence } from '../parse/flowchart/ast.js';
import type { ParsedFlowchart, ParsedSop } from '../parse/parse-sop.js';
import type { EdgeStyle } from '../../contract/compiled-sop.js';
import type { ModelEdge, ModelNode, SopModel } from './sop-model.js';

/** The model of a parsed file (null when it is too broken to model); the diagnostics found go to `sink`. */
export function buildModel(parsed: ParsedSop, sourceHash: string, sink: DiagnosticSink): SopModel | null {
  const { frontmatter: fm, frontmatterYaml: yaml, flowchart, source } = parsed;
  if (!fm || !yaml || !flowchart) return null;
  const nodes = buildNodes(source.file, flowchart, sink);
  const edges = buildEdges(flowchart);
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
    tools: fm.tools.map((name, i) => ({ name, span: yaml.spanOf(['tools', i]) })),
    nodes,
    edges,
    prompts: parsed.prompts.prompts.map((p) => ({ ...p })),
    promptForm: parsed.prompts.form,
    systemPromptSections,
    systemPrompt,
    flowchart: flowchart.source,
    flowchartSpan: flowchart.span,
  };
  return model;
}

function buildNodes(file: string, flowchart: ParsedFlowchart, sink: DiagnosticSink): ModelNode[] {
  const byId = new Map<string, { node: ModelNode; declared: boolean }>();
  for (const occ of flowchart.ast.nodes) {
    const seen = byId.get(occ.id);
    if (occ.shape === undefined) {
      if (!seen)
        byId.set(occ.id, {
          node: { id: occ.id, type: 'rectangle', description: occ.id, declared: false, span: flowchart.toFile(occ.idSpan) },
          declared: false,
        });
      continue;
    }
    const description = occ.label ?? occ.id;
    const declared: ModelNode = { id: occ.id, type: occ.shape, description, declared: true, span: flowchart.toFile(occ.idSpan) };
    if (seen?.declared && (seen.node.type !== occ.shape || seen.node.description !== description)) {
      const first = seen.node.span.start;
      sink.push(
        diagnosticAt(
          file,
          'SOP015',
          declared.span,
          `Node ${quoted(occ.id)} is declared again with a different ${seen.node.type !== occ.shape ? 'shape' : 'label'} (first declared at ${first.line}:${first.column}); this declaration wins.`,
        ),
      );
    }
    // Keep the order of first appearance, take the shape and label of this (later, labelled) declaration.
    byId.set(occ.id, { node: { ...declared, span: seen?.declared ? seen.node.span : declared.span }, declared: true });
  }
  return [...byId.values()].map((v) => v.node);
}

/** SOP092 when the flowchart has more nodes or edges than the compiler takes, at the first one over. */
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

const STYLE: Record<EdgeOccurrence['stroke'], EdgeStyle | null> = { normal: 'solid', dotted: 'dotted', thick: 'thick', invisible: null };

function buildEdges(flowchart: ParsedFlowchart): ModelEdge[] {
  const edges: ModelEdge[] = [];
  for (const e of flowchart.ast.edges) {
    const style = STYLE[e.stroke];
    if (style === null) continue;
    const base = {
      condition: e.label,
      style,
      stroke: e.stroke,
      arrowStart: e.arrowStart,
      arrowEnd: e.arrowEnd,
      span: flowchart.toFile(e.span),
    };
    edges.push({ from: e.from, to: e.to, ...base });
    if (e.arrowStart !== 'none' && e.arrowEnd !== 'none' && e.from !== e.to) edges.push({ from: e.to, to: e.from, ...base });
  }
  return edges;
}
