/**
 * The plan of a clean conversation, drawn from a seeded random source: a customer of the seed, how they are
 * authenticated (by email, by name and zip, or a lookup that finds no one retried with the other details), and one
 * to three intents whose arguments fit the data (a pending order to cancel, a delivered one to return…), each order
 * changed by one intent only. Besides independent intents, the patterns real agents show: **read first, decide
 * after** (the order read while answering a question, then changed without reading it again) and **two changes of
 * one order** (its address, then its payment method, with no read between).
 */
import type { Address, Order, RetailData } from '../../../examples/retail-tools/data-model.js';
import type { Random } from '../../../fuzz/random.js';
import { type ChangeIntent, type Intent, isChange } from './intents.js';
import { type Customer, NEW_ADDRESSES, ordersWithStatus, paidWith, swapsOf } from './seed-facts.js';

export interface Auth {
  readonly via: 'email' | 'name_zip';
  /** The first lookup uses details that find no one (a typo), and the agent retries with the other way. */
  readonly failFirst?: true;
}

export type Pattern = 'intents' | 'read-first' | 'two-changes';

export interface ConversationSpec {
  readonly customer: Customer;
  readonly auth: Auth;
  readonly intents: readonly Intent[];
  readonly pattern: Pattern;
  /** Seeds the phrasing (which "yes" the user says), so a planted copy says what its clean pair says. */
  readonly voice: number;
}

const REASONS = ['no longer needed', 'ordered by mistake'];
const TOPICS = ['a damaged delivery', 'deleting my account', 'a complaint about a courier'];

export function planConversation(rng: Random, data: RetailData, customers: readonly Customer[]): ConversationSpec {
  const withOrders = customers.filter((c) => c.orders.length > 0);
  const customer = rng.next() < 0.9 ? rng.pick(withOrders) : rng.pick(customers);
  const roll = rng.next();
  const auth: Auth =
    roll < 0.15 ? { via: rng.pick(['email', 'name_zip'] as const), failFirst: true } : { via: roll < 0.75 ? 'email' : 'name_zip' };
  const voice = Math.floor(rng.next() * 2 ** 31);
  const pattern = rng.next();
  if (pattern < 0.2) {
    const intents = readFirst(rng, data, customer);
    if (intents !== null) return { customer, auth, intents, pattern: 'read-first', voice };
  } else if (pattern < 0.35) {
    const intents = twoChanges(rng, customer);
    if (intents !== null) return { customer, auth, intents, pattern: 'two-changes', voice };
  }
  return { customer, auth, intents: independent(rng, data, customer), pattern: 'intents', voice };
}

/** One to three intents on distinct orders; a transfer, if any, last. */
function independent(rng: Random, data: RetailData, customer: Customer): Intent[] {
  const count = rng.pick([1, 1, 1, 2, 2, 3]);
  const intents: Intent[] = [];
  const used = new Set<string>();
  for (let tries = 0; intents.length < count && tries < 20; tries++) {
    const intent = drawIntent(rng, data, customer, used, intents);
    if (intent === null) continue;
    intents.push(intent);
    if (isChange(intent)) used.add(intent.order.order_id);
    if (intent.kind === 'transfer') break;
  }
  if (intents.length === 0) intents.push({ kind: 'info', about: { account: true } });
  return intents;
}

function drawIntent(
  rng: Random,
  data: RetailData,
  customer: Customer,
  used: ReadonlySet<string>,
  before: readonly Intent[],
): Intent | null {
  const free = (...statuses: string[]) => ordersWithStatus(customer, ...statuses).filter((o) => !used.has(o.order_id));
  const kind = rng.pick([
    'cancel',
    'cancel',
    'modify_address',
    'modify_payment',
    'modify_items',
    'return',
    'return',
    'exchange',
    'exchange',
    'user_address',
    'info',
    'transfer',
    'denied',
  ] as const);
  switch (kind) {
    case 'cancel':
    case 'modify_address':
    case 'modify_payment':
    case 'modify_items': {
      const pending = free('pending');
      return pending.length === 0 ? null : changeOn(rng, data, customer, kind, rng.pick(pending));
    }
    case 'return':
    case 'exchange': {
      const delivered = free('delivered');
      return delivered.length === 0 ? null : changeOn(rng, data, customer, kind, rng.pick(delivered));
    }
    case 'denied': {
      const notPending = free('delivered', 'processed', 'pending (item modified)', 'cancelled');
      const notDelivered = free('pending', 'processed', 'return requested', 'exchange requested');
      const denyCancel = rng.next() < 0.5;
      const orders = denyCancel ? notPending : notDelivered;
      if (orders.length === 0) return null;
      const order = rng.pick(orders);
      return { kind: denyCancel ? 'cancel' : 'return', order, target: order, readAtCheck: true, denied: true };
    }
    case 'user_address':
      return before.some((i) => i.kind === 'user_address') ? null : { kind: 'user_address', address: newAddress(rng, customer.address) };
    case 'info': {
      const topic = rng.next();
      if (topic < 0.5 && customer.orders.length > 0) return { kind: 'info', about: { order: rng.pick(customer.orders) } };
      if (topic < 0.8) {
        const product = rng.pick([...data.products.values()]);
        return { kind: 'info', about: { productId: product.product_id, productName: product.name } };
      }
      return { kind: 'info', about: { account: true } };
    }
    case 'transfer':
      return { kind: 'transfer', topic: rng.pick(TOPICS) };
  }
}

/**
 * A change of `order` by `kind` with arguments that fit it (null when none do): the intent's target is the order
 * itself. Planting reuses it to aim a change at another order.
 */
export function changeOn(rng: Random, data: RetailData, customer: Customer, kind: ChangeIntent['kind'], order: Order): ChangeIntent | null {
  const base = { kind, order, target: order, readAtCheck: true } as const;
  const { methodId: paidBy, total } = paidWith(order);
  const method = (id: string) => customer.paymentMethods.find((m) => m.id === id);
  const covers = (id: string, amount: number) => {
    const m = method(id);
    return m !== undefined && (m.source !== 'gift_card' || m.balance >= amount);
  };
  switch (kind) {
    case 'cancel':
      return { ...base, reason: rng.pick(REASONS) };
    case 'modify_address':
      return { ...base, address: newAddress(rng, order.address) };
    case 'modify_payment': {
      if (order.payment_history.length !== 1) return null;
      const others = customer.paymentMethods.filter((m) => m.id !== paidBy);
      const fitting = others.filter((m) => covers(m.id, total));
      if (fitting.length > 0) return { ...base, methodId: rng.pick(fitting).id };
      return others.length === 0 ? null : { ...base, methodId: rng.pick(others).id, denied: true };
    }
    case 'modify_items':
    case 'exchange': {
      const swaps = swapsOf(data, order);
      if (swaps.length === 0) return null;
      const swap = rng.pick(swaps);
      const difference = swap.to.price - swap.item.price;
      const methodId = covers(paidBy, difference) ? paidBy : customer.paymentMethods.find((m) => m.source !== 'gift_card')?.id;
      return methodId === undefined ? null : { ...base, swaps: [swap], methodId };
    }
    case 'return': {
      const items = rng.next() < 0.5 ? order.items : [rng.pick(order.items)];
      const giftCards = customer.paymentMethods.filter((m) => m.source === 'gift_card').map((m) => m.id);
      const methodId = rng.pick([paidBy, paidBy, ...giftCards]);
      return { ...base, itemIds: [...new Set(items.map((item) => item.item_id))], methodId };
    }
  }
}

/** A question about an order (read at INFO), then a change of it decided after, without reading it again. */
function readFirst(rng: Random, data: RetailData, customer: Customer): Intent[] | null {
  const candidates = [
    ...ordersWithStatus(customer, 'pending').flatMap((order) =>
      (['cancel', 'modify_address', 'modify_payment', 'modify_items'] as const).map((kind) => ({ order, kind })),
    ),
    ...ordersWithStatus(customer, 'delivered').flatMap((order) => (['return', 'exchange'] as const).map((kind) => ({ order, kind }))),
  ];
  if (candidates.length === 0) return null;
  const { order, kind } = rng.pick(candidates);
  const change = changeOn(rng, data, customer, kind, order);
  if (change === null || change.denied === true) return null;
  return [
    { kind: 'info', about: { order } },
    { ...change, readAtCheck: false },
  ];
}

/** A pending order's shipping address changed, then its payment method, with no read between. */
function twoChanges(rng: Random, customer: Customer): Intent[] | null {
  const orders = ordersWithStatus(customer, 'pending').filter((o) => o.payment_history.length === 1);
  if (orders.length === 0) return null;
  const order = rng.pick(orders);
  const { methodId: paidBy, total } = paidWith(order);
  const methods = customer.paymentMethods.filter((m) => m.id !== paidBy && (m.source !== 'gift_card' || m.balance >= total));
  if (methods.length === 0) return null;
  return [
    { kind: 'modify_address', order, target: order, readAtCheck: true, address: newAddress(rng, order.address) },
    { kind: 'modify_payment', order, target: order, readAtCheck: false, methodId: rng.pick(methods).id },
  ];
}

function newAddress(rng: Random, current: Address): Address {
  return rng.pick(NEW_ADDRESSES.filter((address) => address.address1 !== current.address1));
}
