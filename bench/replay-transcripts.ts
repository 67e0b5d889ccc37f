/**
 * Transcripts of the retail SOP for the replay row, written to a folder: an agent that follows the SOP from its
 * system prompt (no goto_node, as production agents do) walks a golden path, calling each node's tool with
 * arguments and answers shaped like τ²-bench's retail tools (a user's record, orders of one to four items,
 * products of eight to fourteen variants, the catalogue), asking and hearing "yes" before each change. About one
 * in four has a deviation planted (authentication skipped, a change without the user's yes, a lookup before
 * authenticating). Files are τ²-bench simulations (with the metadata τ²-bench keeps per message: turn, time, cost,
 * usage, the provider's raw answer), OpenAI chat message lists, and Claude Code session logs, 12 : 5 : 3, written by
 * the corpus's writers (`test/support/corpus/writers/`).
 *
 * Deterministic: the same count and seed give the same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledSop } from '../contract/compiled-sop.js';
import { goldenPaths } from '../generator/paths/golden-paths.js';
import { random as seededRandom } from '../fuzz/random.js';
import { type Turn, writeClaudeCode, writeOpenaiChat, writeTau2Simulation } from '../test/support/corpus/index.js';

export interface TranscriptSet {
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
  readonly calls: number;
  readonly planted: number;
}

type Act =
  | { readonly user: string }
  | { readonly say: string }
  | { readonly call: string; readonly args: Record<string, unknown>; readonly answer: string };

const COLORS = ['black', 'white', 'red', 'blue', 'green', 'silver', 'navy', 'gold'];
const SIZES = ['S', 'M', 'L', 'XL', 'small', 'medium', 'large'];
const PRODUCTS = [
  'Bluetooth Speaker',
  'Luggage Set',
  'Backpack',
  'Tablet',
  'T-Shirt',
  'Office Chair',
  'Desk Lamp',
  'Water Bottle',
  'Hiking Boots',
  'Laptop',
];

function world(rng: () => number) {
  const id = (digits: number) => String(Math.floor(rng() * 10 ** digits)).padStart(digits, '0');
  const address = {
    address1: `${100 + Math.floor(rng() * 900)} Oak Street`,
    address2: `Suite ${1 + Math.floor(rng() * 40)}`,
    city: 'Houston',
    country: 'USA',
    state: 'TX',
    zip: `7${id(4)}`,
  };
  const userId = `user_${id(4)}`;
  const item = () => {
    const name = PRODUCTS[Math.floor(rng() * PRODUCTS.length)]!;
    return {
      name,
      product_id: id(10),
      item_id: id(10),
      price: Math.round(rng() * 90_000) / 100,
      options: { color: COLORS[Math.floor(rng() * COLORS.length)], size: SIZES[Math.floor(rng() * SIZES.length)], material: 'polyester' },
    };
  };
  const order = (status: string) => {
    const items = Array.from({ length: 1 + Math.floor(rng() * 4) }, item);
    const total = items.reduce((sum, i) => sum + i.price, 0);
    return {
      order_id: `#W${id(7)}`,
      user_id: userId,
      address,
      items,
      fulfillments: status === 'pending' ? [] : [{ tracking_id: [id(12)], item_ids: items.map((i) => i.item_id) }],
      status,
      payment_history: [{ transaction_type: 'payment', amount: Math.round(total * 100) / 100, payment_method_id: 'credit_card_1402' }],
    };
  };
  const user = {
    user_id: userId,
    name: { first_name: 'Sophia', last_name: 'Martin' },
    address,
    email: `${userId}@example.com`,
    payment_methods: {
      credit_card_1402: { source: 'credit_card', brand: 'visa', last_four: '1402', id: 'credit_card_1402' },
      gift_card_3389: { source: 'gift_card', balance: 120, id: 'gift_card_3389' },
      paypal_5512: { source: 'paypal', id: 'paypal_5512' },
    },
    orders: Array.from({ length: 3 + Math.floor(rng() * 4) }, () => `#W${id(7)}`),
  };
  const product = () => {
    const variants = Object.fromEntries(
      Array.from({ length: 8 + Math.floor(rng() * 7) }, () => {
        const itemId = id(10);
        return [
          itemId,
          {
            item_id: itemId,
            options: {
              color: COLORS[Math.floor(rng() * COLORS.length)],
              size: SIZES[Math.floor(rng() * SIZES.length)],
              material: 'polyester',
              style: 'crew neck',
            },
            available: rng() > 0.3,
            price: Math.round(rng() * 90_000) / 100,
          },
        ];
      }),
    );
    return { name: PRODUCTS[Math.floor(rng() * PRODUCTS.length)], product_id: id(10), variants };
  };
  const catalogue = Object.fromEntries(PRODUCTS.flatMap((p) => [1, 2, 3, 4, 5].map((n) => [`${p} ${n}`, id(10)])));
  return { user, order, product, catalogue };
}

/** The agent's acts along a walk of the SOP: its tool calls with their answers, and what it and the user say. */
function actsOf(sop: CompiledSop, walk: readonly string[], rng: () => number): Act[] {
  const w = world(rng);
  const guarded = new Set((sop.policies ?? []).filter((p) => p.confirmation !== null).flatMap((p) => p.tools));
  const answer = (tool: string): string => {
    if (tool.startsWith('find_user_id')) return w.user.user_id;
    if (tool === 'get_user_details' || tool === 'modify_user_address') return JSON.stringify(w.user);
    if (tool === 'get_product_details') return JSON.stringify(w.product());
    if (tool === 'list_all_product_types') return JSON.stringify(w.catalogue);
    if (tool === 'calculate') return (Math.round(rng() * 100_000) / 100).toFixed(2);
    if (tool === 'transfer_to_human_agents') return 'Transfer successful';
    return JSON.stringify(w.order(rng() > 0.5 ? 'pending' : 'delivered'));
  };
  const acts: Act[] = [{ user: `Hi, I need some help with my orders. My email is ${w.user.email}.` }];
  for (const node of walk) {
    const tools = sop.toolsByNode[node] ?? [];
    const tool = tools.find((t) => guarded.has(t)) ?? tools[Math.floor(rng() * tools.length)];
    if (tool === undefined) continue;
    if (guarded.has(tool)) {
      acts.push({
        say: `To confirm, I will now ${tool.replaceAll('_', ' ')} for order ${w.user.orders[0]} as you asked. Shall I proceed? Please answer yes or no.`,
      });
      acts.push({ user: 'Yes, please go ahead.' });
    }
    acts.push({ call: tool, args: { user_id: w.user.user_id, order_id: w.user.orders[0] }, answer: answer(tool) });
    if (rng() < 0.5)
      acts.push(
        { say: 'Thank you. Here is what I found; let me know how you would like to continue.' },
        { user: 'Okay, thanks. Please continue.' },
      );
  }
  acts.push({ say: 'Is there anything else I can help you with today?' }, { user: 'No, that is all. Thank you! ###STOP###' });
  return acts;
}

/** Plants one deviation, or none; returns the acts and whether it planted one. */
function plant(sop: CompiledSop, acts: Act[], rng: () => number): [Act[], boolean] {
  const roll = rng();
  const isAuth = (a: Act) => 'call' in a && (sop.toolsByNode.AUTH ?? []).includes(a.call);
  if (roll < 0.1) return [acts.filter((a) => !isAuth(a)), true];
  if (roll < 0.18) {
    const yes = acts.findIndex((a) => 'user' in a && a.user.startsWith('Yes'));
    if (yes >= 0) return [acts.map((a, i) => (i === yes ? { user: 'Hmm, wait. Will the refund be immediate?' } : a)), true];
  }
  if (roll < 0.26) {
    const auth = acts.findIndex(isAuth);
    const lookup = acts.findIndex((a, i) => i > auth && 'call' in a && !isAuth(a));
    if (auth >= 0 && lookup > auth)
      return [[...acts.slice(0, auth), acts[lookup]!, ...acts.slice(auth, lookup), ...acts.slice(lookup + 1)], true];
  }
  return [acts, false];
}

export function writeRetailTranscripts(dir: string, sop: CompiledSop, count: number, seed = 48): TranscriptSet {
  mkdirSync(dir, { recursive: true });
  const rng = seededRandom(seed).next;
  const paths = goldenPaths(sop).paths;
  let bytes = 0;
  let calls = 0;
  let planted = 0;
  for (let n = 0; n < count; n++) {
    const walk = paths[Math.floor(rng() * paths.length)]!.nodes;
    const [acts, deviated] = plant(sop, actsOf(sop, walk, rng), rng);
    if (deviated) planted += 1;
    calls += acts.filter((a) => 'call' in a).length;
    const kind = n % 20;
    const turns = acts.map((a): Turn => ('call' in a ? { call: a.call, args: a.args, answer: { text: a.answer } } : a));
    const [name, text] =
      kind < 12
        ? [`sim-${n}.json`, writeTau2Simulation(turns, { n, reward: n % 3 === 0 ? 0 : 1 })]
        : kind < 17
          ? [`chat-${n}.json`, writeOpenaiChat(turns, { n })]
          : [`session-${n}.jsonl`, writeClaudeCode(turns, { n })];
    writeFileSync(join(dir, name), text);
    bytes += Buffer.byteLength(text);
  }
  return { dir, files: count, bytes, calls, planted };
}
