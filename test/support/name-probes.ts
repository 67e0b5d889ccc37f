/**
 * SOPs that put one name in one place, for the tests of issue 21 ("names are data"). `probeSop` writes a small SOP
 * that uses every kind of name the format has (node ids in every role, tools, a policy with its selectors, the
 * agent, model settings, an MCP server, a subgraph, an edge id, a class) and lets a test put a chosen name in any one
 * of those places; `NAME_PLACES` lists the places. The names that most often break code that keys plain objects by
 * them are the members `Object.prototype` and `Function.prototype` carry: `prototypeNames()` lists them from the
 * engine itself, so the list cannot go stale; `reservedWords()` adds TypeScript's keywords, and `chainSop` writes a SOP
 * whose nodes are given names.
 */
import ts from 'typescript';

/** The placeholders of the template: each is one place a name stands. */
export type Slot =
  | 'agent'
  | 'START'
  | 'ROUTE'
  | 'ASK'
  | 'DO'
  | 'DONE'
  | 'HELP'
  | 'lookup'
  | 'act'
  | 'policy'
  | 'modelKey'
  | 'server'
  | 'group'
  | 'edge'
  | 'cls'
  | 'frontmatterKey'
  | 'policyKey'
  | 'budgetKey'
  | 'nodeKey'
  | 'exampleKey';

/** What a probe is made of: a name for every slot (the extra keys are empty by default), and the prompt form. */
export type ProbeNames = { readonly [S in Slot]: string };

export const DEFAULT_NAMES: Omit<ProbeNames, 'agent'> = {
  START: 'START',
  ROUTE: 'ROUTE',
  ASK: 'ASK',
  DO: 'DO',
  DONE: 'DONE',
  HELP: 'HELP',
  lookup: 'lookup',
  act: 'act',
  policy: 'act_after_ask',
  modelKey: 'temperature',
  server: 'probe_tools',
  group: 'WORK',
  edge: 'e1',
  cls: 'hot',
  frontmatterKey: '',
  policyKey: '',
  budgetKey: '',
  nodeKey: '',
  exampleKey: '',
};

/** One place a name can stand, and how the probe SOP puts a name there. */
export interface NamePlace {
  readonly place: string;
  readonly slot: Slot;
  /** Node prompts as a `node_prompts:` yaml map instead of `### NODE_ID` headings. */
  readonly yamlMap?: boolean;
  /**
   * What the name is there: a name the SOP defines and the compiled agent carries (`name`), or a key the format does
   * not know, which must be reported where it is written (`unknown-key`).
   */
  readonly kind: 'name' | 'unknown-key';
}

export const NAME_PLACES: readonly NamePlace[] = [
  { place: 'entry node', slot: 'START', kind: 'name' },
  { place: 'hub (a decision node)', slot: 'ROUTE', kind: 'name' },
  { place: 'node with a prompt heading, a visit limit and a policy naming it', slot: 'ASK', kind: 'name' },
  { place: 'node_prompts map key', slot: 'ASK', yamlMap: true, kind: 'name' },
  { place: 'node with tools', slot: 'DO', kind: 'name' },
  { place: 'terminal node without a prompt', slot: 'DONE', kind: 'name' },
  { place: 'escalation node (escalation_node, escalate_to)', slot: 'HELP', kind: 'name' },
  { place: 'tool (frontmatter and node tools)', slot: 'lookup', kind: 'name' },
  { place: 'tool a policy selects', slot: 'act', kind: 'name' },
  { place: 'policy id', slot: 'policy', kind: 'name' },
  { place: 'agent name', slot: 'agent', kind: 'name' },
  { place: 'model setting', slot: 'modelKey', kind: 'name' },
  { place: 'MCP server name', slot: 'server', kind: 'name' },
  { place: 'subgraph id', slot: 'group', kind: 'name' },
  { place: 'edge id', slot: 'edge', kind: 'name' },
  { place: 'class name', slot: 'cls', kind: 'name' },
  { place: 'frontmatter key', slot: 'frontmatterKey', kind: 'unknown-key' },
  { place: 'policy key', slot: 'policyKey', kind: 'unknown-key' },
  { place: 'token_budget key', slot: 'budgetKey', kind: 'unknown-key' },
  { place: 'node yaml key', slot: 'nodeKey', kind: 'unknown-key' },
  { place: 'example key', slot: 'exampleKey', kind: 'unknown-key' },
];

/** Every keyword of TypeScript's scanner (`delete`, `default`, `enum`, `keyof`, …), from TypeScript itself. */
export function typescriptKeywords(): string[] {
  const words: string[] = [];
  for (let kind = ts.SyntaxKind.FirstKeyword; kind <= ts.SyntaxKind.LastKeyword; kind++) {
    const word = ts.tokenToString(kind);
    if (word !== undefined) words.push(word);
  }
  return words;
}

/** TypeScript's keywords, then the names every object or function carries: the names generated TypeScript must survive. */
export function reservedWords(): string[] {
  return [...new Set([...typescriptKeywords(), ...prototypeNames()])];
}

/**
 * A SOP whose flowchart is START, then `ids` in a chain, then DONE; the first of `ids` has a prompt, a tool and a
 * visit limit, so the optional tables (prompts, limits) hold some nodes and not others.
 */
export function chainSop(agent: string, ids: readonly string[]): string {
  const chain = ['START([Start])', ...ids.map((id) => `${id}["${id}"]`), 'DONE([Done])'];
  return [
    '---',
    `agent: ${agent}`,
    'version: "1"',
    'tools: [lookup]',
    '---',
    '',
    '## Role',
    'Reserved words.',
    '',
    '## SOP Flowchart',
    '```mermaid',
    'flowchart TD',
    ...chain.slice(1).map((to, i) => `    ${chain[i]} --> ${to}`),
    '```',
    '',
    '## Node Prompts',
    '',
    `### ${ids[0] ?? 'DONE'}`,
    '```yaml',
    'tools: [lookup]',
    'max_visits: 3',
    'escalate_to: DONE',
    '```',
    'Look it up.',
    '',
  ].join('\n');
}

/** Every name `Object.prototype` and `Function.prototype` carry (symbols aside), then `__proto__` and `prototype`. */
export function prototypeNames(): string[] {
  return [
    ...new Set([
      ...Object.getOwnPropertyNames(Object.prototype),
      ...Object.getOwnPropertyNames(Function.prototype),
      '__proto__',
      'prototype',
    ]),
  ];
}

const extra = (key: string, before: string, value = '1'): string => (key === '' ? '' : `${before}${key}: ${value}`);

/** The SOP text of a probe. */
export function probeSop(names: ProbeNames, options: { readonly yamlMap?: boolean } = {}): string {
  const n = names;
  const prompts = options.yamlMap
    ? [
        '```yaml',
        'node_prompts:',
        `  ${n.ASK}:`,
        `    tools: [${n.lookup}]`,
        '    max_visits: 2',
        `    escalate_to: ${n.HELP}`,
        `    examples: [{ user: "hi", agent: "hello"${extra(n.exampleKey, ', ')} }]${extra(n.nodeKey, '\n    ')}`,
        '    prompt: Ask.',
        `  ${n.DO}:`,
        `    tools: [${n.act}]`,
        '    prompt: Do.',
        '```',
      ]
    : [
        `### ${n.ASK}`,
        '```yaml',
        `tools: [${n.lookup}]`,
        'max_visits: 2',
        `escalate_to: ${n.HELP}`,
        `examples: [{ user: "hi", agent: "hello"${extra(n.exampleKey, ', ')} }]${extra(n.nodeKey, '\n')}`,
        '```',
        'Ask.',
        '',
        `### ${n.DO}`,
        '```yaml',
        `tools: [${n.act}]`,
        '```',
        'Do.',
      ];
  return [
    '---',
    `agent: ${n.agent}`,
    'version: "1"',
    `entry_node: ${n.START}`,
    `hubs: [${n.ROUTE}]`,
    `escalation_node: ${n.HELP}`,
    `model: { provider: probe, ${n.modelKey}: 1 }`,
    `mcp_servers: [{ name: ${n.server}, url: "http://127.0.0.1:9/mcp" }]`,
    `tools: [${n.lookup}, ${n.act}]`,
    // A budget makes the build measure every goto_node answer with the runtime's own code.
    `token_budget: { goto_answer: 100000${extra(n.budgetKey, ', ')} }`,
    'policies:',
    `  ${n.policy}:`,
    `    every_path_to: { tools: [${n.act}] }`,
    `    passes: ${n.ASK}${extra(n.policyKey, '\n    ')}`,
    ...(n.frontmatterKey === '' ? [] : [`${n.frontmatterKey}: 1`]),
    '---',
    '',
    '## Role',
    'Probes where a name can stand.',
    '',
    '## SOP Flowchart',
    '```mermaid',
    'flowchart TD',
    `    ${n.START}([Start]) --> ${n.ROUTE}{Route?}`,
    `    ${n.ROUTE} -->|ask| ${n.ASK}["Ask"]`,
    `    ${n.ASK} ${n.edge}@--> ${n.DO}["Do"]`,
    `    ${n.DO} --> ${n.DONE}([Done])`,
    `    ${n.ROUTE} -->|help| ${n.HELP}([Help])`,
    `    subgraph ${n.group} [Work]`,
    `      ${n.DO}`,
    '    end',
    `    classDef ${n.cls} fill:#eee`,
    `    class ${n.ASK} ${n.cls}`,
    '```',
    '',
    '## Node Prompts',
    '',
    ...prompts,
    '',
  ].join('\n');
}
