/**
 * The retail database: the JSON file format (load, validate, serialise) and the store the tools use.
 *
 * A store is in memory, loaded from the committed seed, or backed by a file (`--db FILE`): then every change is
 * written to the file atomically (a temporary file in the same folder, fsynced, renamed over the old one) before
 * the tool answers, so a test reading the file sees exactly what the server has acknowledged, and a process that
 * dies after writing leaves a whole file, old or new, never half of one.
 *
 * A change runs on a draft (a deep copy); only a change that succeeds and is saved becomes the store's state, so a
 * refused call, or one whose save fails, changes nothing.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { DatabaseFileSchema, type Order, type Product, productView, type RetailData, type User, userView } from './data-model.js';
import { type Outcome, ok, refuse } from './outcome.js';

export interface RetailStore {
  /** The current state. Readers must not change it: changes go through `change`. */
  current(): RetailData;
  /** Runs `apply` on a draft; if it succeeds, saves the draft (when file-backed) and makes it current. */
  change<T>(apply: (draft: RetailData) => Outcome<T>): Outcome<T>;
  /** The backing file, if any. */
  readonly file: string | undefined;
}

/** Parses and checks a database file's text; every problem is named with its place in the file. */
export function parseDatabase(text: string, source: string): Outcome<RetailData> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return refuse(`${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = DatabaseFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(`${source}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  const file = parsed.data;
  const rawFile = raw as Record<'products' | 'users' | 'orders', Record<string, Record<string, unknown>>>;
  const problems: string[] = [];
  const products = new Map<string, Product>();
  for (const [id, product] of keyedEntries(rawFile.products, file.products, (p) => p.product_id, 'products', problems)) {
    const variants = keyedEntries(rawFile.products[id]?.variants, product.variants, (v) => v.item_id, `products.${id}.variants`, problems);
    products.set(id, { ...product, variants: new Map(variants) });
  }
  const users = new Map<string, User>();
  for (const [id, user] of keyedEntries(rawFile.users, file.users, (u) => u.user_id, 'users', problems)) {
    const methods = keyedEntries(
      rawFile.users[id]?.payment_methods,
      user.payment_methods,
      (m) => m.id,
      `users.${id}.payment_methods`,
      problems,
    );
    users.set(id, { ...user, payment_methods: new Map(methods) });
  }
  const orders = new Map<string, Order>(keyedEntries(rawFile.orders, file.orders, (o) => o.order_id, 'orders', problems));
  for (const order of orders.values()) {
    const owner = users.get(order.user_id);
    if (owner === undefined) problems.push(`orders.${order.order_id}.user_id: no user ${order.user_id}`);
    else if (!owner.orders.includes(order.order_id)) problems.push(`users.${owner.user_id}.orders: misses ${order.order_id}`);
    order.items.forEach((item, index) => {
      if (products.get(item.product_id)?.variants.has(item.item_id) !== true) {
        problems.push(`orders.${order.order_id}.items.${index}: no item ${item.item_id} of product ${item.product_id}`);
      }
    });
    order.payment_history.forEach((payment, index) => {
      if (owner !== undefined && !owner.payment_methods.has(payment.payment_method_id)) {
        problems.push(
          `orders.${order.order_id}.payment_history.${index}: ${payment.payment_method_id} is not a payment method of ${owner.user_id}`,
        );
      }
    });
  }
  for (const user of users.values()) {
    for (const orderId of user.orders) if (!orders.has(orderId)) problems.push(`users.${user.user_id}.orders: no order ${orderId}`);
  }
  if (problems.length > 0) {
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    return refuse(`${source}: ${problems.slice(0, 5).join('; ')}${more}`);
  }
  return ok({ products, users, orders });
}

/**
 * The entries of a record keyed by id, each checked against the record's own id. Keys are read from the raw JSON:
 * a key zod drops while parsing (`__proto__`) is reported, never silently lost.
 */
function keyedEntries<V>(
  rawRecord: unknown,
  record: Record<string, V>,
  idOf: (value: V) => string,
  where: string,
  problems: string[],
): [string, V][] {
  const entries: [string, V][] = [];
  for (const key of Object.keys(rawRecord ?? {})) {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (value === undefined) problems.push(`${where}: the id ${JSON.stringify(key)} cannot be used`);
    else if (idOf(value) !== key) problems.push(`${where}.${key}: the record's own id is ${JSON.stringify(idOf(value))}`);
    else entries.push([key, value]);
  }
  return entries;
}

/** The file's text for `data`: stable key order, two-space indent, a final newline. */
export function serializeDatabase(data: RetailData): string {
  const file = {
    products: Object.fromEntries([...data.products].map(([id, product]) => [id, productView(product)])),
    users: Object.fromEntries([...data.users].map(([id, user]) => [id, userView(user)])),
    orders: Object.fromEntries(data.orders),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * Opens the store: in memory from `seedText`, or from `file` (created from the seed when missing, so a test can
 * start from a fresh path and read back what changed).
 */
export function openStore(seedText: string, file?: string): Outcome<RetailStore> {
  let text = seedText;
  let source = 'the seed database';
  if (file !== undefined && existsSync(file)) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      return refuse(`cannot read ${file}: ${(error as Error).message}`);
    }
    source = file;
  }
  const loaded = parseDatabase(text, source);
  if (!loaded.ok) return loaded;
  let state = loaded.value;
  if (file !== undefined && !existsSync(file)) {
    const saved = saveAtomically(file, serializeDatabase(state));
    if (!saved.ok) return saved;
  }
  return ok({
    file,
    current: () => state,
    change<T>(apply: (draft: RetailData) => Outcome<T>): Outcome<T> {
      const draft = structuredClone(state);
      const outcome = apply(draft);
      if (!outcome.ok) return outcome;
      if (file !== undefined) {
        const saved = saveAtomically(file, serializeDatabase(draft));
        if (!saved.ok) return saved;
      }
      state = draft;
      return outcome;
    },
  });
}

/** Writes `text` to `file` whole or not at all: a temporary file beside it, fsynced, then renamed over it. */
export function saveAtomically(file: string, text: string): Outcome<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    return ok(undefined);
  } catch (error) {
    rmSync(temporary, { force: true });
    return refuse(`the change was not saved (nothing changed): cannot write ${file}: ${(error as Error).message}`);
  }
}
