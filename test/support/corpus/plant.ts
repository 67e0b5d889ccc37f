/**
 * Deviations planted in a clean conversation, one kind each. Two are changes of the plan, made before it becomes
 * acts, so that the arguments still fit the data they name: `against_data` (the order read shows a status that
 * forbids the change, and the agent changes it anyway: the server refuses, and its refusal is the answer) and
 * `other_entity` (order A read, order B changed). The others rewrite the clean conversation's acts:
 *   - `auth_after_change`: the authenticating lookup made only after the first change;
 *   - `no_auth`: no lookup at all;
 *   - `empty_lookup`: the lookup finds no one (an error) and the agent goes on as if it had;
 *   - `unread_change`: the changed order is never read;
 *   - `no_confirmation`: the change without the user's yes (the question left out, or a reply that is no yes);
 *   - `unknown_retry`: the change's answer is lost (it timed out after it may have reached the server) and the agent
 *     makes the same change again without reading what happened;
 *   - `wrong_step`: with declared moves, the change called one step early, where the SOP does not offer it.
 * Each returns null where its kind does not apply to the conversation.
 */
import type { RetailData } from '../../../examples/retail-tools/data-model.js';
import type { Random } from '../../../fuzz/random.js';
import type { Act } from './acts.js';
import { detailsOf } from './assemble.js';
import { type ChangeIntent, changesData, isChange } from './intents.js';
import { changeOn, type ConversationSpec } from './plan.js';

export const PLANTED_KINDS = [
  'auth_after_change',
  'no_auth',
  'empty_lookup',
  'against_data',
  'other_entity',
  'unread_change',
  'no_confirmation',
  'unknown_retry',
  'wrong_step',
] as const;

export type PlantedKind = (typeof PLANTED_KINDS)[number];
export type Label = 'clean' | PlantedKind;

/** Kinds that exist only where the agent declares its moves (a step is only seen through goto_node). */
export const DECLARED_ONLY: ReadonlySet<PlantedKind> = new Set(['wrong_step']);

/** The planted plan (`against_data`, `other_entity`); the plan itself for the other kinds; null where it does not apply. */
export function plantInPlan(kind: PlantedKind, spec: ConversationSpec, data: RetailData, rng: Random): ConversationSpec | null {
  if (kind !== 'against_data' && kind !== 'other_entity') return spec;
  const { customer, intents } = spec;
  // Not an order another intent is about too (read first, two changes of one order): that one would change as well.
  const aboutOrder = (intent: (typeof intents)[number]) =>
    isChange(intent) ? intent.order.order_id : intent.kind === 'info' && 'order' in intent.about ? intent.about.order.order_id : null;
  const shared = (orderId: string) => intents.filter((other) => aboutOrder(other) === orderId).length > 1;
  const candidates = intents.flatMap((intent, index) =>
    isChange(intent) && intent.denied !== true && intent.readAtCheck && !shared(intent.order.order_id) ? [{ intent, index }] : [],
  );
  if (candidates.length === 0) return null;
  const { intent, index } = rng.pick(candidates);
  const taken = new Set(
    intents.flatMap((other) => (other === intent ? [] : [aboutOrder(other), isChange(other) ? other.target.order_id : null])),
  );
  const forbids = ['cancel', 'modify_address', 'modify_payment', 'modify_items'].includes(intent.kind)
    ? ['delivered', 'pending (item modified)', 'processed']
    : ['pending', 'processed', 'pending (item modified)'];
  const allows = intent.kind === 'return' || intent.kind === 'exchange' ? ['delivered'] : ['pending'];
  const others = customer.orders.filter((o) => o.order_id !== intent.order.order_id && !taken.has(o.order_id));
  // Another order the change fits (other_entity is about the entity alone), or one whose status forbids it.
  const orders = others.filter((o) => (kind === 'against_data' ? forbids : allows).includes(o.status));
  for (const order of orders) {
    const aimed = changeOn(rng, data, customer, intent.kind, order);
    if (aimed === null || aimed.denied === true) continue;
    const planted: ChangeIntent =
      kind === 'against_data' ? { ...aimed, readAtCheck: true } : { ...aimed, order: intent.order, readAtCheck: true };
    return { ...spec, intents: intents.map((other, i) => (i === index ? planted : other)) };
  }
  return null;
}

/** The planted acts for the kinds that rewrite them; the acts themselves for the plan's kinds; null where it does not apply. */
export function plantInActs(kind: PlantedKind, acts: readonly Act[], spec: ConversationSpec, rng: Random): Act[] | null {
  const changes = spec.intents.flatMap((intent, index) => (changesData(intent) ? [index] : []));
  const changeAt = (intent: number) => acts.findIndex((a) => a.act === 'call' && a.role === 'change' && a.intent === intent);
  const isLookup = (a: Act) => a.act === 'call' && a.role === 'lookup';
  const isRetryTalk = (a: Act) => (a.act === 'say' || a.act === 'user') && a.role === 'retry-talk';
  switch (kind) {
    case 'against_data':
    case 'other_entity':
      return [...acts];
    case 'no_auth':
      return acts.filter((a) => !isLookup(a) && !isRetryTalk(a));
    case 'auth_after_change': {
      if (changes.length === 0) return null;
      const lookups = acts.filter(isLookup);
      const rest = acts.filter((a) => !isLookup(a) && !isRetryTalk(a));
      const first = rest.findIndex((a) => a.act === 'call' && a.role === 'change');
      return [...rest.slice(0, first + 1), ...lookups, ...rest.slice(first + 1)];
    }
    case 'empty_lookup': {
      const lookups = acts.filter(isLookup);
      const first = lookups[0];
      if (first === undefined || first.act !== 'call') return null;
      if (lookups.length > 1) return acts.filter((a) => !isRetryTalk(a) && !(isLookup(a) && a !== first));
      const via = first.tool === 'find_user_id_by_email' ? 'email' : 'name_zip';
      return acts.map((a) => (a === first ? { ...first, args: detailsOf(spec.customer, via, true) } : a));
    }
    case 'unread_change': {
      const orderChanges = changes.filter((index) => isChange(spec.intents[index]!));
      if (orderChanges.length === 0) return null;
      const index = rng.pick(orderChanges);
      const orderId = (spec.intents[index] as ChangeIntent).target.order_id;
      const change = changeAt(index);
      const kept: Act[] = [];
      let dropping = false;
      for (const [i, a] of acts.entries()) {
        const read = i < change && a.act === 'call' && a.tool === 'get_order_details' && a.args.order_id === orderId;
        if (read) dropping = true;
        else if (!(dropping && a.act === 'say' && a.role === 'read')) {
          dropping = false;
          kept.push(a);
        }
      }
      return kept;
    }
    case 'no_confirmation': {
      if (changes.length === 0) return null;
      const index = rng.pick(changes);
      const mine = (a: Act): a is Extract<Act, { act: 'say' | 'user' }> => (a.act === 'say' || a.act === 'user') && a.intent === index;
      if (rng.next() < 0.5) return acts.filter((a) => !(mine(a) && (a.role === 'ask' || a.role === 'yes')));
      return acts.map((a) =>
        mine(a) && a.role === 'yes' ? { act: 'user', text: 'Hmm, wait. Will that cost me anything?', intent: index } : a,
      );
    }
    case 'unknown_retry': {
      if (changes.length === 0) return null;
      const index = rng.pick(changes);
      const at = changeAt(index);
      const call = acts[at]!;
      if (call.act !== 'call') return null;
      return [
        ...acts.slice(0, at),
        { ...call, lost: true },
        {
          act: 'say',
          text: 'The system did not confirm the change in time: it may or may not have gone through. Shall I try again?',
          role: 'ask',
          intent: index,
        },
        { act: 'user', text: 'Yes, please try again.', role: 'yes', intent: index },
        call,
        ...acts.slice(at + 1),
      ];
    }
    case 'wrong_step': {
      if (changes.length === 0) return null;
      const index = rng.pick(changes);
      const at = changeAt(index);
      const call = acts[at]!;
      if (call.act !== 'call') return null;
      const entered = acts.findLastIndex((a, i) => i < at && a.act === 'move');
      const move = acts[entered];
      const before = acts.findLastIndex((a, i) => i < entered && a.act === 'move');
      const previous = acts[before];
      if (move?.act !== 'move' || move.node !== call.node || previous?.act !== 'move') return null;
      return [...acts.slice(0, entered), ...acts.slice(entered + 1, at), { ...call, node: previous.node }, move, ...acts.slice(at + 1)];
    }
  }
}
