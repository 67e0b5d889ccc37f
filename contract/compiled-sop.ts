/**
 * The contract between the compiler and everything that consumes its output. Each generated graph module
 * (`generated/<agent>/graph.ts`) exports a `SOP` constant of type `CompiledSop<NodeId, ToolName>`, and the
 * bundle the server loads (`generated/sop-bundle.json`) holds the same data as JSON; the server and app code
 * read only this shape. It lives in `contract/`, which neither the compiler nor the runtime owns: generated
 * code imports it by package name (`sop-toolkit/contract`).
 *
 * Everything is plain readonly data: no behaviour, no XState. The node id and tool name parameters keep the
 * tables typed for app code; the runtime uses the default `string` instantiation.
 */
import type { TransitionTable } from './transitions.js';

export type EdgeStyle = 'solid' | 'dotted' | 'thick';

export interface SopEdge<To extends string = string> {
  readonly to: To;
  /** The Mermaid edge label, or null. */
  readonly condition: string | null;
  /** Dotted edges are fallbacks (`-.->`); a runtime may present them differently. */
  readonly style: EdgeStyle;
}

/** `Successors` maps every node id to the union of its successor ids (`never` for terminals). */
export type EdgeTable<N extends string, Successors extends { readonly [K in N]: string }> = {
  readonly [K in N]: readonly SopEdge<Successors[K]>[];
};

export interface SopNode<N extends string = string> {
  readonly id: N;
  /** Mermaid's shape name: `stadium`, `rectangle`, `rhombus`, … */
  readonly type: string;
  /** The label text, quotes removed. */
  readonly description: string;
}

export interface SopExample {
  readonly user: string;
  readonly agent: string;
}

export interface NodePrompt<T extends string = string> {
  readonly prompt: string;
  readonly tools: readonly T[];
  readonly examples: readonly SopExample[];
}

export interface ModelSettings {
  readonly provider?: string;
  readonly name?: string;
  readonly temperature?: number;
  readonly max_tokens?: number;
  readonly [key: string]: unknown;
}

/**
 * A domain MCP server of the SOP (frontmatter `mcp_servers`), as written: over stdio (`command`, `args`, `env`,
 * `cwd`) or Streamable HTTP (`url`, `headers`). Values may name the gateway's environment as `${VAR}` or
 * `${VAR:-default}`: they are expanded when `sop serve --gateway` starts, never at build time, so secrets stay
 * in the environment and out of the SOP and the bundle.
 */
export interface McpServerRef {
  readonly name: string;
  readonly url?: string;
  readonly headers?: { readonly [name: string]: string };
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: { readonly [name: string]: string };
  /** The server's working folder, relative to the app root (default: the app root). */
  readonly cwd?: string;
  /** How long the gateway waits for one call's answer (default 30 000). */
  readonly timeout_ms?: number;
  /** What the server is for, as the author describes it (shown where the server is described). */
  readonly description?: string;
  /**
   * Over HTTP: `streamable-http` (the default), or `sse`, the legacy HTTP+SSE transport (2024-11-05) many servers still
   * serve (a `url` ending in `/sse` means it too).
   */
  readonly transport?: 'streamable-http' | 'sse';
}

/**
 * What a node requires before a run in gateway mode may go on from it: a call of one of `tools` that found something
 * (the domain server answered, without an error, an answer that is not empty: `contract/run/call-results.ts`), made earlier
 * in the run or, with `fresh`, during the visit. With `about`, the evidence is about the entity that argument (or the
 * value found) names (`order_id`): later changes naming another value of it are refused.
 */
export interface EvidenceRequirement<T extends string = string> {
  readonly tools: readonly T[];
  readonly about: string | null;
  /** Present (true) when only a call made during the visit counts (a fresh read); otherwise any call of the run does. */
  readonly fresh?: true;
  /** What the answer must show to count as found (`shows`), each over the answer's fields; absent when nothing more. */
  readonly shows?: readonly FieldCondition[];
}

/** A value a condition compares a field with: JSON's scalars. */
export type ConditionValue = string | number | boolean | null;

/**
 * How a condition compares: `==` and `!=` (exact: same type, same text), `in` and `not in` (one of `values`), the
 * order of numbers (`<`, `<=`, `>`, `>=`), and `present` (the field is there and not empty; no values).
 */
export type ConditionOperator = '==' | '!=' | 'in' | 'not in' | '<' | '<=' | '>' | '>=' | 'present';

/** A condition over one field of what a domain call answered. */
export interface FieldCondition {
  /** The field's path into the answer (`status`; `payment_history.0.amount`: a number names a list item). */
  readonly field: readonly string[];
  readonly op: ConditionOperator;
  /** What the field is compared with: one value for `==`, `!=` and the orders, any number for `in` and `not in`. */
  readonly values: readonly ConditionValue[];
  /** As written in the SOP, for answers and reports (`get_order_details.status == pending`). */
  readonly text: string;
}

/**
 * A condition over the answer of a tool called earlier in the run (`when:` on a node, for one of its edges): the
 * move along the edge holds when the last answer of `tool` about some entity satisfies it.
 */
export interface DataCondition<T extends string = string> extends FieldCondition {
  readonly tool: T;
}

export interface AgentMeta {
  readonly agent: string;
  readonly version: string;
  readonly description: string | null;
  readonly model: ModelSettings | null;
  readonly mcpServers: readonly McpServerRef[];
}

/**
 * A policy of the SOP (frontmatter `policies:`), resolved to node ids and tool names: `sop build` proved it over
 * every path of the flowchart, and `sop replay` checks a finished conversation against it.
 */
export interface CompiledPolicy<N extends string = string, T extends string = string> {
  readonly id: string;
  readonly description: string | null;
  /** How `sop build` reports a path that breaks it, and how `sop replay` counts a conversation that does. */
  readonly severity: 'error' | 'warning';
  /** The nodes it guards (`every_path_to`, resolved): every path to one of them passes a `passes` node. */
  readonly guards: readonly N[];
  /** The tools `every_path_to` names: a call of one must be made with a `passes` node on the path. */
  readonly tools: readonly T[];
  /** The nodes of `passes`, resolved; a guarded node that is one of them passes by itself. */
  readonly passes: readonly N[];
  /**
   * Set when the `passes` nodes are confirmation steps: then, before each call of `tools`, the agent asks at the
   * step and the user's last message before the call must match this pattern (a JavaScript regular expression,
   * matched case-insensitively); one confirmation allows one call.
   */
  readonly confirmation: string | null;
  /** Present (true) when every `passes` node must require evidence (`evidence` on the node): then passing one is proved by a successful call in gateway mode, not only declared. */
  readonly evidence?: true;
  /**
   * The selectors as written, kept by a SOP with sub-flows only: its policies are proved again over the graph with
   * its sub-flows expanded (`composition.ts`), where they also guard and pass the called SOPs' nodes.
   */
  readonly scope?: PolicyScope;
}

/** A policy's selectors as written (`every_path_to`, `passes`): node ids and patterns, tools, terminals, exceptions. */
export interface PolicyScope {
  readonly everyPathTo: SelectorSpec;
  readonly passes: SelectorSpec;
}

export interface SelectorSpec {
  readonly nodes: readonly string[];
  readonly tools: readonly string[];
  readonly terminals: boolean;
  readonly except: readonly string[];
}

/**
 * A sub-flow node (`subflow` in its yaml, drawn as a subroutine `[[…]]`): entering it enters the SOP of `agent` at its
 * entry node, and reaching one of that SOP's terminal nodes goes on along one of this node's edges: the one `exits`
 * names for it, else the one labelled with the terminal's id or label, else this node's only edge when it has one,
 * unlabelled (`composition.ts`).
 */
export interface SubflowCall<N extends string = string> {
  readonly agent: string;
  /** Declared exits: a terminal node of the called SOP → the successor of this node the run goes on to. */
  readonly exits: { readonly [terminal: string]: N };
}

/** In a SOP expanded with its sub-flows: the SOP a sub-flow node (by its qualified id) calls, at the version expanded. */
export interface CalledSop {
  readonly agent: string;
  readonly version: string;
  /** The called SOP's version hash (itself expanded, when it has sub-flows of its own). */
  readonly sourceHash: string;
  readonly sourceFile: string;
  readonly entry: string;
  /** Its Mermaid source as written, for the runs page. */
  readonly flowchart: string;
}

export interface CompiledSop<N extends string = string, T extends string = string> {
  readonly meta: AgentMeta;
  /** Project-relative path of the source, with `/` separators (`sops/retail_customer_support.md`). */
  readonly sourceFile: string;
  /** `sha256:<hex>` of the source with line endings normalised (`source-hash.ts`): the version a run pins. */
  readonly sourceHash: string;
  /** What moves are legal: entry node, hubs and successors. The server and the generated machine follow it. */
  readonly transitions: TransitionTable<N>;
  /** Node ids in flowchart order (first appearance). */
  readonly nodeIds: readonly N[];
  readonly nodes: { readonly [K in N]: SopNode<K> };
  readonly edges: { readonly [K in N]: readonly SopEdge<N>[] };
  /** Only nodes that have a prompt section. */
  readonly prompts: { readonly [K in N]?: NodePrompt<T> };
  readonly decisionNodes: readonly N[];
  readonly terminalNodes: readonly N[];
  readonly tools: readonly T[];
  /** Allowlist of domain tools per node (empty for nodes without `tools`). */
  readonly toolsByNode: { readonly [K in N]: readonly T[] };
  readonly systemPrompt: string;
  readonly systemPromptSections: readonly string[];
  /** The Mermaid source as written in the SOP (comments included). */
  readonly flowchart: string;
  /** The SOP's policies, in frontmatter order; absent when it declares none. */
  readonly policies?: readonly CompiledPolicy<N, T>[];
  /** The nodes that require evidence before a run goes on from them (gateway mode); absent when none does. */
  readonly evidence?: { readonly [K in N]?: EvidenceRequirement<T> };
  /**
   * Edges decided by data (`when:` in a node's yaml): per node, per successor, the condition over an answer read
   * earlier in the run that the move along that edge needs (gateway mode; `sop replay` scores it). Absent when none.
   */
  readonly conditions?: { readonly [K in N]?: { readonly [target: string]: DataCondition<T> } };
  /** The sub-flow nodes, in flowchart order; absent when the SOP calls none. */
  readonly subflows?: { readonly [K in N]?: SubflowCall<N> };
  /** Node ids this version renamed (frontmatter `renames`: old id → new id), for `sop diff` and `sop runs migrate`; absent when none. */
  readonly renames?: { readonly [old: string]: N };
  /**
   * Only in a SOP expanded with its sub-flows (`composition.ts`, never in the bundle): what each sub-flow node calls,
   * keyed by its qualified id (`AUTHENTICATE`, `AUTHENTICATE.VERIFY_OTP`).
   */
  readonly calls?: { readonly [node: string]: CalledSop };
}

/** The format tag of `generated/sop-bundle.json`; bumped when the shape changes incompatibly. */
export const BUNDLE_FORMAT = 'sop-bundle/1';

/**
 * `generated/sop-bundle.json`: every compiled agent as plain JSON, what `sop serve` and `sop bundle` load
 * (no TypeScript, no module loader). Agents are keyed and sorted by name.
 */
export interface SopBundle {
  readonly format: typeof BUNDLE_FORMAT;
  readonly agents: { readonly [agent: string]: CompiledSop };
}
