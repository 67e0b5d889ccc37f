/**
 * The tools a service offers, and which one a call names: `load_graph`, the tools that act on a run (`goto_node`,
 * `todo`, and `inspect` with the views the server enables), then in gateway mode the domain servers' tools, which the
 * gateway decides on the run (`goto_node` then also enforces evidence and data: the same tool, with the gateway's
 * rules around the move). The `tools/list` answer is rendered once, and again only when a domain server's list changes.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { toolJsonSchema } from '../tools/tool-schemas.js';
import { DEFAULT_INSPECT_VIEWS, inspectTool } from '../tools/inspect/inspect-tool.js';
import type { InspectViewName } from '../tools/inspect/inspect-view.js';
import { GOTO_NODE, gatewayGotoNode, observedGotoNode } from '../tools/goto-node.js';
import { LOAD_GRAPH_TOOL, RUN_TOOLS, type RunTool, type ToolDefinition } from '../tools/tool-definitions.js';
import type { DomainTool, DomainTools } from '../upstream/domain-tools.js';

/** The tool a call names. */
export type NamedTool =
  | { readonly kind: 'load-graph' }
  | { readonly kind: 'run'; readonly tool: RunTool<{ run_id?: string | undefined }> }
  | { readonly kind: 'domain'; readonly entry: DomainTool }
  | { readonly kind: 'unknown'; readonly available: readonly string[] };

export interface ToolList {
  /** The `tools/list` answer: the toolkit's tools, then (gateway mode) the domain tools. */
  list(): readonly Tool[];
  /** Called when `list()` changed (a domain server's list changed); returns the unsubscribe. */
  onChanged(listener: () => void): () => void;
  find(name: string): NamedTool;
  /** Whether `inspect` is listed. */
  readonly inspects: boolean;
  /** Stops following the domain servers' lists. */
  close(): void;
}

export interface ToolListOptions {
  /** The views of the `inspect` tool (default: `where`); none leaves the tool out of the list. */
  readonly inspectViews?: readonly InspectViewName[] | undefined;
  /** Gateway mode: the domain servers' tools; with `observe`, moves are made and what enforcement would decide is kept. */
  readonly gateway?: { readonly domain: DomainTools; readonly observe?: boolean | undefined } | undefined;
}

const LOAD_GRAPH: NamedTool = Object.freeze({ kind: 'load-graph' });

export function createToolList(options: ToolListOptions): ToolList {
  const inspect = inspectTool(options.inspectViews ?? DEFAULT_INSPECT_VIEWS);
  const domain = options.gateway?.domain;
  const gatewayMove = options.gateway?.observe === true ? observedGotoNode : gatewayGotoNode;
  const baseTools =
    domain === undefined ? RUN_TOOLS : RUN_TOOLS.map((tool) => (tool.name === GOTO_NODE ? { ...tool, run: gatewayMove } : tool));
  const runTools = inspect === undefined ? baseTools : [...baseTools, inspect];
  // Found once per name: a call's lookup allocates nothing.
  const own = new Map<string, NamedTool>([
    [LOAD_GRAPH_TOOL.name, LOAD_GRAPH],
    ...runTools.map((tool): [string, NamedTool] => [tool.name, Object.freeze({ kind: 'run', tool })]),
  ]);
  const ownTools = [LOAD_GRAPH_TOOL, ...runTools].map(listed);
  let tools: readonly Tool[] = domain === undefined ? ownTools : [...ownTools, ...domain.list()];
  const listeners = new Set<() => void>();
  const stopWatchingDomain = domain?.onChange(() => {
    tools = [...ownTools, ...domain.list()];
    for (const listener of listeners) listener();
  });

  return {
    list: () => tools,
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    find(name) {
      const found = own.get(name);
      if (found !== undefined) return found;
      const entry = domain?.get(name);
      if (entry !== undefined) return { kind: 'domain', entry };
      return { kind: 'unknown', available: [...own.keys(), ...(domain?.list().map((listed) => listed.name) ?? [])] };
    },
    inspects: inspect !== undefined,
    close() {
      stopWatchingDomain?.();
      listeners.clear();
    },
  };
}

function listed(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolJsonSchema(tool.inputSchema, 'input'),
    outputSchema: toolJsonSchema(tool.outputSchema, 'output'),
  };
}
