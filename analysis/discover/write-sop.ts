/**
 * The draft as a SOP file (`docs/sop-format.md`): frontmatter (the agent, the ROUTE hub, the tools the steps offer,
 * the policies the logs kept), a Role and Global Rules to edit, the flowchart, and a prompt stub per node with its
 * tools, its evidence, an example exchange copied from the logs, and what the logs show there (the calls made, how
 * often, where they branch). Every name from the logs is written as data: tools as JSON strings (YAML reads them
 * as written), labels with the characters Mermaid would misread replaced.
 */
import type { DraftGraph, DraftNode } from './draft-graph.js';
import type { DraftRules } from './draft-rules.js';
import type { Example } from './observed-log.js';

/** What the logs show at each part of the draft, for the prompts. */
export interface DraftFacts {
  readonly agent: string;
  readonly conversations: number;
  readonly noise: number;
  readonly tools: readonly string[];
  /** Per intent (index) and for the opening: calls of each tool there. */
  readonly calls: ReadonlyMap<number | 'opening', ReadonlyMap<number, number>>;
  /** Per intent, how many requests (segments) it was mined from; for the opening, how many conversations had one. */
  readonly requests: ReadonlyMap<number | 'opening', number>;
  /** An exchange around a call of one of the tools, made in that part of the draft, or undefined. */
  readonly example: (tools: readonly number[], part: number | 'opening') => Example | undefined;
  /** The MCP servers the logs' tool names came from (`mcp__retail-tools__…`), if any. */
  readonly servers: readonly string[];
}

export function writeSop(graph: DraftGraph, rules: DraftRules, facts: DraftFacts): string {
  const used = new Set(graph.nodes.flatMap((n) => n.tools));
  const tools = [...used].sort((a, b) => a - b).map((t) => facts.tools[t]!);
  const lines: string[] = [
    '---',
    `# Drafted by sop discover from ${count(facts.conversations, 'conversation')} (noise threshold ${facts.noise}). Edit it:`,
    '# name the steps, write the prompts, check the examples (copied from the logs), then `sop build`.',
    `agent: ${facts.agent}`,
    'version: "0.1"',
    `description: ${JSON.stringify(`Drafted from ${count(facts.conversations, 'conversation')} by sop discover`)}`,
    'entry_node: START',
    `hubs: [${graph.hub}]`,
    '# mcp_servers:  the servers the tools come from, for `sop serve --gateway` (docs/sop-format.md, "Domain servers")',
    ...(facts.servers.length === 0 ? [] : [`#   the logs name: ${facts.servers.join(', ')}`]),
    'tools:',
    ...tools.map((tool) => `  - ${JSON.stringify(tool)}`),
  ];
  if (rules.policies.length > 0) {
    lines.push('policies:');
    for (const policy of rules.policies) {
      lines.push(
        `  ${policy.id}:`,
        `    description: ${JSON.stringify(policy.description)}`,
        `    every_path_to: { tools: [${policy.tools.map((t) => JSON.stringify(t)).join(', ')}] }`,
        `    passes: [${policy.passes.join(', ')}]`,
      );
      if (policy.confirmation) lines.push('    confirmation: true');
    }
  }
  lines.push('---', '', '## Role', '');
  lines.push(
    `Draft: say who the agent serves and what it does. The procedure below is what the agent did in ${count(facts.conversations, 'conversation')}:`,
    'edit it into the procedure it should follow.',
    '',
    '## Global Rules',
    '',
  );
  const rulesText = globalRules(graph, rules);
  lines.push(
    ...(rulesText.length === 0 ? ['- Draft: the rules every step keeps.'] : rulesText),
    '',
    '## SOP Flowchart',
    '',
    '```mermaid',
    'flowchart TD',
  );
  lines.push(...flowchart(graph), '```', '', '## Node Prompts', '');
  for (const node of graph.nodes) {
    const prompt = promptOf(node, graph, rules, facts);
    if (prompt !== null) lines.push(...prompt, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function globalRules(graph: DraftGraph, rules: DraftRules): string[] {
  const out: string[] = [];
  if (rules.evidence.has('AUTH'))
    out.push(`- Find the user first (AUTH) and go on only once a lookup found them: ${rules.evidence.get('AUTH')!.because}.`);
  for (const policy of rules.policies)
    out.push(
      policy.confirmation
        ? `- Before each change (${policy.tools.join(', ')}), say what will change and wait for an explicit "yes".`
        : `- Make a change (${policy.tools.join(', ')}) only at its own step.`,
    );
  if (graph.nodes.some((n) => n.shape === 'hub')) out.push(`- Several requests: handle one, then go back to ${graph.hub} for the next.`);
  return out;
}

function flowchart(graph: DraftGraph): string[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const declared = new Set<string>();
  const ref = (id: string): string => {
    if (declared.has(id)) return id;
    declared.add(id);
    const node = byId.get(id)!;
    const label = mermaidText(node.label);
    switch (node.shape) {
      case 'start':
      case 'end':
        return `${id}(["${label}"])`;
      case 'decision':
      case 'hub':
        return `${id}{"${label}"}`;
      default:
        return `${id}["${label}"]`;
    }
  };
  const lines: string[] = [];
  for (const edge of graph.edges) {
    if (edge.from === graph.hub && lines.length > 0) lines.push(`    %% ${mermaidComment(edge.label ?? '')}`);
    lines.push(`    ${ref(edge.from)} -->${edge.label === null ? '' : `|"${mermaidText(edge.label)}"|`} ${ref(edge.to)}`);
  }
  return lines;
}

function promptOf(node: DraftNode, graph: DraftGraph, rules: DraftRules, facts: DraftFacts): string[] | null {
  if (node.shape === 'start' || node.shape === 'end') return null;
  const out = [`### ${node.id}`];
  const yaml: string[] = [];
  if (node.tools.length > 0) yaml.push(`tools: [${node.tools.map((t) => JSON.stringify(facts.tools[t]!)).join(', ')}]`);
  const evidence = rules.evidence.get(node.id);
  if (evidence !== undefined)
    yaml.push(
      evidence.about === null
        ? 'evidence: true'
        : `evidence: { tools: [${evidence.tools.map((t) => JSON.stringify(t)).join(', ')}], about: ${JSON.stringify(evidence.about)} }`,
    );
  const condition = rules.conditions.get(node.id);
  if (condition !== undefined) yaml.push(`when: { ${condition.target}: ${JSON.stringify(condition.text)} }`);
  const example = node.intent === null ? undefined : facts.example(node.tools, node.intent);
  if (example !== undefined)
    yaml.push('examples:', `  - user: ${JSON.stringify(example.user)}`, `    agent: ${JSON.stringify(example.agent)}`);
  if (yaml.length > 0) out.push('```yaml', ...yaml, '```');
  out.push(...promptText(node, graph, rules, facts));
  return out;
}

function promptText(node: DraftNode, graph: DraftGraph, rules: DraftRules, facts: DraftFacts): string[] {
  const leaving = graph.edges.filter((e) => e.from === node.id);
  if (node.shape === 'hub' || (node.id === graph.hub && node.tools.length === 0)) {
    return [
      `Requests seen: ${leaving.map((e) => `${e.label ?? e.to} (${e.weight ?? 0})`).join(', ')}.`,
      'Draft: say how to tell them apart; take the edge of the request, and come back here for the next one.',
    ];
  }
  if (node.shape === 'decision') {
    return [
      `The logs branch here: ${leaving.map((e) => `${e.label} → ${e.to}${e.weight === null ? '' : ` (${e.weight})`}`).join(', ')}.`,
      'Draft: say what decides it, and take the matching edge.',
    ];
  }
  const part = node.intent!;
  const calls = facts.calls.get(part);
  const seen = node.tools.map((t) => `${facts.tools[t]} (${count(calls?.get(t) ?? 0, 'call')})`).join(', ');
  const requests = facts.requests.get(part) ?? 0;
  const where = part === 'opening' ? `${count(requests, 'conversation')} opened with it` : `mined from ${count(requests, 'request')}`;
  const next = leaving.map((e) => e.to).join(' or ');
  const lines = [`Calls seen here: ${seen}; ${where}. Then ${next}.`];
  const evidence = rules.evidence.get(node.id);
  if (evidence !== undefined)
    lines.push(
      evidence.about === null
        ? `Go on only once one of these calls found what it looked for (${evidence.because}).`
        : `Read the ${evidence.about} here before it is changed (${evidence.because}).`,
    );
  const condition = rules.conditions.get(node.id);
  if (condition !== undefined) lines.push(`Go on to ${condition.target} only when ${condition.text} (${condition.because}).`);
  const confirmed = rules.policies.find((p) => p.confirmation && node.tools.some((t) => p.tools.includes(facts.tools[t]!)));
  if (confirmed !== undefined) lines.push('Say exactly what will change and wait for the user’s explicit "yes" before the call.');
  lines.push(
    node.change
      ? 'Draft: say what to collect before the change, and what to tell the user after it.'
      : 'Draft: say what to look up here, and what must hold before going on.',
  );
  return lines;
}

/** A label Mermaid reads as written between quotes: no quotes, pipes, brackets of its own, or line breaks. */
function mermaidText(text: string): string {
  return text
    .replace(/["|`]/g, "'")
    .replace(/[\r\n]+/g, ' ')
    .replace(/[<>]/g, ' ')
    .trim();
}

function mermaidComment(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/%%/g, '%');
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}
