/**
 * Where every node id and every tool name is written in one SOP, read from the compiler's own results: the model
 * (nodes and their declarations, prompts, hubs, `entry_node`, `escalation_node`, `escalate_to`, policies, tools, a
 * fork's join, a sub-flow's exits, renames, evidence's tools, `when`'s successors and the tools its conditions read, the
 * mentions of nodes in the prose and the prompts: `` `ROUTE` ``, `goto_node("ROUTE")`, "go to ROUTE", "node AUTH") and
 * the parse it was built from (every occurrence of a node id in the flowchart, which the model folds into one node).
 * Go to definition, find references, rename, highlights, hover and the preview are queries over it: nothing here
 * searches the text for a name, it only narrows a span the compiler gave to the name inside it (the id in a
 * `### ID` heading, the scalar inside quotes).
 *
 * Built from whatever the compiler understood: a file too broken to model (a YAML error in the frontmatter, say)
 * still has its flowchart occurrences and prompt headings from the parse. Names are data: kept in Maps.
 */
import type { SourcePosition, SourceSpan } from '../../generator/diagnostics/diagnostic.js';
import type { DocumentBuild } from '../../generator/project/compile-document.js';
import type { ModelPattern, SopModel } from '../../generator/model/sop-model.js';
import { type SourceLines, spanContains } from './source-lines.js';

/** How a name is written at one place. */
export type SiteKind =
  /** The node's first declaration with a shape or label in the flowchart (or its first occurrence, if never declared). */
  | 'declaration'
  /** Any other occurrence in the flowchart (an edge's end, a repeated declaration). */
  | 'flowchart'
  /** A `### ID` heading, or a key of the `node_prompts:` map. */
  | 'prompt'
  | 'hub'
  | 'entry_node'
  | 'escalation_node'
  | 'escalate_to'
  /** A node id (not a `*` pattern) or a tool in a policy's `every_path_to`, `passes` or `except`. */
  | 'policy'
  /** A fork's join (`fork: JOIN`). */
  | 'fork'
  /** Where a sub-flow's terminal goes on to (a value of `exits`). */
  | 'exit'
  /** The node an old id is renamed to (a value of `renames`). */
  | 'rename'
  /** A successor whose edge is decided by data (a key of `when`). */
  | 'when'
  /** A tool whose answer a `when` condition reads. */
  | 'condition'
  /** A tool in a node's `evidence`. */
  | 'evidence'
  /** A node named in the prose or a prompt (`` `ROUTE` ``, `goto_node("ROUTE")`, "go to ROUTE", "node AUTH"). */
  | 'mention'
  /** A tool in the frontmatter's `tools` (its declaration). */
  | 'tool_declaration'
  /** A tool in a node's `tools`. */
  | 'node_tools';

export interface NameSite {
  readonly name: string;
  readonly of: 'node' | 'tool';
  readonly kind: SiteKind;
  /** Exactly the characters to replace to rename it (the scalar inside its quotes, the id in its heading). */
  readonly span: SourceSpan;
  /** The node whose prompt names it (`node_tools`, `escalate_to`, `when`, `condition`); the policy that names it (`policy`). */
  readonly owner?: string;
}

export interface SopIndex {
  /** Node id → every site, in source order; the declaration first. */
  readonly nodes: ReadonlyMap<string, readonly NameSite[]>;
  /** Tool name → every site, in source order. */
  readonly tools: ReadonlyMap<string, readonly NameSite[]>;
  /** Ids the flowchart gives to subgraphs and edges: a node cannot be renamed to one. */
  readonly otherIds: ReadonlySet<string>;
  /** The site under a 1-based position, if any. */
  siteAt(position: SourcePosition): NameSite | undefined;
}

export function indexSop(document: DocumentBuild, lines: SourceLines): SopIndex {
  const { model } = document.compiled;
  const parsed = document.parsed;
  const nodes = new Map<string, NameSite[]>();
  const tools = new Map<string, NameSite[]>();
  const add = (site: NameSite) => {
    const table = site.of === 'node' ? nodes : tools;
    const list = table.get(site.name);
    if (list === undefined) table.set(site.name, [site]);
    else if (!list.some((s) => sameSpan(s.span, site.span))) list.push(site);
  };
  const yamlName = (name: string, span: SourceSpan) => scalarSpan(name, span, lines);

  const flowchart = parsed?.flowchart ?? null;
  const otherIds = new Set<string>([
    ...(flowchart?.ast.subgraphs.map((s) => s.id) ?? []),
    ...(flowchart?.ast.edges.flatMap((e) => (e.id === undefined ? [] : [e.id])) ?? []),
  ]);
  // Declarations first: the model's, or (no model) each id's first occurrence that sets a shape or a label.
  const declared = new Map<string, SourceSpan>();
  if (model !== null) for (const n of model.nodes) declared.set(n.id, n.span);
  else if (flowchart !== null) {
    const first = new Map<string, SourceSpan>();
    const firstDeclaring = new Map<string, SourceSpan>();
    for (const occ of flowchart.ast.nodes) {
      if (otherIds.has(occ.id)) continue;
      const span = flowchart.toFile(occ.idSpan);
      if (!first.has(occ.id)) first.set(occ.id, span);
      if ((occ.shape !== undefined || occ.label !== undefined) && !firstDeclaring.has(occ.id)) firstDeclaring.set(occ.id, span);
    }
    for (const [id, span] of first) declared.set(id, firstDeclaring.get(id) ?? span);
  }
  for (const [id, span] of declared) add({ name: id, of: 'node', kind: 'declaration', span });
  if (flowchart !== null) {
    for (const occ of flowchart.ast.nodes) {
      if (!otherIds.has(occ.id)) add({ name: occ.id, of: 'node', kind: 'flowchart', span: flowchart.toFile(occ.idSpan) });
    }
    // `style A …`, `class A,B name`, `click A …` name nodes too: a rename must take them along (a class on a subgraph
    // or an edge id is not a node's).
    for (const ref of flowchart.ast.styled) {
      if (declared.has(ref.id) && !otherIds.has(ref.id))
        add({ name: ref.id, of: 'node', kind: 'flowchart', span: flowchart.toFile(ref.span) });
    }
  }

  const prompts = model?.prompts ?? parsed?.prompts.prompts ?? [];
  const headingForm = (model?.promptForm ?? parsed?.prompts.form) === 'headings';
  for (const p of prompts) {
    const span = headingForm ? headingIdSpan(p.nodeId, p.span, lines) : yamlName(p.nodeId, p.span);
    add({ name: p.nodeId, of: 'node', kind: 'prompt', span });
    for (const tool of p.tools)
      add({ name: tool.name, of: 'tool', kind: 'node_tools', span: yamlName(tool.name, tool.span), owner: p.nodeId });
    const escalation = p.visitLimit?.escalateTo;
    if (escalation)
      add({ name: escalation.id, of: 'node', kind: 'escalate_to', span: yamlName(escalation.id, escalation.span), owner: p.nodeId });
    if (p.strayEscalateTo !== null) {
      const id = unquoted(lines.textOf(p.strayEscalateTo));
      add({ name: id, of: 'node', kind: 'escalate_to', span: yamlName(id, p.strayEscalateTo), owner: p.nodeId });
    }
    if (p.fork !== null) add({ name: p.fork.join, of: 'node', kind: 'fork', span: yamlName(p.fork.join, p.fork.span), owner: p.nodeId });
    for (const exit of p.subflow?.exits ?? []) {
      add({ name: exit.target, of: 'node', kind: 'exit', span: yamlName(exit.target, exit.targetSpan), owner: p.nodeId });
    }
    for (const tool of p.evidence?.tools ?? [])
      add({ name: tool.name, of: 'tool', kind: 'evidence', span: yamlName(tool.name, tool.span), owner: p.nodeId });
    for (const entry of p.when) {
      add({ name: entry.target, of: 'node', kind: 'when', span: yamlName(entry.target, entry.span), owner: p.nodeId });
      // The tool inside the condition's text, where the compiler could place its characters (a value written on one
      // line, without escapes); elsewhere a rename leaves it, and the renamed SOP's SOP068 refuses the rename.
      const tool = entry.condition?.tool;
      if (tool !== undefined && lines.textOf(tool.span) === tool.name)
        add({ name: tool.name, of: 'tool', kind: 'condition', span: tool.span, owner: p.nodeId });
    }
  }
  if (model !== null) frontmatterSites(model, parsed?.frontmatter?.entry_node !== undefined, yamlName, add);
  for (const mention of model?.mentions ?? []) if (mention.node) add({ name: mention.id, of: 'node', kind: 'mention', span: mention.span });

  for (const list of [...nodes.values(), ...tools.values()]) list.sort(bySite);
  return {
    nodes,
    tools,
    otherIds,
    siteAt(position) {
      for (const table of [nodes, tools])
        for (const sites of table.values()) for (const site of sites) if (spanContains(site.span, position)) return site;
      return undefined;
    },
  };
}

function frontmatterSites(
  model: SopModel,
  entryWritten: boolean,
  yamlName: (name: string, span: SourceSpan) => SourceSpan,
  add: (site: NameSite) => void,
): void {
  for (const tool of model.tools) add({ name: tool.name, of: 'tool', kind: 'tool_declaration', span: yamlName(tool.name, tool.span) });
  for (const hub of model.hubs) add({ name: hub.id, of: 'node', kind: 'hub', span: yamlName(hub.id, hub.span) });
  // Without `entry_node` the model's span is the flowchart's: `START` is not written anywhere to rename.
  if (entryWritten) add({ name: model.entryNode, of: 'node', kind: 'entry_node', span: yamlName(model.entryNode, model.entryNodeSpan) });
  if (model.escalationNode !== null) {
    const e = model.escalationNode;
    add({ name: e.id, of: 'node', kind: 'escalation_node', span: yamlName(e.id, e.span) });
  }
  for (const rename of model.renames) add({ name: rename.to, of: 'node', kind: 'rename', span: yamlName(rename.to, rename.toSpan) });
  for (const policy of model.policies) {
    const patterns: ModelPattern[] = [];
    for (const selector of [policy.everyPathTo, policy.passes]) {
      patterns.push(...selector.nodes, ...selector.except);
      for (const tool of selector.tools)
        add({ name: tool.name, of: 'tool', kind: 'policy', span: yamlName(tool.name, tool.span), owner: policy.id });
    }
    for (const p of patterns) {
      // A `*` pattern names no node in particular: renaming a node leaves `DO_*` as it is.
      if (!p.pattern.includes('*'))
        add({ name: p.pattern, of: 'node', kind: 'policy', span: yamlName(p.pattern, p.span), owner: policy.id });
    }
  }
}

/**
 * The span of `name` in a YAML scalar the compiler located: the scalar itself when written plain, inside its quotes
 * when quoted. A scalar written some other way (escapes) keeps its whole span: renaming replaces all of it.
 */
function scalarSpan(name: string, span: SourceSpan, lines: SourceLines): SourceSpan {
  const text = lines.textOf(span);
  if (text === name || span.start.line !== span.end.line) return span;
  const quote = text[0];
  if ((quote === '"' || quote === "'") && text.length >= 2 && text.at(-1) === quote && text.slice(1, -1) === name) {
    return { start: { line: span.start.line, column: span.start.column + 1 }, end: { line: span.end.line, column: span.end.column - 1 } };
  }
  return span;
}

/** The id in a `### ID` heading (possibly in backticks): the first place it is written after the `#` marks. */
function headingIdSpan(id: string, heading: SourceSpan, lines: SourceLines): SourceSpan {
  const line = lines.line(heading.start.line);
  const marks = line.length - line.trimStart().length + (line.trimStart().match(/^#+/)?.[0].length ?? 0);
  const at = line.indexOf(id, marks);
  if (at < 0) return heading;
  return { start: { line: heading.start.line, column: at + 1 }, end: { line: heading.start.line, column: at + 1 + id.length } };
}

function unquoted(text: string): string {
  const quote = text[0];
  return (quote === '"' || quote === "'") && text.length >= 2 && text.at(-1) === quote ? text.slice(1, -1) : text;
}

function sameSpan(a: SourceSpan, b: SourceSpan): boolean {
  return a.start.line === b.start.line && a.start.column === b.start.column && a.end.line === b.end.line && a.end.column === b.end.column;
}

const isDeclaration = (site: NameSite) => site.kind === 'declaration' || site.kind === 'tool_declaration';

function bySite(a: NameSite, b: NameSite): number {
  return (
    Number(isDeclaration(b)) - Number(isDeclaration(a)) ||
    a.span.start.line - b.span.start.line ||
    a.span.start.column - b.span.start.column
  );
}
