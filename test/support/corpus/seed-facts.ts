/**
 * What a conversation can be about, read from the retail seed database: each customer with their details, payment
 * methods and orders, and for each item the other variants of its product the store has available. Conversations
 * pick their arguments from here, so every call names data the server holds (or, planted, data that does not fit).
 */
import type { Address, Order, PaymentMethod, RetailData, Variant } from '../../../examples/retail-tools/data-model.js';

export interface Customer {
  readonly userId: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly zip: string;
  readonly address: Address;
  readonly paymentMethods: readonly PaymentMethod[];
  readonly orders: readonly Order[];
}

export interface Swap {
  readonly item: Order['items'][number];
  readonly to: Variant;
}

/** The seed's customers, in the database's order. */
export function customersOf(data: RetailData): Customer[] {
  return [...data.users.values()].map((user) => ({
    userId: user.user_id,
    email: user.email,
    firstName: user.name.first_name,
    lastName: user.name.last_name,
    zip: user.address.zip,
    address: user.address,
    paymentMethods: [...user.payment_methods.values()],
    orders: user.orders.flatMap((id) => {
      const order = data.orders.get(id);
      return order === undefined ? [] : [order];
    }),
  }));
}

export const ordersWithStatus = (customer: Customer, ...statuses: readonly string[]): Order[] =>
  customer.orders.filter((order) => statuses.includes(order.status));

/** Items of the order that could be swapped for another available variant of the same product. */
export function swapsOf(data: RetailData, order: Order): Swap[] {
  return order.items.flatMap((item) => {
    const product = data.products.get(item.product_id);
    const variants = [...(product?.variants.values() ?? [])].filter((v) => v.available && v.item_id !== item.item_id);
    return variants.map((to) => ({ item, to }));
  });
}

/** The amount the order was paid, net of refunds, and the method it was paid with (its first payment). */
export function paidWith(order: Order): { readonly methodId: string; readonly total: number } {
  const cents = order.payment_history.reduce((sum, p) => sum + Math.round(p.amount * 100) * (p.transaction_type === 'payment' ? 1 : -1), 0);
  return { methodId: order.payment_history[0]?.payment_method_id ?? '', total: cents / 100 };
}

/** A payment method as a person says it: "your visa ending 4512", "your PayPal", "your gift card ($75.00)". */
export function methodText(method: PaymentMethod | undefined): string {
  if (method === undefined) return 'the original payment method';
  if (method.source === 'credit_card') return `your ${method.brand} ending ${method.last_four}`;
  if (method.source === 'paypal') return 'your PayPal account';
  return `your gift card (balance $${method.balance.toFixed(2)})`;
}

export function addressText(address: Address): string {
  const second = address.address2 === '' ? '' : `, ${address.address2}`;
  return `${address.address1}${second}, ${address.city}, ${address.state} ${address.zip}, ${address.country}`;
}

export function itemsText(order: Order): string {
  return order.items.map((item) => `${item.name} (${Object.values(item.options).join(', ')})`).join(' and ');
}

/** Addresses a customer may move to: made up, none of them anyone's in the seed. */
export const NEW_ADDRESSES: readonly Address[] = [
  { address1: '88 Harbor Road', address2: '', city: 'Portland', state: 'ME', country: 'USA', zip: '04101' },
  { address1: '1420 Sunset Blvd', address2: 'Unit 7', city: 'Los Angeles', state: 'CA', country: 'USA', zip: '90026' },
  { address1: '9 Birch Lane', address2: 'Apt 3C', city: 'Madison', state: 'WI', country: 'USA', zip: '53703' },
  { address1: '301 Pine Street', address2: 'Floor 2', city: 'Seattle', state: 'WA', country: 'USA', zip: '98101' },
];
