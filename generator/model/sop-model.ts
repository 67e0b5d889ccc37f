/**
 * The SOP model: everything the compiler understood of one file, as plain readonly data with positions in
 * the `.md` file. Built by `build-model.ts` from the parse results; read by the checks and the emitters.
 * No behaviour and no I/O here. Collections are in source order so output is deterministic.
 */
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import type { ArrowHead, EdgeStroke, NodeShape } from '../parse/flowchart/ast.js';
import type { MentionForm } from '../parse/mentions.js';
import type { ParsedEvidence, ParsedFork, ParsedJoin, ParsedSubflow, ParsedVisitLimit, ParsedWhen } from '../parse/node-prompts.js';
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

/** A node's `max_visits` (node yaml), with its own escalation node (`escalate_to`) or null for the SOP's. */
export type ModelVisitLimit = ParsedVisitLimit;

export interface ModelPrompt {
  readonly nodeId: string;
  readonly prompt: string;
  readonly tools: readonly { readonly name: string; readonly span: SourceSpan }[];
  readonly examples: readonly SopExample[];
  /** The `### NODE_ID` heading, or the key in the `node_prompts:` map. */
  readonly span: SourceSpan;
  readonly visitLimit: ModelVisitLimit | null;
  /** `escalate_to` written without `max_visits` (it has no effect; the checker says so). */
  readonly strayEscalateTo: SourceSpan | null;
  /** What the node requires before a run goes on from it (gateway mode). */
  readonly evidence: ModelEvidence | null;
  /** The node's edges decided by data (`when`), in the order written; a condition that did not parse is null. */
  readonly when: readonly ModelWhen[];
  /** The SOP this node calls (`subflow`), with its declared exits. */
  readonly subflow: ModelSubflow | null;
  /** `exits` written without `subflow` (it has no effect; the checker says so). */
  readonly strayExits: SourceSpan | null;
  /** A fork node's join (`fork`). */
  readonly fork: ModelFork | null;
  /** A join node's strategy (`join`). */
  readonly join: ModelJoin | null;
}

/** A sub-flow node's `subflow` and `exits` (node yaml). */
export type ModelSubflow = ParsedSubflow;
/** A fork node's `fork` (node yaml). */
export type ModelFork = ParsedFork;
/** A join node's `join` (node yaml). */
export type ModelJoin = ParsedJoin;

/** A node's `evidence` (node yaml): which of its tools must succeed, and what about, what the answer must show. */
export type ModelEvidence = ParsedEvidence;
/** One entry of a node's `when`: a successor and the condition over an earlier answer the move to it needs. */
export type ModelWhen = ParsedWhen;

/** A node id or a `*` pattern (`DO_*`) of a policy selector, where it is written. */
export interface ModelPattern {
  readonly pattern: string;
  readonly span: SourceSpan;
}

/**
 * A set of nodes a policy names (`every_path_to`, `passes`): the nodes matching `nodes`, the nodes whose `tools`
 * list one of `tools`, and the terminal nodes with `terminals`, together (every node when none of the three is
 * given), minus those matching `except`.
 */
export interface ModelSelector {
  readonly span: SourceSpan;
  readonly nodes: readonly ModelPattern[];
  readonly tools: readonly { readonly name: string; readonly span: SourceSpan }[];
  readonly terminals: boolean;
  readonly except: readonly ModelPattern[];
}

/** A frontmatter policy: every path from the entry node to a node of `everyPathTo` passes a node of `passes`. */
export interface ModelPolicy {
  readonly id: string;
  /** The policy's key in `policies:`. */
  readonly span: SourceSpan;
  readonly description: string | null;
  readonly severity: 'error' | 'warning';
  readonly everyPathTo: ModelSelector;
  readonly passes: ModelSelector;
  /** The user's confirmation pattern when the `passes` nodes are confirmation steps. */
  readonly confirmation: { readonly pattern: string; readonly span: SourceSpan } | null;
  /** `evidence: true`: every `passes` node must require evidence. */
  readonly evidence: SourceSpan | null;
}

/** A budget of `token_budget` (o200k tokens), where it is written. */
export interface ModelBudget {
  readonly limit: number;
  readonly span: SourceSpan;
}

export interface ModelTokenBudget {
  readonly nodePrompt: ModelBudget | null;
  readonly systemPrompt: ModelBudget | null;
  readonly gotoAnswer: ModelBudget | null;
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
  /** Where each server of `mcpServers` is named (its `name` value). */
  readonly mcpServerSpans: readonly SourceSpan[];
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
  /** Where a node that used up its `max_visits` escalates to, unless it names its own (`escalate_to`). */
  readonly escalationNode: { readonly id: string; readonly span: SourceSpan } | null;
  readonly policies: readonly ModelPolicy[];
  readonly tokenBudget: ModelTokenBudget | null;
  /** Node ids this version renamed (`renames`: old id → new id), in frontmatter order. */
  readonly renames: readonly ModelRename[];
  /** Node ids the prose and the prompts name (`mention-model.ts`), in text order: the nodes' and what looks like one. */
  readonly mentions: readonly ModelMention[];
}

/**
 * A node id written in the system prompt's sections or a node's prompt (`` `ROUTE` ``, `goto_node("ROUTE")`, "go to
 * ROUTE", "node AUTH"), that names a node (`node: true`) or has the shape of one (UPPER_SNAKE) and names none.
 */
export interface ModelMention {
  readonly id: string;
  readonly form: MentionForm;
  readonly node: boolean;
  /** Exactly the id's characters. */
  readonly span: SourceSpan;
}

/** A `renames` entry: a node id of an earlier version and the node it is now. */
export interface ModelRename {
  readonly from: string;
  readonly to: string;
  /** The old id's key. */
  readonly span: SourceSpan;
  readonly toSpan: SourceSpan;
}

/** Facts derived from the model's nodes and edges, shared by the checks, the emitters and `inspect`. */
export interface GraphFacts {
  readonly decisionNodes: readonly string[];
  readonly terminalNodes: readonly string[];
  readonly successors: ReadonlyMap<string, readonly string[]>;
}
