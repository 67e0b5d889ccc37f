/**
 * Resolves a policy selector to node ids: the nodes its `nodes` patterns match (an id, or a pattern where `*`
 * stands for any run of characters), the nodes whose `tools` list one of its tools, the terminal nodes with
 * `terminals`, together (every node when it gives none of the three), minus the nodes its `except` patterns match.
 * Also says what matched nothing, so the checker can point at it.
 */
import { patternTest } from '../../contract/node-patterns.js';
import type { ModelPattern, ModelSelector } from './sop-model.js';

export interface SelectorContext {
  /** Node ids in flowchart order. */
  readonly nodeIds: readonly string[];
  readonly toolsByNode: ReadonlyMap<string, readonly string[]>;
  readonly terminals: ReadonlySet<string>;
}

export interface ResolvedSelector {
  /** In flowchart order. */
  readonly nodes: readonly string[];
  /** For each node, why it is in: the tool it lists, or null when a pattern or `terminals` named it. */
  readonly because: ReadonlyMap<string, string | null>;
  readonly unmatchedPatterns: readonly ModelPattern[];
  readonly unmatchedTools: readonly { readonly name: string; readonly span: ModelPattern['span'] }[];
}

export function resolveSelector(selector: ModelSelector, context: SelectorContext): ResolvedSelector {
  const because = new Map<string, string | null>();
  const unmatchedPatterns: ModelPattern[] = [];
  const matching = (pattern: ModelPattern): string[] => {
    const test = patternTest(pattern.pattern);
    const found = context.nodeIds.filter(test);
    if (found.length === 0) unmatchedPatterns.push(pattern);
    return found;
  };
  const everything = selector.nodes.length === 0 && selector.tools.length === 0 && !selector.terminals;
  if (everything) for (const id of context.nodeIds) because.set(id, null);
  for (const pattern of selector.nodes) for (const id of matching(pattern)) because.set(id, null);
  if (selector.terminals) for (const id of context.terminals) because.set(id, null);
  const unmatchedTools = selector.tools.filter((tool) => {
    const listing = context.nodeIds.filter((id) => (context.toolsByNode.get(id) ?? []).includes(tool.name));
    for (const id of listing) if (!because.has(id)) because.set(id, tool.name);
    return listing.length === 0;
  });
  const excluded = new Set(selector.except.flatMap(matching));
  return {
    nodes: context.nodeIds.filter((id) => because.has(id) && !excluded.has(id)),
    because,
    unmatchedPatterns,
    unmatchedTools,
  };
}
