/**
 * The SOP model: everything the compiler understood of one file, as plain readonly data with positions in
 * the `.md` file. Built by `build-model.ts` from the parse results; read by the checks and the emitters.
 * No behaviour and no I/O here. Collections are in source order so output is deterministic.
 */
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import type { ArrowHead, EdgeStroke, NodeShape } from '../parse/flowchart/ast.js';
import type { EdgeStyle, McpServerRef, ModelSettings, SopExample } from '../../contract/compiled-sop.js';

export interface ModelNode {
  readonly id: string;
  readonly type: NodeShape;
  readonly description: string;
  /** False when the id only ever appears bare (`A --> B` without `B[...]`): Mermaid then shows the id. */
  readonly declared: boolean;
  /** Where the node is first declared with a shape, or first referenced when it never is. */
  readonly span: SourceSpan;
}

export interface ModelEdge {
  readonly from: string;
  readonly to: string;
  readonly condition: string | null;
  readonly style: EdgeStyle;
  /** Mermaid's own stroke and arrowheads, kept for `inspect`. */
  readonly stroke: EdgeStroke;
  readonly arrowStart: ArrowHead;
  readonly arrowEnd: ArrowHead;
  readonly span: SourceSpan;
}

export interface ModelPrompt {
  readonly nodeId: string;
  readonly prompt: string;
  readonly tools: readonly { readonly name: string; readonly span: SourceSpan }[];
  readonly examples: readonly SopExample[];
  /** The `### NODE_ID` heading, or the key in the `node_prompts:` map. */
  readonly span: SourceSpan;
}

export interface ModelSection {
  readonly heading: string;
  readonly span: SourceSpan;
}

export interface SopModel {
  /** Project-relative path with `/` separators. */
  readonly file: string;
  /** `sha256:<hex>` of the file's bytes. */
  readonly sourceHash: string;
  readonly agent: string;
  readonly agentSpan: SourceSpan;
  readonly version: string;
  readonly description: string | null;
  readonly entryNode: string;
  readonly entryNodeSpan: SourceSpan;
  readonly hubs: readonly { readonly id: string; readonly span: SourceSpan }[];
  readonly model: ModelSettings | null;
  readonly mcpServers: readonly McpServerRef[];
  readonly tools: readonly { readonly name: string; readonly span: SourceSpan }[];
  /** Nodes in order of first appearance in the flowchart. */
  readonly nodes: readonly ModelNode[];
  /** Edges in source order. A `<-->` link contributes one edge each way. */
  readonly edges: readonly ModelEdge[];
  readonly prompts: readonly ModelPrompt[];
  readonly promptForm: 'headings' | 'yaml-map' | 'none';
  /** The level-2 sections that make up the system prompt, in file order. */
  readonly systemPromptSections: readonly ModelSection[];
  readonly systemPrompt: string;
  /** The Mermaid block's source as written. */
  readonly flowchart: string;
  readonly flowchartSpan: SourceSpan;
}

/** Facts derived from the model's nodes and edges, shared by the checks, the emitters and `inspect`. */
export interface GraphFacts {
  readonly decisionNodes: readonly string[];
  readonly terminalNodes: readonly string[];
  readonly successors: ReadonlyMap<string, readonly string[]>;
}
