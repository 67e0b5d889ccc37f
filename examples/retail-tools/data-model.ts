/**
 * The retail domain's records, as zod schemas (validation of the database file, and the tools' output schemas)
 * and as the types the tools work on.
 *
 * The shapes follow τ²-bench's retail domain, so an agent that knows that benchmark reads them without surprise:
 * users with a name, a default address, payment methods keyed by id and order ids; products with variants
 * (items) keyed by item id; orders with items, a status, fulfilments and a payment history.
 *
 * In memory, everything an agent names by id is a `Map` (users, orders, products, a product's variants, a user's
 * payment methods): an id is data, never a property name (`__proto__` is just an unknown order). The JSON views
 * (`userView`, `productView`) turn them back into the τ²-style objects the tools answer with.
 */
import { z } from 'zod';

export const ORDER_STATUSES = [
  'pending',
  'pending (item modified)',
  'processed',
  'delivered',
  'cancelled',
  'exchange requested',
  'return requested',
] as const;
export const CANCEL_REASONS = ['no longer needed', 'ordered by mistake'] as const;

export const AddressSchema = z.object({
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  zip: z.string(),
});

const CreditCardSchema = z.object({
  source: z.literal('credit_card'),
  id: z.string(),
  brand: z.string(),
  last_four: z.string(),
});
const PaypalSchema = z.object({ source: z.literal('paypal'), id: z.string() });
const GiftCardSchema = z.object({ source: z.literal('gift_card'), id: z.string(), balance: z.number() });
export const PaymentMethodSchema = z.discriminatedUnion('source', [CreditCardSchema, PaypalSchema, GiftCardSchema]);

export const UserViewSchema = z.object({
  user_id: z.string(),
  name: z.object({ first_name: z.string(), last_name: z.string() }),
  address: AddressSchema,
  email: z.string(),
  payment_methods: z.record(z.string(), PaymentMethodSchema).describe('The saved payment methods, by id'),
  orders: z.array(z.string()).describe("The ids of the user's orders"),
});

export const VariantSchema = z.object({
  item_id: z.string(),
  options: z.record(z.string(), z.string()),
  available: z.boolean(),
  price: z.number(),
});

export const ProductViewSchema = z.object({
  name: z.string(),
  product_id: z.string(),
  variants: z.record(z.string(), VariantSchema).describe("The product's items (variants), by item id"),
});

export const OrderItemSchema = z.object({
  name: z.string(),
  product_id: z.string(),
  item_id: z.string(),
  price: z.number(),
  options: z.record(z.string(), z.string()),
});

export const OrderSchema = z.object({
  order_id: z.string(),
  user_id: z.string(),
  address: AddressSchema,
  items: z.array(OrderItemSchema),
  status: z.enum(ORDER_STATUSES),
  fulfillments: z.array(z.object({ tracking_id: z.array(z.string()), item_ids: z.array(z.string()) })),
  payment_history: z.array(
    z.object({ transaction_type: z.enum(['payment', 'refund']), amount: z.number(), payment_method_id: z.string() }),
  ),
  cancel_reason: z.enum(CANCEL_REASONS).optional(),
  exchange_items: z.array(z.string()).optional(),
  exchange_new_items: z.array(z.string()).optional(),
  exchange_payment_method_id: z.string().optional(),
  exchange_price_difference: z.number().optional(),
  return_items: z.array(z.string()).optional(),
  return_payment_method_id: z.string().optional(),
});

/** The database file: three objects keyed by id, as τ²-bench lays out its own. */
export const DatabaseFileSchema = z.object({
  products: z.record(z.string(), ProductViewSchema),
  users: z.record(z.string(), UserViewSchema),
  orders: z.record(z.string(), OrderSchema),
});

export type Address = z.infer<typeof AddressSchema>;
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;
export type Variant = z.infer<typeof VariantSchema>;
export type Order = z.infer<typeof OrderSchema>;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type UserView = z.infer<typeof UserViewSchema>;
export type ProductView = z.infer<typeof ProductViewSchema>;

export interface User extends Omit<UserView, 'payment_methods'> {
  readonly payment_methods: Map<string, PaymentMethod>;
}

export interface Product extends Omit<ProductView, 'variants'> {
  readonly variants: Map<string, Variant>;
}

/** Everything the store holds; the tools read it and change a draft of it. */
export interface RetailData {
  readonly products: Map<string, Product>;
  readonly users: Map<string, User>;
  readonly orders: Map<string, Order>;
}

export function userView(user: User): UserView {
  return { ...user, payment_methods: Object.fromEntries(user.payment_methods) };
}

export function productView(product: Product): ProductView {
  return { ...product, variants: Object.fromEntries(product.variants) };
}
