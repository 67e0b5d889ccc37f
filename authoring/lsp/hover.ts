/**
 * Hover: on a node id (wherever it is written), what the node is and does: type, label, role in the graph, prompt
 * excerpt, tools, incoming and outgoing edges with their conditions, visit limit, the policies that guard it (on a
 * `when` key, the condition first); on a tool name, the nodes that offer it and the conditions that read it; on a frontmatter key or a node's yaml key, what the key means, with a link to
 * the format's documentation.
 */
import { type Hover, MarkupKind } from 'vscode-languageserver';
import type { SourcePosition } from '../../generator/diagnostics/diagnostic.js';
import type { NodeDetails } from '../document/node-details-types.js';
import type { SopDocument } from '../document/sop-document.js';
import { regionAt } from '../document/text-context.js';
import { yamlKeyAt } from '../document/yaml-key-at.js';
import { FRONTMATTER_KEYS, type KeyDoc, NESTED_KEYS, NODE_KEYS } from './frontmatter-docs.js';
import { toRange } from './lsp-ranges.js';

/** Characters of a prompt shown in a hover. */
const PROMPT_EXCERPT = 400;

export function hoverAt(document: SopDocument, position: SourcePosition, docsUrl: string | null): Hover | null {
  const site = document.index().siteAt(position);
  if (site !== undefined) {
    const text = site.of === 'node' ? nodeHover(document, site.name) : toolHover(document, site.name);
    const when = site.kind === 'when' ? whenHover(document, site.owner!, site.name) : undefined;
    return { contents: { kind: MarkupKind.Markdown, value: when === undefined ? text : `${when}\n\n${text}` }, range: toRange(site.span) };
  }
  const yaml = document.build.parsed?.frontmatterYaml;
  const key = yaml ? yamlKeyAt(yaml, position) : undefined;
  if (key !== undefined) {
    const doc = frontmatterKeyDoc(key.path);
    if (doc !== undefined)
      return { contents: { kind: MarkupKind.Markdown, value: keyText(String(key.path.at(-1)), doc, docsUrl) }, range: toRange(key.span) };
    const policy = key.path.length === 2 && key.path[0] === 'policies' ? policyHover(document, String(key.path[1])) : undefined;
    if (policy !== undefined) return { contents: { kind: MarkupKind.Markdown, value: policy }, range: toRange(key.span) };
  }
  return nodeKeyHover(document, position, docsUrl);
}

function nodeHover(document: SopDocument, id: string): string {
  const details = document.queries()?.details(id);
  if (details === undefined)
    return `**${id}**: not a node of the flowchart${document.build.compiled.model === null ? ' (the file does not compile far enough to say more)' : ''}.`;
  return nodeMarkdown(details);
}

/** A node's details as markdown (also what completion shows beside a node id). */
export function nodeMarkdown(d: NodeDetails): string {
  const roles = [d.entry && 'entry node', d.hub && 'hub', d.decision && 'decision', d.terminal && 'terminal'].filter(Boolean);
  const out = [`**${d.id}** · \`${d.type}\` · ${quote(d.label)}${roles.length > 0 ? ` · ${roles.join(', ')}` : ''}`];
  if (d.prompt !== null && d.prompt !== '') {
    const excerpt = d.prompt.length > PROMPT_EXCERPT ? `${d.prompt.slice(0, PROMPT_EXCERPT).trimEnd()} …` : d.prompt;
    out.push(
      excerpt
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
    );
  } else out.push('_No prompt: the node is delivered with its label alone._');
  if (d.tools.length > 0) out.push(`**Tools:** ${d.tools.map((t) => `\`${t}\``).join(', ')}`);
  if (d.examples > 0) out.push(`**Examples:** ${d.examples}`);
  const edge = (arrow: string, e: NodeDetails['outgoing'][number]) =>
    `- ${arrow} \`${e.node}\`${e.condition !== null ? ` if ${quote(e.condition)}` : ''}${e.style !== 'solid' ? ` (${e.style})` : ''}` +
    `${e.when === undefined ? '' : ` · when \`${e.when}\``}`;
  out.push(d.outgoing.length > 0 ? `**Goes to:**\n${d.outgoing.map((e) => edge('→', e)).join('\n')}` : '**Goes to:** nothing (terminal)');
  if (d.incoming.length > 0) out.push(`**Comes from:**\n${d.incoming.map((e) => edge('←', e)).join('\n')}`);
  if (d.visitLimit !== null) out.push(`**Visit limit:** ${d.visitLimit.max}, then \`${d.visitLimit.escalation}\``);
  for (const p of d.guardedBy) {
    const passes = p.passes.length > 0 ? p.passes.map((n) => `\`${n}\``).join(', ') : 'nothing';
    out.push(`**Guarded by policy \`${p.id}\`:** every path here passes ${passes} first${p.description ? ` — ${p.description}` : ''}`);
  }
  if (d.satisfies.length > 0) out.push(`**Required by:** ${d.satisfies.map((p) => `\`${p}\``).join(', ')}`);
  return out.join('\n\n');
}

/** The condition a `when` key gives its edge. */
function whenHover(document: SopDocument, node: string, target: string): string | undefined {
  const prompts = document.build.compiled.model?.prompts ?? document.build.parsed?.prompts.prompts ?? [];
  const entry = prompts.find((p) => p.nodeId === node)?.when.find((w) => w.target === target);
  if (entry === undefined) return undefined;
  return entry.condition === null
    ? `**when** \`${node}\` → \`${target}\`: the condition does not parse (see the diagnostic).`
    : `**when** \`${node}\` → \`${target}\`: only if \`${entry.condition.text}\` (the last answer of \`${entry.condition.tool.name}\`, exactly; gateway mode)`;
}

function toolHover(document: SopDocument, tool: string): string {
  const sites = document.index().tools.get(tool) ?? [];
  const declared = sites.some((s) => s.kind === 'tool_declaration');
  const offering = document.queries()?.nodesOffering(tool) ?? [];
  const lines = [`**${tool}** · tool${declared ? '' : ' · not in the frontmatter `tools`'}`];
  lines.push(offering.length > 0 ? `Offered at ${offering.map((n) => `\`${n}\``).join(', ')}.` : 'No node offers it.');
  const policies = [...new Set(sites.filter((s) => s.kind === 'policy').map((s) => s.owner))];
  if (policies.length > 0) lines.push(`Named by ${policies.map((p) => `policy \`${p}\``).join(', ')}.`);
  const deciding = [...new Set(sites.filter((s) => s.kind === 'condition').map((s) => s.owner))];
  if (deciding.length > 0) lines.push(`Its answer decides edges of ${deciding.map((n) => `\`${n}\``).join(', ')} (\`when\`).`);
  return lines.join('\n\n');
}

function policyHover(document: SopDocument, id: string): string | undefined {
  const policy = document.build.compiled.model?.policies.find((p) => p.id === id);
  if (policy === undefined) return undefined;
  const queries = document.queries();
  const guarded = (document.build.compiled.model?.nodes ?? []).filter((n) => queries?.details(n.id)?.guardedBy.some((p) => p.id === id));
  const passes = (document.build.compiled.model?.nodes ?? []).filter((n) => queries?.details(n.id)?.satisfies.includes(id));
  return [
    `**policy \`${id}\`** · ${policy.severity}${policy.description ? ` · ${policy.description}` : ''}`,
    `Every path to ${list(guarded.map((n) => n.id))} passes ${list(passes.map((n) => n.id))} first.`,
  ].join('\n\n');
}

function frontmatterKeyDoc(path: readonly (string | number)[]): KeyDoc | undefined {
  const [top, second, third, fourth] = path;
  const last = String(path.at(-1));
  if (path.length === 1) return FRONTMATTER_KEYS.get(last);
  if (top === 'token_budget' && path.length === 2) return NESTED_KEYS.get('token_budget')?.get(last);
  if (top === 'mcp_servers' && path.length === 3 && typeof second === 'number') return NESTED_KEYS.get('mcp_server')?.get(last);
  if (top === 'policies' && path.length === 3 && typeof second === 'string' && typeof third === 'string')
    return NESTED_KEYS.get('policy')?.get(last);
  if (top === 'policies' && path.length === 4 && (third === 'every_path_to' || third === 'passes') && typeof fourth === 'string')
    return NESTED_KEYS.get('selector')?.get(last);
  return undefined;
}

/** A key of a node's ```yaml block (or of the `node_prompts:` map), read from its line. */
function nodeKeyHover(document: SopDocument, position: SourcePosition, docsUrl: string | null): Hover | null {
  if (regionAt(document, position).kind !== 'node-yaml') return null;
  const line = document.lines.line(position.line);
  const match = /^(\s*)([a-z_]+)\s*:/.exec(line);
  if (match === null) return null;
  const start = match[1]!.length + 1;
  const end = start + match[2]!.length;
  if (position.column < start || position.column > end) return null;
  const doc = NODE_KEYS.get(match[2]!);
  if (doc === undefined) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: keyText(match[2]!, doc, docsUrl) },
    range: toRange({ start: { line: position.line, column: start }, end: { line: position.line, column: end } }),
  };
}

function keyText(key: string, doc: KeyDoc, docsUrl: string | null): string {
  return `**${key}**: ${doc.summary}${docsUrl === null ? '' : `\n\n[docs/sop-format.md](${docsUrl}#${doc.docs})`}`;
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? 'no node' : ids.map((id) => `\`${id}\``).join(', ');
}

function quote(text: string): string {
  return `“${text.replace(/\s+/g, ' ')}”`;
}
