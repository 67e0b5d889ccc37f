/**
 * `sop diff` for people: markdown made for a pull request comment (the risks first, then each changed agent's
 * changes by kind, unchanged agents counted), or the JSON (`sop-diff/1`) as it is, for tools. What is long comes
 * collapsed (`<details>`), under a summary line: the changed lines of each prompt and of the prose (old and new, as a
 * `diff` block), and the golden paths that appeared or disappeared. Ids and labels are the author's text: in markdown
 * they go into code spans, with backticks escaped as the span needs.
 */
import type { LineChanges } from './line-changes.js';
import type { AgentDiff, SopDiff } from './semantic-diff.js';

/** Golden paths listed per side; the rest are counted. */
const PATHS_SHOWN = 10;
/** Changed lines shown per prompt (or the prose); the rest are counted. */
const LINES_SHOWN = 40;

export function renderDiffJson(diff: SopDiff): string {
  return `${JSON.stringify(diff, null, 2)}\n`;
}

export function renderDiffMarkdown(diff: SopDiff): string {
  const changed = diff.agents.filter((agent) => agent.status !== 'unchanged');
  const unchanged = diff.agents.length - changed.length;
  const lines: string[] = [`## SOP changes: ${diff.base.label} → ${diff.head.label}`, ''];
  const summary = [
    `**${diff.risks.length} risk${diff.risks.length === 1 ? '' : 's'}**`,
    `${changed.length} SOP${changed.length === 1 ? '' : 's'} changed`,
    ...(unchanged === 0 ? [] : [`${unchanged} unchanged`]),
  ];
  lines.push(summary.join(' · '), '');
  if (diff.risks.length > 0) {
    lines.push('### Risks', '');
    for (const risk of diff.risks) lines.push(`- ⚠️ ${risk.agent === null ? '' : `${code(risk.agent)}: `}${risk.message} _(${risk.kind})_`);
    lines.push('');
  }
  for (const agent of changed) lines.push(...agentSection(agent), '');
  if (changed.length === 0) lines.push('No SOP changed: the compiled agents are the same.', '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function agentSection(agent: AgentDiff): string[] {
  const title = `### ${code(agent.agent)}`;
  if (agent.status === 'added') return [title, '', `New SOP (version ${agent.head?.version}).`];
  if (agent.status === 'removed') return [title, '', `Removed (was version ${agent.base?.version}).`];
  if (agent.status === 'unbuilt')
    return [title, '', `Does not build in the new version (was version ${agent.base?.version}): not compared.`];
  const out: string[] = [title, ''];
  const item = (label: string, entries: readonly string[]) => {
    if (entries.length > 0) out.push(`- **${label}**: ${entries.join(', ')}`);
  };
  item('structure', agent.structure);
  item('nodes added', agent.nodes.added.map(code));
  item('nodes removed', agent.nodes.removed.map(code));
  item(
    'nodes renamed',
    agent.nodes.renamed.map((r) => `${code(r.from)} → ${code(r.to)}`),
  );
  item(
    'nodes relabelled',
    agent.nodes.relabelled.map((c) => `${code(c.id)}: ${quote(c.before)} → ${quote(c.after)}`),
  );
  item(
    'nodes reshaped',
    agent.nodes.reshaped.map((c) => `${code(c.id)}: ${c.before} → ${c.after}`),
  );
  const edge = (e: { from: string; to: string; condition: string | null }) =>
    code(`${e.from} → ${e.to}${e.condition === null ? '' : ` |${e.condition}|`}`);
  item('edges added', agent.edges.added.map(edge));
  item('edges removed', agent.edges.removed.map(edge));
  item(
    'edges relabelled',
    agent.edges.relabelled.map((e) => `${code(`${e.from} → ${e.to}`)}: ${quote(e.before ?? '')} → ${quote(e.condition ?? '')}`),
  );
  item(
    'prompts',
    agent.prompts.map(
      (p) => `${code(p.node)} ${p.change}${p.change === 'changed' ? ` (+${p.lines_added} −${p.lines_removed} lines)` : ''}`,
    ),
  );
  item(
    'tools',
    agent.tools.map((t) => `${code(t.node)} ${[...t.added.map((x) => `+${x}`), ...t.removed.map((x) => `−${x}`)].join(' ')}`),
  );
  item(
    'visit limits',
    agent.limits.map((l) => `${code(l.node)}: ${l.before ?? 'none'} → ${l.after ?? 'none'}`),
  );
  item(
    'evidence',
    agent.evidence.map((e) => `${code(e.node)}: ${e.before ?? 'none'} → ${e.after ?? 'none'}`),
  );
  item(
    'policies',
    agent.policies.map((p) => `${code(p.id)} ${p.change}${p.details.length === 0 ? '' : ` (${p.details.join('; ')})`}`),
  );
  const { paths } = agent;
  if (agent.prose !== null)
    out.push(`- **prose**: the system prompt changed (+${agent.prose.lines_added} −${agent.prose.lines_removed} lines)`);
  if (paths.appeared.length + paths.disappeared.length > 0) {
    out.push(
      `- **golden paths** (${paths.base} → ${paths.head}): ${paths.appeared.length} appeared, ${paths.disappeared.length} disappeared`,
    );
  }
  const texts = [
    ...(agent.prose === null ? [] : [{ title: '**prose** (the system prompt)', changes: agent.prose }]),
    ...agent.prompts.map((p) => ({ title: `${code(p.node)} ${p.change}`, changes: p as LineChanges })),
  ];
  if (texts.length > 0) {
    out.push('', `<details><summary>What the prompts and the prose say now (${texts.length} changed)</summary>`, '');
    for (const { title, changes } of texts) out.push(title, '', ...diffBlock(changes), '');
    out.push('</details>');
  }
  if (paths.appeared.length + paths.disappeared.length > 0) {
    out.push(
      '',
      `<details><summary>Golden paths: ${paths.appeared.length} appeared, ${paths.disappeared.length} disappeared</summary>`,
      '',
    );
    for (const [sign, list] of [
      ['+', paths.appeared],
      ['−', paths.disappeared],
    ] as const) {
      for (const path of list.slice(0, PATHS_SHOWN)) out.push(`- ${sign} ${code(path)}`);
      if (list.length > PATHS_SHOWN) out.push(`- ${sign} … and ${list.length - PATHS_SHOWN} more`);
    }
    out.push('', '</details>');
  }
  if (out.length === 2) out.push('Compiled the same apart from its text (its version hash changed).');
  return out;
}

/** The changed lines as a fenced `diff` block (old lines `-`, new lines `+`, hunks apart by `@@`), long ones cut. */
function diffBlock(changes: LineChanges): string[] {
  const lines: string[] = [];
  for (const [i, hunk] of changes.hunks.entries()) {
    if (i > 0) lines.push('@@');
    lines.push(...hunk.removed.map((line) => `- ${line}`), ...hunk.added.map((line) => `+ ${line}`));
  }
  const shown = lines.slice(0, LINES_SHOWN);
  if (lines.length > LINES_SHOWN) shown.push(`… and ${lines.length - LINES_SHOWN} more changed lines`);
  const longest = Math.max(2, ...shown.flatMap((line) => [...line.matchAll(/`+/g)].map((m) => m[0].length)));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}diff`, ...shown, fence];
}

/** A markdown code span holding `text` exactly. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\n/g, ' ')}${pad}${fence}`;
}

function quote(text: string): string {
  return code(text);
}
