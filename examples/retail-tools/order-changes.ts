/**
 * The changing half of the retail domain: cancel or modify a pending order, return or exchange items of a
 * delivered order, change a user's default address. Each runs on a draft of the data (`RetailStore.change`) and
 * either changes it and answers the changed record, or refuses with a message that names the rule and the valid
 * options, leaving the draft to be thrown away.
 *
 * The rules are τ²-bench's retail policy. Where τ²-bench's own tools are looser than its policy, this follows the
 * policy and the SOP's domain reference: a `pending (item modified)` order can no longer be changed at all (τ²'s
 * address and payment tools still accept one), an item cannot be "exchanged" for itself, and an empty item list
 * is refused. Money is counted in cents, so balances and differences never drift by a float's last digit.
 */
import {
  type Address,
  CANCEL_REASONS,
  type Order,
  type PaymentMethod,
  type RetailData,
  type User,
  type UserView,
  userView,
} from './data-model.js';
import { requireOrder, requireUser } from './lookups.js';
import { type Outcome, ok, refuse } from './outcome.js';

export function cancelPendingOrder(data: RetailData, orderId: string, reason: string): Outcome<Order> {
  const order = pendingOrder(data, orderId, 'cancelled');
  if (!order.ok) return order;
  if (!(CANCEL_REASONS as readonly string[]).includes(reason)) {
    return refuse(
      `The reason must be exactly ${CANCEL_REASONS.map((r) => JSON.stringify(r)).join(' or ')}, not ${JSON.stringify(reason)}.`,
    );
  }
  const target = order.value;
  const owner = requireUser(data, target.user_id);
  if (!owner.ok) return owner;
  // Refund what each method paid, net of earlier refunds; a gift card gets its money back at once.
  const net = new Map<string, number>();
  for (const entry of target.payment_history) {
    const cents = toCents(entry.amount) * (entry.transaction_type === 'payment' ? 1 : -1);
    net.set(entry.payment_method_id, (net.get(entry.payment_method_id) ?? 0) + cents);
  }
  for (const [methodId, cents] of net) {
    if (cents <= 0) continue;
    target.payment_history.push({ transaction_type: 'refund', amount: fromCents(cents), payment_method_id: methodId });
    const method = owner.value.payment_methods.get(methodId);
    if (method?.source === 'gift_card') method.balance = fromCents(toCents(method.balance) + cents);
  }
  target.status = 'cancelled';
  target.cancel_reason = reason as Order['cancel_reason'];
  return ok(target);
}

export function modifyPendingOrderAddress(data: RetailData, orderId: string, address: Address): Outcome<Order> {
  const order = pendingOrder(data, orderId, 'modified');
  if (!order.ok) return order;
  const complete = completeAddress(address);
  if (!complete.ok) return complete;
  order.value.address = complete.value;
  return ok(order.value);
}

export function modifyUserAddress(data: RetailData, userId: string, address: Address): Outcome<UserView> {
  const user = requireUser(data, userId);
  if (!user.ok) return user;
  const complete = completeAddress(address);
  if (!complete.ok) return complete;
  user.value.address = complete.value;
  return ok(userView(user.value));
}

export function modifyPendingOrderPayment(data: RetailData, orderId: string, paymentMethodId: string): Outcome<Order> {
  const order = pendingOrder(data, orderId, 'modified');
  if (!order.ok) return order;
  const target = order.value;
  const owner = requireUser(data, target.user_id);
  if (!owner.ok) return owner;
  const method = requirePaymentMethod(owner.value, paymentMethodId);
  if (!method.ok) return method;
  const [only, ...others] = target.payment_history;
  if (only === undefined || others.length > 0 || only.transaction_type !== 'payment') {
    return refuse(
      `Order ${target.order_id} has ${target.payment_history.length} payment transactions: its payment method can be changed only while it has exactly one payment.`,
    );
  }
  if (only.payment_method_id === paymentMethodId) return refuse(`Order ${target.order_id} is already paid with ${paymentMethodId}.`);
  const cents = toCents(only.amount);
  const short = giftCardShortfall(method.value, cents);
  if (short !== undefined) return refuse(short);
  target.payment_history.push(
    { transaction_type: 'payment', amount: only.amount, payment_method_id: paymentMethodId },
    { transaction_type: 'refund', amount: only.amount, payment_method_id: only.payment_method_id },
  );
  adjustGiftCard(method.value, -cents);
  const previous = owner.value.payment_methods.get(only.payment_method_id);
  if (previous !== undefined) adjustGiftCard(previous, cents);
  return ok(target);
}

export function modifyPendingOrderItems(
  data: RetailData,
  orderId: string,
  itemIds: readonly string[],
  newItemIds: readonly string[],
  paymentMethodId: string,
): Outcome<Order> {
  const order = pendingOrder(data, orderId, 'modified');
  if (!order.ok) return order;
  const target = order.value;
  const plan = planSwaps(data, target, itemIds, newItemIds);
  if (!plan.ok) return plan;
  const owner = requireUser(data, target.user_id);
  if (!owner.ok) return owner;
  const method = requirePaymentMethod(owner.value, paymentMethodId);
  if (!method.ok) return method;
  const difference = plan.value.reduce((sum, swap) => sum + swap.differenceCents, 0);
  const short = giftCardShortfall(method.value, difference);
  if (short !== undefined) return refuse(short);
  if (difference !== 0) {
    target.payment_history.push({
      transaction_type: difference > 0 ? 'payment' : 'refund',
      amount: fromCents(Math.abs(difference)),
      payment_method_id: paymentMethodId,
    });
    adjustGiftCard(method.value, -difference);
  }
  for (const swap of plan.value) {
    const item = target.items[swap.index];
    if (item === undefined) continue;
    item.item_id = swap.newItemId;
    item.price = swap.newPrice;
    item.options = { ...swap.newOptions };
  }
  target.status = 'pending (item modified)';
  return ok(target);
}

export function returnDeliveredOrderItems(
  data: RetailData,
  orderId: string,
  itemIds: readonly string[],
  paymentMethodId: string,
): Outcome<Order> {
  const order = deliveredOrder(data, orderId, 'returned');
  if (!order.ok) return order;
  const target = order.value;
  const owner = requireUser(data, target.user_id);
  if (!owner.ok) return owner;
  const method = requirePaymentMethod(owner.value, paymentMethodId);
  if (!method.ok) return method;
  const original = target.payment_history[0]?.payment_method_id;
  if (method.value.source !== 'gift_card' && paymentMethodId !== original) {
    const giftCards = [...owner.value.payment_methods.values()].filter((m) => m.source === 'gift_card').map((m) => m.id);
    const options = [...new Set([original, ...giftCards])].filter((id) => id !== undefined).join(', ');
    return refuse(
      `A refund goes to the original payment method or to one of the user's gift cards (${options}), not to ${paymentMethodId}.`,
    );
  }
  const found = locateItems(target, itemIds);
  if (!found.ok) return found;
  target.status = 'return requested';
  target.return_items = [...itemIds].sort();
  target.return_payment_method_id = paymentMethodId;
  return ok(target);
}

export function exchangeDeliveredOrderItems(
  data: RetailData,
  orderId: string,
  itemIds: readonly string[],
  newItemIds: readonly string[],
  paymentMethodId: string,
): Outcome<Order> {
  const order = deliveredOrder(data, orderId, 'exchanged');
  if (!order.ok) return order;
  const target = order.value;
  const plan = planSwaps(data, target, itemIds, newItemIds);
  if (!plan.ok) return plan;
  const owner = requireUser(data, target.user_id);
  if (!owner.ok) return owner;
  const method = requirePaymentMethod(owner.value, paymentMethodId);
  if (!method.ok) return method;
  const difference = plan.value.reduce((sum, swap) => sum + swap.differenceCents, 0);
  const short = giftCardShortfall(method.value, difference);
  if (short !== undefined) return refuse(short);
  // Nothing is paid or refunded yet: that happens when the old items come back.
  target.status = 'exchange requested';
  target.exchange_items = [...itemIds];
  target.exchange_new_items = [...newItemIds];
  target.exchange_payment_method_id = paymentMethodId;
  target.exchange_price_difference = fromCents(difference);
  return ok(target);
}

function pendingOrder(data: RetailData, orderId: string, verb: 'cancelled' | 'modified'): Outcome<Order> {
  const order = requireOrder(data, orderId);
  if (!order.ok || order.value.status === 'pending') return order;
  const { order_id, status } = order.value;
  if (status === 'pending (item modified)') {
    return refuse(
      `Order ${order_id} is "${status}": its items were already modified once, and after that it can be neither modified nor cancelled.`,
    );
  }
  return refuse(`Order ${order_id} is "${status}": only pending orders can be ${verb}.`);
}

function deliveredOrder(data: RetailData, orderId: string, verb: 'returned' | 'exchanged'): Outcome<Order> {
  const order = requireOrder(data, orderId);
  if (!order.ok || order.value.status === 'delivered') return order;
  return refuse(`Order ${order.value.order_id} is "${order.value.status}": only delivered orders can have items ${verb}.`);
}

function completeAddress(address: Address): Outcome<Address> {
  const missing = (['address1', 'city', 'state', 'country', 'zip'] as const).filter((field) => address[field].trim() === '');
  if (missing.length > 0) return refuse(`The address is incomplete: ${missing.join(', ')} must not be empty (only address2 may be).`);
  return ok({ ...address });
}

function requirePaymentMethod(user: User, paymentMethodId: string): Outcome<PaymentMethod> {
  const method = user.payment_methods.get(paymentMethodId);
  if (method !== undefined) return ok(method);
  const saved = [...user.payment_methods.keys()].join(', ');
  return refuse(`${JSON.stringify(paymentMethodId)} is not a payment method of ${user.user_id}; the saved ones are: ${saved}.`);
}

/** The refusal when a gift card cannot pay `cents` (a charge; a refund or nothing to pay always fits). */
function giftCardShortfall(method: PaymentMethod, cents: number): string | undefined {
  if (method.source !== 'gift_card' || toCents(method.balance) >= cents) return undefined;
  return `Gift card ${method.id} has a balance of ${fromCents(toCents(method.balance)).toFixed(2)}, less than the ${fromCents(cents).toFixed(2)} to pay: choose another payment method.`;
}

function adjustGiftCard(method: PaymentMethod, cents: number): void {
  if (method.source === 'gift_card') method.balance = fromCents(toCents(method.balance) + cents);
}

/** For each requested item id, the index of a distinct order line holding it (an id listed twice needs two lines). */
function locateItems(order: Order, itemIds: readonly string[]): Outcome<number[]> {
  if (itemIds.length === 0) return refuse(`No item ids given: name at least one item of order ${order.order_id}.`);
  const used = new Set<number>();
  const indices: number[] = [];
  for (const itemId of itemIds) {
    const index = order.items.findIndex((item, i) => item.item_id === itemId && !used.has(i));
    if (index === -1) {
      const wanted = itemIds.filter((id) => id === itemId).length;
      const held = order.items.filter((item) => item.item_id === itemId).length;
      const present = order.items.map((item) => `${item.item_id} (${item.name})`).join(', ');
      return refuse(
        held === 0
          ? `Item ${itemId} is not in order ${order.order_id}; its items are: ${present}.`
          : `Item ${itemId} is listed ${wanted} times, but order ${order.order_id} holds it ${held} time${held === 1 ? '' : 's'}.`,
      );
    }
    used.add(index);
    indices.push(index);
  }
  return ok(indices);
}

interface Swap {
  readonly index: number;
  readonly newItemId: string;
  readonly newPrice: number;
  readonly newOptions: Record<string, string>;
  readonly differenceCents: number;
}

/** Checks each item → new item pair (same product, another variant, available) and prices the difference. */
function planSwaps(data: RetailData, order: Order, itemIds: readonly string[], newItemIds: readonly string[]): Outcome<Swap[]> {
  if (itemIds.length !== newItemIds.length) {
    return refuse(
      `item_ids has ${itemIds.length} entries and new_item_ids ${newItemIds.length}: give one new item for each item, in the same order.`,
    );
  }
  const found = locateItems(order, itemIds);
  if (!found.ok) return found;
  const swaps: Swap[] = [];
  for (const [position, index] of found.value.entries()) {
    const item = order.items[index];
    const newItemId = newItemIds[position];
    if (item === undefined || newItemId === undefined) continue;
    if (newItemId === item.item_id) return refuse(`New item ${newItemId} is the item it would replace: choose a different variant.`);
    const product = data.products.get(item.product_id);
    const variant = product?.variants.get(newItemId);
    if (product === undefined || variant === undefined) {
      const variants = product === undefined ? '' : `; its items are: ${[...product.variants.keys()].join(', ')}`;
      return refuse(
        `Item ${newItemId} is not a variant of ${item.name} (product ${item.product_id}), the product of item ${item.item_id}${variants}.`,
      );
    }
    if (!variant.available) return refuse(`Item ${newItemId} (${item.name}, ${describeOptions(variant.options)}) is not available.`);
    swaps.push({
      index,
      newItemId,
      newPrice: variant.price,
      newOptions: variant.options,
      differenceCents: toCents(variant.price) - toCents(item.price),
    });
  }
  return ok(swaps);
}

function describeOptions(options: Record<string, string>): string {
  return Object.entries(options)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
}

function toCents(amount: number): number {
  return Math.round(amount * 100);
}

function fromCents(cents: number): number {
  return cents / 100;
}
