/**
 * The model stage: turns one file's parse results into a `SopModel` (plain data, `.md` positions). The
 * flowchart's nodes and edges come from `flowchart-graph.ts`, which applies the SOP format's reading of Mermaid.
 */
import type { Diagnostic, SourceSpan } from '../diagnostics/diagnostic.js';
import type { ParsedSop } from '../parse/parse-sop.js';
import { flowchartGraph } from './flowchart-graph.js';
import type { SopModel } from './sop-model.js';

export function buildModel(parsed: ParsedSop, sourceHash: string): { model: SopModel | null; diagnostics: readonly Diagnostic[] } {
  const { frontmatter: fm, frontmatterYaml: yaml, flowchart, source } = parsed;
  if (!fm || !yaml || !flowchart) return { model: null, diagnostics: [] };
  const { nodes, edges, diagnostics } = flowchartGraph(source.file, flowchart);
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
  return { model, diagnostics };
}
