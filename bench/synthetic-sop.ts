/**
 * Deterministic synthetic SOPs for the bench (rows 3–5): valid files in the shape real SOP authors write
 * (see `/work/shared/spec/sop-format.md`), so that build, start-up and type-checking costs are measured on
 * realistic input rather than on toy graphs.
 *
 * Shape, for a target node count N (40 in the bench):
 *   START([stadium]) --> AUTH[rect] --> ROUTE{Intent?}
 *   ROUTE -->|intent| CHK_X --> IS_X{condition?} -->|yes| COLLECT_X [--> CONFIRM_X] --> DO_X --> END_X([…])
 *                                                -->|no|  DENY_X([…])
 *   COLLECT_X -.->|user changes mind| ROUTE        DO_X -.->|tool error| ESCALATE_HUMAN
 *   ROUTE -->|other| ESCALATE_HUMAN([…])
 * i.e. 4 + 6 per intent branch, with CONFIRM_X steps filling the remainder. AUTH, CHK, COLLECT, CONFIRM, DO and
 * ESCALATE_HUMAN carry `### NODE_ID` prompts of 60–150 words with a yaml block (tools, some examples); every
 * frontmatter tool is used by a node; every decision edge is labelled; every node reaches a terminal.
 *
 * The same (index, nodes, seed) always gives the same bytes. The graph is also returned as data, so that the
 * bench can write the "by hand" XState equivalent (row 5) and plan valid walks without parsing anything.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { random as seededRandom } from '../fuzz/random.js';

export interface SyntheticNode {
  readonly id: string;
  readonly type: 'stadium' | 'rectangle' | 'rhombus';
  readonly description: string;
}

export interface SyntheticEdge {
  readonly from: string;
  readonly to: string;
  readonly condition: string | null;
  readonly style: 'solid' | 'dotted';
}

export interface SyntheticPrompt {
  readonly prompt: string;
  readonly tools: readonly string[];
  readonly examples: readonly { readonly user: string; readonly agent: string }[];
}

export interface SyntheticGraph {
  readonly agent: string;
  readonly entryNode: string;
  readonly hubs: readonly string[];
  readonly nodes: readonly SyntheticNode[];
  readonly edges: readonly SyntheticEdge[];
  readonly prompts: Readonly<Record<string, SyntheticPrompt>>;
  readonly tools: readonly string[];
}

export interface SyntheticSop {
  readonly agent: string;
  /** `<agent>.md` */
  readonly fileName: string;
  readonly markdown: string;
  readonly graph: SyntheticGraph;
}

export interface SyntheticOptions {
  readonly index: number;
  /** Number of flowchart nodes, at least 10. Default 40. */
  readonly nodes?: number;
  /** Changes every file of a set at once (prose, intents, order). Default 1. */
  readonly seed?: number;
}

interface Intent {
  readonly key: string;
  readonly label: string;
  readonly object: string;
  readonly check: string;
  readonly checkTool: string;
  readonly condition: string;
  readonly fields: string;
  readonly action: string;
  readonly actionTool: string;
  readonly done: string;
  readonly denied: string;
}

const INTENTS: readonly Intent[] = [
  {
    key: 'CANCEL',
    label: 'cancel',
    object: 'order',
    check: 'Check order status',
    checkTool: 'get_order_details',
    condition: 'status == pending?',
    fields: 'order_id, reason',
    action: 'cancel the pending order',
    actionTool: 'cancel_pending_order',
    done: 'Order cancelled',
    denied: 'Cannot cancel',
  },
  {
    key: 'MODIFY',
    label: 'modify items',
    object: 'order',
    check: 'Check order status',
    checkTool: 'get_order_details',
    condition: 'status == pending?',
    fields: 'order_id, item changes, payment method',
    action: 'modify the items of the pending order',
    actionTool: 'modify_pending_order_items',
    done: 'Order modified',
    denied: 'Cannot modify',
  },
  {
    key: 'RETURN',
    label: 'return',
    object: 'delivered order',
    check: 'Check delivery status',
    checkTool: 'get_order_details',
    condition: 'status == delivered?',
    fields: 'order_id, items, refund method',
    action: 'return the delivered items',
    actionTool: 'return_delivered_order_items',
    done: 'Return requested',
    denied: 'Cannot return',
  },
  {
    key: 'EXCHANGE',
    label: 'exchange',
    object: 'delivered order',
    check: 'Check delivery status',
    checkTool: 'get_order_details',
    condition: 'status == delivered?',
    fields: 'order_id, item exchanges',
    action: 'exchange the delivered items',
    actionTool: 'exchange_delivered_order_items',
    done: 'Exchange requested',
    denied: 'Cannot exchange',
  },
  {
    key: 'ADDRESS',
    label: 'update address',
    object: 'user profile',
    check: 'Look up the user profile',
    checkTool: 'get_user_details',
    condition: 'address verifiable?',
    fields: 'user_id, new address',
    action: 'update the default address',
    actionTool: 'modify_user_address',
    done: 'Address updated',
    denied: 'Cannot update address',
  },
  {
    key: 'PAYMENT',
    label: 'payment method',
    object: 'payment method',
    check: 'Check payment methods',
    checkTool: 'get_user_details',
    condition: 'method on file?',
    fields: 'user_id, payment method id',
    action: 'change the payment method',
    actionTool: 'update_payment_method',
    done: 'Payment updated',
    denied: 'Cannot change payment',
  },
  {
    key: 'REFUND',
    label: 'refund',
    object: 'refund',
    check: 'Check refund eligibility',
    checkTool: 'get_order_details',
    condition: 'within 30 days?',
    fields: 'order_id, amount, reason',
    action: 'issue the refund',
    actionTool: 'issue_refund',
    done: 'Refund issued',
    denied: 'Refund refused',
  },
  {
    key: 'SUBSCRIPTION',
    label: 'pause subscription',
    object: 'subscription',
    check: 'Check subscription',
    checkTool: 'get_subscription_details',
    condition: 'subscription active?',
    fields: 'subscription_id, pause length',
    action: 'pause the subscription',
    actionTool: 'pause_subscription',
    done: 'Subscription paused',
    denied: 'Cannot pause',
  },
  {
    key: 'WARRANTY',
    label: 'warranty claim',
    object: 'product',
    check: 'Check warranty coverage',
    checkTool: 'get_product_details',
    condition: 'under warranty?',
    fields: 'order_id, item_id, defect description',
    action: 'file the warranty claim',
    actionTool: 'file_warranty_claim',
    done: 'Claim filed',
    denied: 'Not covered',
  },
  {
    key: 'DELIVERY',
    label: 'reschedule delivery',
    object: 'shipment',
    check: 'Check shipment',
    checkTool: 'track_shipment',
    condition: 'slot available?',
    fields: 'order_id, new delivery slot',
    action: 'reschedule the delivery',
    actionTool: 'reschedule_delivery',
    done: 'Delivery rescheduled',
    denied: 'Cannot reschedule',
  },
  {
    key: 'GIFTCARD',
    label: 'gift card',
    object: 'gift card',
    check: 'Check gift card balance',
    checkTool: 'get_gift_card_balance',
    condition: 'balance sufficient?',
    fields: 'order_id, gift card code',
    action: 'apply the gift card',
    actionTool: 'apply_gift_card',
    done: 'Gift card applied',
    denied: 'Insufficient balance',
  },
  {
    key: 'LOYALTY',
    label: 'redeem points',
    object: 'loyalty account',
    check: 'Check loyalty points',
    checkTool: 'get_loyalty_account',
    condition: 'enough points?',
    fields: 'user_id, reward id',
    action: 'redeem the points',
    actionTool: 'redeem_loyalty_points',
    done: 'Points redeemed',
    denied: 'Not enough points',
  },
];

const SENTENCES: readonly string[] = [
  'Confirm the {object} with the user before you change anything, and read the relevant details back in plain words.',
  'Use `{tool}` to look up the current state; never guess a value the tool can tell you.',
  'If the user gives several requests at once, handle them one at a time and keep the others in the todo list.',
  'Ask for one missing detail per turn so that the user is not overwhelmed by a form.',
  'Do not promise timelines that the policy does not state; say what happens next and who will contact the user.',
  'When the tool returns an error, explain it briefly, do not retry more than once, and offer to escalate.',
  'Never reveal internal identifiers other than the ones the user already knows, such as the order number.',
  'Quote amounts with their currency and two decimals, and state whether taxes and shipping are included.',
  'If the user changes their mind, go back to the routing step instead of improvising a new flow.',
  'Only {action} after the user has explicitly confirmed with a clear yes; a vague answer is not a confirmation.',
  'Summarise what you are about to do in one sentence, then wait for the confirmation.',
  'Be concise and friendly; avoid apologising more than once in a conversation.',
  'Check that the {object} belongs to the authenticated user; if it does not, refuse and explain why.',
  'If the request falls outside this procedure, transfer the user to a human agent with a short summary.',
  'Record any detail you discover that matters for a later task as a note on that task.',
  'Do not ask for information you can obtain with a tool, such as the shipping address on file.',
  'Mention any fee or price difference before the user confirms, and compute it with the calculator tool when needed.',
  'Keep the user informed while a tool call is running if it takes more than a moment.',
  'If the user is unsure, describe the available options neutrally and let them choose.',
  'Use the exact policy wording for eligibility rules rather than paraphrasing them loosely.',
  'Double-check item identifiers against the order details; similar product names are common.',
  'Once the action succeeds, tell the user the outcome and the reference number returned by the tool.',
];

const EXAMPLES: readonly { readonly user: string; readonly agent: string }[] = [
  { user: 'I want to sort this out quickly, my order is {ref}.', agent: 'Thanks! Let me pull up order {ref} and check what we can do.' },
  {
    user: 'Can you just do it without asking me again?',
    agent: 'I need your explicit confirmation before I make the change. Shall I go ahead?',
  },
  { user: 'I am not sure which option is best for me.', agent: 'No problem. Here are the options, with what each one means for you.' },
  { user: 'Actually, I changed my mind about that.', agent: 'Understood. What would you like to do instead?' },
];

function fill(template: string, intent: Intent, tool: string, ref: string): string {
  return template
    .replaceAll('{object}', intent.object)
    .replaceAll('{tool}', tool)
    .replaceAll('{action}', intent.action)
    .replaceAll('{ref}', ref);
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Builds one synthetic SOP. */
export function syntheticSop(options: SyntheticOptions): SyntheticSop {
  const nodeCount = options.nodes ?? 40;
  if (nodeCount < 10) throw new Error(`a synthetic SOP needs at least 10 nodes, got ${nodeCount}`);
  const random = seededRandom((options.seed ?? 1) * 1_000_003 + options.index * 7919 + nodeCount).next;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const agent = `synth_${String(options.index).padStart(4, '0')}`;
  const ref = `#W${1_000_000 + Math.floor(random() * 8_999_999)}`;

  const branches = Math.floor((nodeCount - 4) / 6);
  const confirms = nodeCount - 4 - 6 * branches;
  const start = Math.floor(random() * INTENTS.length);
  const intents = Array.from({ length: branches }, (_, i) => {
    const base = INTENTS[(start + i) % INTENTS.length] as Intent;
    const round = Math.floor(i / INTENTS.length);
    return round === 0 ? base : { ...base, key: `${base.key}${round + 1}`, label: `${base.label} ${round + 1}` };
  });

  const nodes: SyntheticNode[] = [];
  const edges: SyntheticEdge[] = [];
  const prompts: Record<string, SyntheticPrompt> = {};
  const lines: string[] = ['flowchart TD'];
  const node = (id: string, type: SyntheticNode['type'], description: string): string => {
    nodes.push({ id, type, description });
    return type === 'stadium' ? `${id}([${description}])` : type === 'rhombus' ? `${id}{${description}}` : `${id}["${description}"]`;
  };
  const edge = (from: string, to: string, condition: string | null, style: 'solid' | 'dotted', left: string, right: string): void => {
    edges.push({ from, to, condition, style });
    const arrow = style === 'dotted' ? '-.->' : '-->';
    lines.push(`    ${left} ${arrow}${condition === null ? '' : `|${condition}|`} ${right}`);
  };
  const prose = (intent: Intent, tool: string, lead: string): string => {
    const target = 60 + Math.floor(random() * 90);
    const parts = [lead];
    const used = new Set<number>();
    while (words(parts.join(' ')) < target && used.size < SENTENCES.length) {
      const i = Math.floor(random() * SENTENCES.length);
      if (used.has(i)) continue;
      used.add(i);
      const sentence = fill(SENTENCES[i] as string, intent, tool, ref);
      if (words([...parts, sentence].join(' ')) > 150) break;
      parts.push(sentence);
    }
    // Realistic prompts mix a paragraph with a short list.
    const [first, ...rest] = parts;
    const half = Math.ceil(rest.length / 2);
    return (
      [first, ...rest.slice(0, half)].join(' ') +
      '\n\n' +
      rest
        .slice(half)
        .map((s) => `- ${s}`)
        .join('\n')
    );
  };
  const examples = (intent: Intent, tool: string, count: number): SyntheticPrompt['examples'] =>
    Array.from({ length: count }, () => {
      const e = pick(EXAMPLES);
      return { user: fill(e.user, intent, tool, ref), agent: fill(e.agent, intent, tool, ref) };
    });
  const first = intents[0] as Intent;

  // The hub and authentication.
  edge(
    'START',
    'AUTH',
    null,
    'solid',
    node('START', 'stadium', 'User contacts Agent'),
    node('AUTH', 'rectangle', 'Authenticate via email or name + zip'),
  );
  edge('AUTH', 'ROUTE', null, 'solid', 'AUTH', node('ROUTE', 'rhombus', 'Intent?'));
  prompts.AUTH = {
    prompt: prose(
      first,
      'find_user_id_by_email',
      'Authenticate the user via email OR name + zip code. Must verify even if the user gives a user_id directly.',
    ),
    tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
    examples: [{ user: 'My email is sam.lee@example.com', agent: 'Thanks, let me look you up.' }],
  };

  intents.forEach((intent, i) => {
    const k = intent.key;
    lines.push(`    %% ${intent.label}`);
    edge('ROUTE', `CHK_${k}`, intent.label, 'solid', 'ROUTE', node(`CHK_${k}`, 'rectangle', intent.check));
    edge(`CHK_${k}`, `IS_${k}`, null, 'solid', `CHK_${k}`, node(`IS_${k}`, 'rhombus', intent.condition));
    edge(`IS_${k}`, `COLLECT_${k}`, 'yes', 'solid', `IS_${k}`, node(`COLLECT_${k}`, 'rectangle', `Collect: ${intent.fields}`));
    edge(`IS_${k}`, `DENY_${k}`, 'no', 'solid', `IS_${k}`, node(`DENY_${k}`, 'stadium', intent.denied));
    let beforeDo = `COLLECT_${k}`;
    if (i < confirms) {
      edge(
        beforeDo,
        `CONFIRM_${k}`,
        null,
        'solid',
        beforeDo,
        node(`CONFIRM_${k}`, 'rectangle', `Confirm the ${intent.label} with the user`),
      );
      prompts[`CONFIRM_${k}`] = {
        prompt: prose(intent, intent.actionTool, `Read back every detail of the ${intent.label} request.`),
        tools: [],
        examples: [],
      };
      beforeDo = `CONFIRM_${k}`;
    }
    edge(beforeDo, `DO_${k}`, null, 'solid', beforeDo, node(`DO_${k}`, 'rectangle', `Execute: ${intent.actionTool}`));
    edge(`DO_${k}`, `END_${k}`, null, 'solid', `DO_${k}`, node(`END_${k}`, 'stadium', intent.done));
    edge(`COLLECT_${k}`, 'ROUTE', 'user changes mind', 'dotted', `COLLECT_${k}`, 'ROUTE');
    edge(
      `DO_${k}`,
      'ESCALATE_HUMAN',
      'tool error',
      'dotted',
      `DO_${k}`,
      i === 0 ? node('ESCALATE_HUMAN', 'stadium', 'Transfer to a human agent') : 'ESCALATE_HUMAN',
    );
    prompts[`CHK_${k}`] = {
      prompt: prose(intent, intent.checkTool, `${intent.check} before anything else: the ${intent.object} decides which branch applies.`),
      tools: [intent.checkTool],
      examples: [],
    };
    prompts[`COLLECT_${k}`] = {
      prompt: prose(intent, intent.actionTool, `Collect and confirm: ${intent.fields}.`),
      tools: intent.key.startsWith('EXCHANGE') || intent.key.startsWith('MODIFY') ? ['calculate'] : [],
      examples: examples(intent, intent.actionTool, 1 + Math.floor(random() * 2)),
    };
    prompts[`DO_${k}`] = {
      prompt: prose(intent, intent.actionTool, `Call \`${intent.actionTool}\` with the confirmed details to ${intent.action}.`),
      tools: [intent.actionTool],
      examples: [],
    };
  });
  edge('ROUTE', 'ESCALATE_HUMAN', 'other', 'solid', 'ROUTE', 'ESCALATE_HUMAN');
  prompts.ESCALATE_HUMAN = {
    prompt: prose(first, 'transfer_to_human_agents', 'Transfer the user to a human agent with a summary of the conversation so far.'),
    tools: ['transfer_to_human_agents'],
    examples: [],
  };

  const tools = [...new Set(Object.values(prompts).flatMap((p) => p.tools))].sort();
  const graph: SyntheticGraph = { agent, entryNode: 'START', hubs: ['ROUTE'], nodes, edges, prompts, tools };
  return { agent, fileName: `${agent}.md`, markdown: render(graph, intents, lines), graph };
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

function render(graph: SyntheticGraph, intents: readonly Intent[], flowchart: readonly string[]): string {
  const labels = intents.map((i) => i.label).join(', ');
  const out: string[] = [
    '---',
    `agent: ${graph.agent}`,
    'version: "1.0"',
    `description: Synthetic support agent (${labels})`,
    'entry_node: START',
    'hubs: [ROUTE]',
    'model:',
    '  provider: anthropic',
    '  name: claude-sonnet-4-5-20250929',
    '  temperature: 0.2',
    '  max_tokens: 1024',
    'mcp_servers:',
    '  - name: support-tools',
    '    url: https://mcp.example.com/sse',
    'tools:',
    ...graph.tools.map((t) => `  - ${t}`),
    '---',
    '',
    `# ${graph.agent}`,
    '',
    '## Role',
    `You are a customer support agent. You help authenticated users with: ${labels}. You follow the SOP graph below and`,
    'move through it with `goto_node`; you never skip authentication.',
    '',
    '## Global Rules',
    '- Authenticate the user before any account-specific action.',
    '- One tool call at a time; wait for its result before the next.',
    '- Get an explicit "yes" before any action that changes the account.',
    '- Transfer to a human agent only when the request is outside this SOP.',
    '',
    '## Domain Reference',
    '- Orders have a status: pending, processed, delivered or cancelled.',
    '- Refunds go to the original payment method unless the user picks a gift card.',
    '- All amounts are in USD with two decimals.',
    '',
    '## SOP Flowchart',
    '```mermaid',
    ...flowchart,
    '```',
    '',
    '## Node Prompts',
    '',
  ];
  for (const n of graph.nodes) {
    const p = graph.prompts[n.id];
    if (!p) continue;
    out.push(`### ${n.id}`);
    if (p.tools.length > 0 || p.examples.length > 0) {
      out.push('```yaml');
      if (p.tools.length > 0) out.push(`tools: [${p.tools.join(', ')}]`);
      if (p.examples.length > 0) {
        out.push('examples:');
        for (const e of p.examples) out.push(`  - user: ${yamlString(e.user)}`, `    agent: ${yamlString(e.agent)}`);
      }
      out.push('```');
    }
    out.push(p.prompt, '');
  }
  return out.join('\n');
}

/** Writes `count` synthetic SOPs into `dir` (created if needed) and returns them. */
export function writeSyntheticSops(dir: string, count: number, options: { nodes?: number; seed?: number } = {}): SyntheticSop[] {
  mkdirSync(dir, { recursive: true });
  const sops: SyntheticSop[] = [];
  for (let index = 0; index < count; index++) {
    const sop = syntheticSop({ index, ...options });
    writeFileSync(join(dir, sop.fileName), sop.markdown);
    sops.push(sop);
  }
  return sops;
}
