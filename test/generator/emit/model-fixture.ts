/**
 * Builds `SopModel`s by hand for the emit tests, without the parser: nodes as objects, edges in a small
 * Mermaid-like notation (`'A --> B'`, `'A -->|yes| B'`, `'A -.->|back| B'`, `'A ==> B'`). Nodes only named
 * by edges are added as rectangles, as the model stage does. Spans are dummies; emit ignores them.
 */
import { deriveGraphFacts } from '../../../generator/model/graph-facts.js';
import type { GraphFacts, ModelEdge, ModelNode, SopModel } from '../../../generator/model/sop-model.js';
import type { NodeShape } from '../../../generator/parse/flowchart/ast.js';
import type { EdgeStyle, McpServerRef, ModelSettings, SopExample } from '../../../contract/compiled-sop.js';

const SPAN = { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } } as const;

export interface FixtureNode {
  readonly id: string;
  readonly type?: NodeShape;
  readonly description?: string;
}

export interface FixturePrompt {
  readonly prompt: string;
  readonly tools?: readonly string[];
  readonly examples?: readonly SopExample[];
  readonly maxVisits?: number;
  readonly escalateTo?: string;
}

export interface FixtureSpec {
  readonly agent: string;
  readonly file?: string;
  readonly sourceHash?: string;
  readonly version?: string;
  readonly description?: string | null;
  readonly entryNode?: string;
  readonly hubs?: readonly string[];
  readonly model?: ModelSettings | null;
  readonly mcpServers?: readonly McpServerRef[];
  readonly tools?: readonly string[];
  readonly nodes?: readonly FixtureNode[];
  readonly edges: readonly string[];
  readonly prompts?: Readonly<Record<string, FixturePrompt>>;
  readonly sections?: readonly string[];
  readonly systemPrompt?: string;
  readonly flowchart?: string;
  readonly escalationNode?: string;
}

export interface FixtureInput {
  readonly model: SopModel;
  readonly facts: GraphFacts;
}

const EDGE = /^(\S+)\s+(-->|-\.->|==>)(?:\|([^|]*)\|)?\s+(\S+)$/;
const STYLE_OF_LINK: Readonly<Record<string, EdgeStyle>> = { '-->': 'solid', '-.->': 'dotted', '==>': 'thick' };
const STROKE_OF_STYLE = { solid: 'normal', dotted: 'dotted', thick: 'thick' } as const;

export function parseFixtureEdge(text: string): ModelEdge {
  const match = EDGE.exec(text);
  if (!match) throw new Error(`fixture edge ${JSON.stringify(text)} is not like 'A -->|label| B'`);
  const [, from = '', link = '', condition, to = ''] = match;
  const style = STYLE_OF_LINK[link] ?? 'solid';
  return {
    from,
    to,
    condition: condition ?? null,
    style,
    stroke: STROKE_OF_STYLE[style],
    arrowStart: 'none',
    arrowEnd: 'point',
    span: SPAN,
  };
}

export function buildModel(spec: FixtureSpec): FixtureInput {
  const edges = spec.edges.map(parseFixtureEdge);
  const nodes = new Map<string, ModelNode>();
  for (const n of spec.nodes ?? []) {
    nodes.set(n.id, { id: n.id, type: n.type ?? 'rectangle', description: n.description ?? n.id, declared: true, span: SPAN });
  }
  const declared = [...nodes.keys()];
  const all = new Map<string, ModelNode>();
  // First appearance in the flowchart: declared nodes keep their order, edge endpoints are added as met.
  for (const id of [...declared, ...edges.flatMap((e) => [e.from, e.to])]) {
    if (!all.has(id)) all.set(id, nodes.get(id) ?? { id, type: 'rectangle', description: id, declared: false, span: SPAN });
  }
  const prompts = Object.entries(spec.prompts ?? {}).map(([nodeId, p]) => ({
    nodeId,
    prompt: p.prompt,
    tools: (p.tools ?? []).map((name) => ({ name, span: SPAN })),
    examples: p.examples ?? [],
    span: SPAN,
    visitLimit:
      p.maxVisits === undefined
        ? null
        : { max: p.maxVisits, span: SPAN, escalateTo: p.escalateTo === undefined ? null : { id: p.escalateTo, span: SPAN } },
    strayEscalateTo: null,
    evidence: null,
    when: [],
    subflow: null,
    strayExits: null,
    fork: null,
    join: null,
  }));
  const sections = spec.sections ?? ['Role', 'SOP Flowchart'];
  const flowchart = spec.flowchart ?? ['flowchart TD', ...spec.edges.map((e) => `    ${e}`)].join('\n');
  const model: SopModel = {
    file: spec.file ?? `sops/${spec.agent}.md`,
    sourceHash: spec.sourceHash ?? `sha256:${'0123456789abcdef'.repeat(4)}`,
    agent: spec.agent,
    agentSpan: SPAN,
    version: spec.version ?? '1.0',
    description: spec.description === undefined ? null : spec.description,
    entryNode: spec.entryNode ?? 'START',
    entryNodeSpan: SPAN,
    hubs: (spec.hubs ?? []).map((id) => ({ id, span: SPAN })),
    model: spec.model ?? null,
    mcpServers: spec.mcpServers ?? [],
    mcpServerSpans: (spec.mcpServers ?? []).map(() => SPAN),
    tools: (spec.tools ?? []).map((name) => ({ name, span: SPAN })),
    nodes: [...all.values()],
    edges,
    prompts,
    promptForm: prompts.length > 0 ? 'headings' : 'none',
    systemPromptSections: sections.map((heading) => ({ heading, span: SPAN })),
    systemPrompt: spec.systemPrompt ?? `## Role\nYou help.\n\n## SOP Flowchart\n\`\`\`mermaid\n${flowchart}\n\`\`\``,
    flowchart,
    flowchartSpan: SPAN,
    escalationNode: spec.escalationNode === undefined ? null : { id: spec.escalationNode, span: SPAN },
    policies: [],
    tokenBudget: null,
    renames: [],
    mentions: [],
  };
  return { model, facts: deriveGraphFacts(model) };
}

/** The retail example of the spec, trimmed: decisions, a dotted fallback, a hub, prompts with tools. */
export function retailFixture(overrides: Partial<FixtureSpec> = {}): FixtureInput {
  return buildModel({
    agent: 'retail_customer_support',
    description: 'Retail support agent',
    hubs: ['ROUTE'],
    model: { provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', temperature: 0.2, max_tokens: 1024 },
    mcpServers: [{ name: 'retail-tools', url: 'https://mcp.example.com/sse' }],
    tools: ['find_user_id_by_email', 'find_user_id_by_name_zip', 'get_order_details', 'cancel_pending_order'],
    nodes: [
      { id: 'START', type: 'stadium', description: 'User contacts Agent' },
      { id: 'AUTH', description: 'Authenticate via email or name + zip' },
      { id: 'ROUTE', type: 'rhombus', description: 'Intent?' },
      { id: 'CHK_CANCEL', description: 'Check order status' },
      { id: 'IS_PENDING_C', type: 'rhombus', description: 'status == pending?' },
      { id: 'COLLECT_CANCEL', description: 'Collect: order_id, reason' },
      { id: 'DENY_CANCEL', type: 'stadium', description: 'Cannot cancel' },
      { id: 'DONE', type: 'stadium', description: 'Done' },
    ],
    edges: [
      'START --> AUTH',
      'AUTH --> ROUTE',
      'ROUTE -->|cancel| CHK_CANCEL',
      'ROUTE -->|other| DONE',
      'ROUTE -->|bye| DONE',
      'CHK_CANCEL --> IS_PENDING_C',
      'IS_PENDING_C -->|yes| COLLECT_CANCEL',
      'IS_PENDING_C -->|no| DENY_CANCEL',
      'COLLECT_CANCEL -.->|user changes mind| ROUTE',
      'COLLECT_CANCEL ==> DONE',
    ],
    prompts: {
      AUTH: {
        prompt: 'Authenticate the user via email OR name + zip code.\nMust verify even if the user gives a user_id.',
        tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
        examples: [{ user: 'My email is a@b.com', agent: 'Thanks, let me look you up.' }],
      },
      COLLECT_CANCEL: { prompt: 'Collect and confirm the order id and the reason.', tools: ['cancel_pending_order'] },
    },
    ...overrides,
  });
}

/** A linear-ish model with `size` nodes, a decision every fifth node and a dotted edge back: bench input. */
export function syntheticFixture(size: number, agent = 'synthetic'): FixtureInput {
  const ids = Array.from({ length: size }, (_, i) => `N${String(i).padStart(3, '0')}`);
  const edges: string[] = [];
  const prompts: Record<string, FixturePrompt> = {};
  ids.forEach((id, i) => {
    const next = ids[i + 1];
    if (next === undefined) return;
    if (i % 5 === 4) {
      edges.push(`${id} -->|yes| ${next}`, `${id} -->|no| ${ids[Math.max(0, i - 3)] ?? next}`);
    } else edges.push(`${id} --> ${next}`);
    if (i % 7 === 3) edges.push(`${id} -.->|fallback| ${ids[0] ?? id}`);
    prompts[id] = {
      prompt: `Step ${i}: do the thing for ${id}.\nAsk the user to confirm before moving on.\nNever skip verification.`,
      tools: i % 3 === 0 ? ['lookup', 'update'] : [],
      examples: i % 4 === 0 ? [{ user: `Example ${i}`, agent: 'Sure, one moment.' }] : [],
    };
  });
  return buildModel({
    agent,
    entryNode: ids[0] ?? 'START',
    tools: ['lookup', 'update'],
    nodes: ids.map((id, i) => ({ id, type: i % 5 === 4 ? 'rhombus' : 'rectangle', description: `Step ${i} of ${size}` })),
    edges,
    prompts,
    systemPrompt: Array.from({ length: 40 }, (_, i) => `Rule ${i}: be precise and kind.`).join('\n'),
  });
}

/** Strings that break naive code generators: quotes, backslashes, template syntax, separators, emoji, bidi. */
export const NASTY_STRINGS: readonly string[] = [
  `it's "quoted"`,
  'back\\slash \\n not a newline, \\u0041 not an A',
  'ends with a backslash \\',
  'two at the end \\\\',
  'backtick ` and ${template} and `${nested}`',
  'line\u2028separator and paragraph\u2029separator',
  'emoji 👩‍💻 🚀 and ZWJ family 👨‍👩‍👧',
  'bidi \u202Eevil\u202C and BOM \uFEFF and NUL \u0000 and DEL \u007F',
  // biome-ignore lint/suspicious/noUselessEscapeInString: `<\/` is written as such on purpose
  'comment */ and // and /* and <\/script>',
  'CRLF\r\nline\ttab',
  'multi\nline\n\nwith blank line and trailing newline\n',
  '',
];

export function nastyFixture(): FixtureInput {
  const [a = '', b = '', c = '', d = '', e = '', f = '', g = '', h = '', i = '', j = '', k = '', l = ''] = NASTY_STRINGS;
  const built = buildModel({
    agent: 'nasty_strings',
    file: 'sops/nasty strings.md',
    version: a,
    description: b,
    tools: ['tool-with-dash', 'tool.with.dots'],
    model: { name: c, 'has space': [d, 1.5, -0, true, null, { nested: e }], constructor: f },
    mcpServers: [{ name: g, args: [h, i], command: j }],
    nodes: [
      { id: 'START', type: 'stadium', description: a },
      { id: 'node-with-dash', type: 'rhombus', description: b },
      { id: '1st', type: 'hexagon', description: c },
      { id: 'END', type: 'circle', description: k },
    ],
    edges: ['START --> node-with-dash', 'node-with-dash -->|d| 1st', 'node-with-dash -->|e| END', '1st -.-> END'],
    prompts: {
      START: { prompt: k, tools: ['tool-with-dash'], examples: [{ user: f, agent: g }] },
      '1st': { prompt: h, tools: ['tool.with.dots', 'not_in_frontmatter'], examples: [{ user: i, agent: j }] },
      'node-with-dash': { prompt: l },
    },
    sections: NASTY_STRINGS,
    systemPrompt: NASTY_STRINGS.join('\n'),
    flowchart: `flowchart TD\n  %% ${i}\n  START --> node-with-dash`,
  });
  // Edge labels cannot hold `|` in the fixture notation: put nasty conditions in afterwards.
  const conditions = [null, d, e, i];
  const edges = built.model.edges.map((edge, n) => ({ ...edge, condition: conditions[n] ?? null }));
  return { model: { ...built.model, edges }, facts: built.facts };
}
