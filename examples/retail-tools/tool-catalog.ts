/**
 * The retail tools as plain data: name, description, input and output schemas (zod), annotations, and what each
 * does to the data. Names and argument names are τ²-bench's retail domain's; the descriptions are ours.
 *
 * A `read` tool runs on the store's current state; a `write` tool runs on a draft that becomes the state only if it
 * succeeds (`RetailStore.change`). `get_store_hours` is the switchable extra tool of the list_changed fault: it is
 * in the catalog but offered only while switched on (`retail-server.ts`).
 */
import { z } from 'zod';
import { calculate, MAX_EXPRESSION_LENGTH } from './calculate.js';
import { AddressSchema, OrderSchema, ProductViewSchema, type RetailData, UserViewSchema } from './data-model.js';
import {
  findUserIdByEmail,
  findUserIdByNameZip,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
} from './lookups.js';
import {
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
} from './order-changes.js';
import { type Outcome, ok } from './outcome.js';

export interface RetailTool {
  readonly name: string;
  readonly description: string;
  readonly kind: 'read' | 'write';
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  readonly run: (data: RetailData, args: any) => Outcome<Record<string, unknown>>;
}

export const STORE_HOURS_TOOL = 'get_store_hours';

const orderId = z.string().describe('The order id, such as "#W1234567" (with the leading "#")');
const userId = z.string().describe('The user id, such as "sophia_martin_4832"');
const itemIds = (what: string) =>
  z.array(z.string()).describe(`${what}, each such as "1234567890"; an item listed twice stands for two units`);
const paymentMethodId = (what: string) =>
  z.string().describe(`${what}, such as "credit_card_1234567", "paypal_1234567" or "gift_card_1234567" (see get_user_details)`);
const addressFields = {
  address1: z.string().describe('First line, such as "123 Main St"'),
  address2: z.string().describe('Second line, such as "Apt 1", or ""'),
  city: z.string().describe('City, such as "Springfield"'),
  state: z.string().describe('State or province, such as "IL"'),
  country: z.string().describe('Country, such as "USA"'),
  zip: z.string().describe('Zip or postal code, such as "62704"'),
};
const UserIdAnswer = z.object({ user_id: z.string() });
const confirmFirst = 'Explain the details to the user and get an explicit "yes" before calling.';

function addressOf(args: z.infer<z.ZodObject<typeof addressFields>>) {
  return AddressSchema.parse(args);
}

export const RETAIL_TOOLS: readonly RetailTool[] = [
  {
    name: 'find_user_id_by_email',
    description: 'Find a user id by email address. The first way to authenticate a user.',
    kind: 'read',
    inputSchema: z.object({ email: z.string().describe('The email address, such as "someone@example.com"') }).strict(),
    outputSchema: UserIdAnswer,
    run: (data, args) => findUserIdByEmail(data, args.email),
  },
  {
    name: 'find_user_id_by_name_zip',
    description: 'Find a user id by first name, last name and zip code. Use it when the user cannot give or does not remember their email.',
    kind: 'read',
    inputSchema: z
      .object({
        first_name: z.string().describe('First name, such as "John"'),
        last_name: z.string().describe('Last name, such as "Doe"'),
        zip: z.string().describe('Zip code, such as "12345"'),
      })
      .strict(),
    outputSchema: UserIdAnswer,
    run: (data, args) => findUserIdByNameZip(data, args.first_name, args.last_name, args.zip),
  },
  {
    name: 'get_user_details',
    description: "Read a user's profile: name, email, default address, saved payment methods (with gift card balances) and order ids.",
    kind: 'read',
    inputSchema: z.object({ user_id: userId }).strict(),
    outputSchema: UserViewSchema,
    run: (data, args) => getUserDetails(data, args.user_id),
  },
  {
    name: 'get_order_details',
    description: 'Read an order: its status, items (with item ids, options and prices), shipping address, fulfilments and payments.',
    kind: 'read',
    inputSchema: z.object({ order_id: orderId }).strict(),
    outputSchema: OrderSchema,
    run: (data, args) => getOrderDetails(data, args.order_id),
  },
  {
    name: 'get_product_details',
    description: "Read a product's items (variants): their options, prices and availability. Takes a product id, not an item id.",
    kind: 'read',
    inputSchema: z.object({ product_id: z.string().describe('The product id, such as "6194517832" (list_all_product_types)') }).strict(),
    outputSchema: ProductViewSchema,
    run: (data, args) => getProductDetails(data, args.product_id),
  },
  {
    name: 'list_all_product_types',
    description: 'List every product type of the store: product names and their product ids, sorted by name.',
    kind: 'read',
    inputSchema: z.object({}).strict(),
    outputSchema: z.object({ product_types: z.record(z.string(), z.string()).describe('Product name → product id') }),
    run: (data) => ok(listAllProductTypes(data)),
  },
  {
    name: 'cancel_pending_order',
    description: `Cancel a pending order, refunding its payments (a gift card at once, other methods in 5–7 business days). The reason must be "no longer needed" or "ordered by mistake". ${confirmFirst}`,
    kind: 'write',
    inputSchema: z.object({ order_id: orderId, reason: z.string().describe('"no longer needed" or "ordered by mistake"') }).strict(),
    outputSchema: OrderSchema,
    run: (data, args) => cancelPendingOrder(data, args.order_id, args.reason),
  },
  {
    name: 'modify_pending_order_address',
    description: `Change the shipping address of a pending order. ${confirmFirst}`,
    kind: 'write',
    inputSchema: z.object({ order_id: orderId, ...addressFields }).strict(),
    outputSchema: OrderSchema,
    run: (data, args) => modifyPendingOrderAddress(data, args.order_id, addressOf(args)),
  },
  {
    name: 'modify_pending_order_items',
    description: `Swap items of a pending order for other variants of the same products, settling the price difference with a payment method. Possible once per order: afterwards the order is "pending (item modified)" and can be neither modified nor cancelled, so collect every change first. ${confirmFirst}`,
    kind: 'write',
    inputSchema: z
      .object({
        order_id: orderId,
        item_ids: itemIds('The item ids to replace'),
        new_item_ids: itemIds('The new item ids, one for each item id, in the same order and of the same product'),
        payment_method_id: paymentMethodId('The payment method that pays or receives the price difference'),
      })
      .strict(),
    outputSchema: OrderSchema,
    run: (data, args) => modifyPendingOrderItems(data, args.order_id, args.item_ids, args.new_item_ids, args.payment_method_id),
  },
  {
    name: 'modify_pending_order_payment',
    description: `Pay a pending order with another of the user's saved payment methods; the old one is refunded. A gift card must cover the whole order total. ${confirmFirst}`,
    kind: 'write',
    inputSchema: z.object({ order_id: orderId, payment_method_id: paymentMethodId('The new payment method') }).strict(),
    outputSchema: OrderSchema,
    run: (data, args) => modifyPendingOrderPayment(data, args.order_id, args.payment_method_id),
  },
  {
    name: 'modify_user_address',
    description: `Change a user's default address. Existing orders keep their shipping addresses. ${confirmFirst}`,
    kind: 'write',
    inputSchema: z.object({ user_id: userId, ...addressFields }).strict(),
    outputSchema: UserViewSchema,
    run: (data, args) => modifyUserAddress(data, args.user_id, addressOf(args)),
  },
  {
    name: 'return_delivered_order_items',
    description: `Request the return of items of a delivered order; the order becomes "return requested" and the user gets an email on how to send them back. The refund goes to the original payment method or to a gift card of the user. ${confirmFirst}`,
    kind: 'write',
    inputSchema: z
      .object({
        order_id: orderId,
        item_ids: itemIds('The item ids to return'),
        payment_method_id: paymentMethodId('The payment method that receives the refund'),
      })
      .strict(),
    outputSchema: OrderSchema,
    run: (data, args) => returnDeliveredOrderItems(data, args.order_id, args.item_ids, args.payment_method_id),
  },
  {
    name: 'exchange_delivered_order_items',
    description: `Request the exchange of items of a delivered order for other variants of the same products; the order becomes "exchange requested". Possible once per order: collect every item first. ${confirmFirst}`,
    kind: 'write',
    inputSchema: z
      .object({
        order_id: orderId,
        item_ids: itemIds('The item ids to exchange'),
        new_item_ids: itemIds('The new item ids, one for each item id, in the same order and of the same product'),
        payment_method_id: paymentMethodId('The payment method that pays or receives the price difference'),
      })
      .strict(),
    outputSchema: OrderSchema,
    run: (data, args) => exchangeDeliveredOrderItems(data, args.order_id, args.item_ids, args.new_item_ids, args.payment_method_id),
  },
  {
    name: 'calculate',
    description:
      'Compute an arithmetic expression of numbers, + - * /, and parentheses, such as "(449.99 - 849.99) * 2"; the result is rounded to 2 decimals.',
    kind: 'read',
    inputSchema: z.object({ expression: z.string().describe(`The expression, at most ${MAX_EXPRESSION_LENGTH} characters`) }).strict(),
    outputSchema: z.object({ result: z.number() }),
    run: (_data, args) => {
      const value = calculate(args.expression);
      return value.ok ? ok({ result: value.value }) : value;
    },
  },
  {
    name: 'transfer_to_human_agents',
    description:
      "Transfer the user to a human agent, with a summary of the user's issue. Only when the user asks for a human, or the request cannot be handled with the policy and the tools.",
    kind: 'read',
    inputSchema: z.object({ summary: z.string().describe('What the user wants and what was already done') }).strict(),
    outputSchema: z.object({ result: z.string() }),
    run: () => ok({ result: 'Transfer successful' }),
  },
  {
    name: STORE_HOURS_TOOL,
    description: "The store's opening hours (Eastern Time, 24-hour clock).",
    kind: 'read',
    inputSchema: z.object({}).strict(),
    outputSchema: z.object({ timezone: z.string(), hours: z.record(z.string(), z.string()) }),
    run: () =>
      ok({
        timezone: 'America/New_York',
        hours: {
          monday: '09:00-20:00',
          tuesday: '09:00-20:00',
          wednesday: '09:00-20:00',
          thursday: '09:00-20:00',
          friday: '09:00-20:00',
          saturday: '10:00-18:00',
          sunday: 'closed',
        },
      }),
  },
];
