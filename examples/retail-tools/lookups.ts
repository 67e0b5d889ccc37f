/**
 * The read-only half of the retail domain: finding a user, reading a user, an order or a product, listing the
 * product types. Each answers the record, or a refusal that says what was not found and how to find the right id
 * (an agent that passes an item id as a product id, or drops the `#` of an order id, is told so).
 *
 * The `require*` helpers are shared with the changes (`order-changes.ts`), so both halves refuse alike.
 */
import {
  type Order,
  type Product,
  type ProductView,
  productView,
  type RetailData,
  type User,
  type UserView,
  userView,
} from './data-model.js';
import { type Outcome, ok, refuse } from './outcome.js';

export function findUserIdByEmail(data: RetailData, email: string): Outcome<{ user_id: string }> {
  const wanted = fold(email);
  for (const user of data.users.values()) if (fold(user.email) === wanted) return ok({ user_id: user.user_id });
  return refuse(
    `No user has the email ${JSON.stringify(email)}. Ask the user to check it, or find them by first name, last name and zip code.`,
  );
}

/** Names match whatever the case and accents ("Muller" finds "Müller"); the zip code must match exactly. */
export function findUserIdByNameZip(data: RetailData, firstName: string, lastName: string, zip: string): Outcome<{ user_id: string }> {
  const first = fold(firstName);
  const last = fold(lastName);
  for (const user of data.users.values()) {
    if (fold(user.name.first_name) === first && fold(user.name.last_name) === last && user.address.zip === zip.trim()) {
      return ok({ user_id: user.user_id });
    }
  }
  return refuse(
    `No user is named ${JSON.stringify(`${firstName} ${lastName}`)} with zip code ${JSON.stringify(zip)}. Ask the user to check them, or find them by email.`,
  );
}

export function getUserDetails(data: RetailData, userId: string): Outcome<UserView> {
  const user = requireUser(data, userId);
  return user.ok ? ok(userView(user.value)) : user;
}

export function getOrderDetails(data: RetailData, orderId: string): Outcome<Order> {
  return requireOrder(data, orderId);
}

export function getProductDetails(data: RetailData, productId: string): Outcome<ProductView> {
  const product = data.products.get(productId);
  if (product !== undefined) return ok(productView(product));
  const owner = productOfItem(data, productId);
  if (owner !== undefined) {
    return refuse(
      `${productId} is an item (a variant) of the product ${JSON.stringify(owner.name)}, not a product id: its product id is ${owner.product_id}.`,
    );
  }
  return refuse(`No product has the id ${JSON.stringify(productId)}. list_all_product_types gives every product's id.`);
}

/** Product names to product ids, sorted by name. */
export function listAllProductTypes(data: RetailData): { product_types: Record<string, string> } {
  const pairs = [...data.products.values()].map((product) => [product.name, product.product_id] as const);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { product_types: Object.fromEntries(pairs) };
}

export function requireUser(data: RetailData, userId: string): Outcome<User> {
  const user = data.users.get(userId);
  if (user !== undefined) return ok(user);
  return refuse(`No user has the id ${JSON.stringify(userId)}. Find the user id with find_user_id_by_email or find_user_id_by_name_zip.`);
}

export function requireOrder(data: RetailData, orderId: string): Outcome<Order> {
  const order = data.orders.get(orderId);
  if (order !== undefined) return ok(order);
  if (!orderId.startsWith('#') && data.orders.has(`#${orderId}`)) {
    return refuse(`No order has the id ${JSON.stringify(orderId)}. Order ids start with "#": did you mean "#${orderId}"?`);
  }
  return refuse(`No order has the id ${JSON.stringify(orderId)}. Order ids look like "#W1234567"; get_user_details lists a user's orders.`);
}

function productOfItem(data: RetailData, itemId: string): Product | undefined {
  for (const product of data.products.values()) if (product.variants.has(itemId)) return product;
  return undefined;
}

/** Case- and accent-insensitive form of a name or an email, for matching what a user says or spells. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}
