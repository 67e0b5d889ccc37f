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
  /** Each node id's place in `nodeIds` (a plain id is looked up, a few nodes sorted, not the flowchart filtered). */
  readonly positions: ReadonlyMap<string, number>;
  readonly toolsByNode: ReadonlyMap<string, readonly string[]>;
  readonly terminals: ReadonlySet<string>;
}

/** The context for resolving every selector of a SOP: made once per SOP. */
export function selectorContextOf(
  nodeIds: readonly string[],
  toolsByNode: ReadonlyMap<string, readonly string[]>,
  terminals: ReadonlySet<string>,
): SelectorContext {
  return { nodeIds, positions: new Map(nodeIds.map((id, i) => [id, i])), toolsByNode, terminals };
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
    // A plain id (the usual pattern) is looked up; only a pattern with `*` is tested against every node.
    const found = pattern.pattern.includes('*')
      ? context.nodeIds.filter(patternTest(pattern.pattern))
      : context.positions.has(pattern.pattern)
        ? [pattern.pattern]
        : [];
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
    nodes: inFlowchartOrder(context, because, excluded),
    because,
    unmatchedPatterns,
    unmatchedTools,
  };
}

/** The selected nodes in flowchart order: a few are sorted by position, most of the flowchart filtered in order. */
function inFlowchartOrder(context: SelectorContext, selected: ReadonlyMap<string, unknown>, excluded: ReadonlySet<string>): string[] {
  if (selected.size * 8 >= context.nodeIds.length) return context.nodeIds.filter((id) => selected.has(id) && !excluded.has(id));
  return [...selected.keys()].filter((id) => !excluded.has(id)).sort((a, b) => context.positions.get(a)! - context.positions.get(b)!);
}
