/**
 * Completion where a SOP names something: node ids in the flowchart, in `### ` prompt headings (the nodes without a
 * prompt first), in `hubs`, `entry_node`, `escalation_node`, `escalate_to` and the policies; tool names in a node's
 * `tools` (the frontmatter's) and in the frontmatter's `tools` (those nodes name but it lacks); a node's successors as
 * the keys of its `when` (those it does not decide yet) and the frontmatter's tools after them; frontmatter keys, and
 * the keys of policies, token budgets and node yaml blocks, each with its documentation. While the flowchart does not
 * parse (it is being typed), the nodes of the last version that parsed are offered.
 */
import { type CompletionItem, CompletionItemKind, InsertTextFormat, MarkupKind } from 'vscode-languageserver';
import type { SourcePosition } from '../../generator/diagnostics/diagnostic.js';
import type { NameSite } from '../document/sop-index.js';
import type { SopDocument } from '../document/sop-document.js';
import { spanContains } from '../document/source-lines.js';
import { regionAt, yamlContextAt } from '../document/text-context.js';
import { FRONTMATTER_KEYS, type KeyDoc, NESTED_KEYS, NODE_KEYS } from './frontmatter-docs.js';
import { toRange } from './lsp-ranges.js';

/** What `completionItem/resolve` needs to add a node's details. */
export interface NodeItemData {
  readonly path: string;
  readonly node: string;
}

const NODE_LISTS = new Set(['hubs', 'entry_node', 'escalation_node', 'escalate_to', 'every_path_to', 'passes', 'nodes', 'except']);

export function completionsAt(
  document: SopDocument,
  position: SourcePosition,
  path: string,
  lastParsed: SopDocument | undefined,
  docsUrl: string | null,
): CompletionItem[] {
  const line = document.lines.line(position.line);
  const before = line.slice(0, Math.max(position.column - 1, 0));
  const prefix = /[A-Za-z0-9_.*-]*$/.exec(before)![0];
  const range = toRange({ start: { line: position.line, column: position.column - prefix.length }, end: position });
  const item = (label: string, kind: CompletionItemKind, extra: Partial<CompletionItem> = {}): CompletionItem => ({
    label,
    kind,
    textEdit: { range, newText: label },
    ...extra,
  });
  const nodes = (order: (id: string) => string = () => '1') => {
    const source = document.index().nodes.size > 0 || lastParsed === undefined ? document : lastParsed;
    const model = source.build.compiled.model;
    const labels = new Map(model?.nodes.map((n) => [n.id, `${n.type} · ${n.description}`]) ?? []);
    // Not the word being typed itself: in `A --> D|` the flowchart already has a node `D`.
    const typedHere = (sites: readonly NameSite[]) => sites.every((s) => spanContains(s.span, position));
    return [...source.index().nodes]
      .filter(([, sites]) => sites[0]?.kind === 'declaration' && !typedHere(sites))
      .map(([id]) =>
        item(id, CompletionItemKind.Class, {
          sortText: `${order(id)}${id}`,
          ...(labels.has(id) ? { detail: labels.get(id) } : {}),
          data: { path, node: id } satisfies NodeItemData,
        }),
      );
  };
  const declaredTools = () => (document.build.compiled.model?.tools ?? []).map((t) => item(t.name, CompletionItemKind.Function));
  const keys = (table: ReadonlyMap<string, KeyDoc> | undefined, present: readonly string[], skip: readonly string[] = []) =>
    [...(table ?? [])]
      .filter(([key]) => !present.includes(key) && !skip.includes(key))
      .map(([key, doc]) =>
        item(key, CompletionItemKind.Property, {
          textEdit: { range, newText: doc.snippet },
          insertTextFormat: InsertTextFormat.Snippet,
          documentation: {
            kind: MarkupKind.Markdown,
            value: `${doc.summary}${docsUrl === null ? '' : `\n\n[docs/sop-format.md](${docsUrl}#${doc.docs})`}`,
          },
        }),
      );

  const region = regionAt(document, position);
  switch (region.kind) {
    case 'flowchart':
      return insideLabel(before) ? [] : nodes();
    case 'prompt-heading': {
      if (!/^###\s+\S*$/.test(before)) return [];
      const prompted = new Set((document.build.compiled.model?.prompts ?? []).map((p) => p.nodeId));
      return nodes((id) => (prompted.has(id) ? '1' : '0'));
    }
    case 'frontmatter': {
      const ctx = yamlContextAt(document, position, 2);
      const [top, policy, selector, inner] = ctx.parents;
      if (ctx.at === 'key') {
        if (ctx.parents.length === 0) return keys(FRONTMATTER_KEYS, ctx.siblings);
        if (top === 'token_budget' && ctx.parents.length === 1) return keys(NESTED_KEYS.get('token_budget'), ctx.siblings);
        if (top === 'policies' && ctx.parents.length === 2) return keys(NESTED_KEYS.get('policy'), ctx.siblings);
        if (top === 'mcp_servers' && ctx.parents.length === 2) return keys(NESTED_KEYS.get('mcp_server'), ctx.siblings);
        if (top === 'policies' && ctx.parents.length === 3 && (selector === 'every_path_to' || selector === 'passes'))
          return keys(NESTED_KEYS.get('selector'), ctx.siblings);
        return [];
      }
      const last = ctx.parents.at(-1);
      if (top === 'tools' && ctx.parents.length === 1) return undeclaredTools(document).map((t) => item(t, CompletionItemKind.Function));
      if (top === 'policies' && policy !== undefined && (selector === 'every_path_to' || selector === 'passes')) {
        if (inner === 'tools') return declaredTools();
        if (inner === undefined || inner === 'nodes' || inner === 'except') return nodes();
        return [];
      }
      if (top === 'policies' && last === 'severity') return ['error', 'warning'].map((s) => item(s, CompletionItemKind.EnumMember));
      return ctx.parents.length === 1 && last !== undefined && NODE_LISTS.has(last) ? nodes() : [];
    }
    case 'node-yaml': {
      const ctx = yamlContextAt(document, position, region.firstLine);
      const depth = region.map ? 2 : 0; // node_prompts: → NODE: → keys
      if (ctx.at === 'key') {
        if (region.map && ctx.parents.length === 1 && ctx.parents[0] === 'node_prompts') {
          const prompted = new Set(ctx.siblings);
          return nodes().filter((n) => !prompted.has(n.label));
        }
        if (ctx.parents.length === depth + 1 && ctx.parents.at(-1) === 'when') {
          const node = region.map ? ctx.parents[1] : region.node;
          const decided = new Set(ctx.siblings);
          const next = new Set(
            node == null
              ? []
              : (document
                  .queries()
                  ?.details(node)
                  ?.outgoing.map((e) => e.node) ?? []),
          );
          return nodes().filter((n) => next.has(n.label) && !decided.has(n.label));
        }
        return ctx.parents.length === depth ? keys(NODE_KEYS, ctx.siblings, region.map ? [] : ['prompt']) : [];
      }
      const last = ctx.parents.at(-1);
      // A condition starts with the tool whose answer it reads.
      if (ctx.parents.length === depth + 2 && ctx.parents.at(-2) === 'when' && /:\s*[\w.-]*$/.test(before)) return declaredTools();
      if (ctx.parents.length !== depth + 1) return [];
      if (last === 'tools') return declaredTools();
      if (last === 'escalate_to' || last === 'fork') return nodes();
      if (last === 'join') return ['all', 'any'].map((s) => item(s, CompletionItemKind.EnumMember));
      return [];
    }
    default:
      return [];
  }
}

/** Tools the nodes name that the frontmatter does not declare. */
function undeclaredTools(document: SopDocument): string[] {
  const declared = new Set(document.build.compiled.model?.tools.map((t) => t.name) ?? []);
  return [...document.index().tools.keys()].filter((t) => !declared.has(t));
}

/** Whether the cursor is inside a label, edge text or a string of the flowchart line (no node id goes there). */
function insideLabel(before: string): boolean {
  let depth = 0;
  let quoted = false;
  let pipe = false;
  for (const ch of before) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '|') pipe = !pipe;
    else if ('[({'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
  }
  return quoted || pipe || depth > 0;
}
