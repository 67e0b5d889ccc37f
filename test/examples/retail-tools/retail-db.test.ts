/**
 * The database file, in process: the committed seed loads, covers what the gateway's tests rely on (every order
 * status, the walkthrough's customer) and serialises back byte for byte; a damaged file is refused with the place
 * of the problem; a store's refused or unsaveable change leaves its state and its file as they were.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../../examples/retail-tools/data-model.js';
import { ok, refuse } from '../../../examples/retail-tools/outcome.js';
import { openStore, parseDatabase, serializeDatabase } from '../../../examples/retail-tools/retail-db.js';
import { SEED_FILE } from './retail-process.js';

const seedText = readFileSync(SEED_FILE, 'utf8');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'retail-db-'));
  dirs.push(dir);
  return dir;
};

describe('the seed', () => {
  it('loads, and serialises back to the same bytes', () => {
    const loaded = parseDatabase(seedText, 'seed.json');
    if (!loaded.ok) throw new Error(loaded.error);
    expect(serializeDatabase(loaded.value)).toBe(seedText);
  });

  it('has orders in every status, and the walkthrough customer with her three orders', () => {
    const loaded = parseDatabase(seedText, 'seed.json');
    if (!loaded.ok) throw new Error(loaded.error);
    const { orders, users, products } = loaded.value;
    expect(new Set([...orders.values()].map((order) => order.status))).toEqual(new Set(ORDER_STATUSES));
    const sophia = users.get('sophia_martin_4832');
    expect(sophia?.email).toBe('sophia.martin4832@example.com');
    expect(sophia?.orders).toEqual(['#W9834521', '#W4817420', '#W6235914']);
    expect(orders.get('#W9834521')).toMatchObject({ status: 'delivered', address: { address1: '456 Elm Ave', city: 'Springfield' } });
    expect(orders.get('#W9834521')?.items[0]?.name).toBe('Luggage Set');
    expect(orders.get('#W4817420')).toMatchObject({ status: 'pending', address: sophia?.address });
    const tablet = orders.get('#W6235914')?.items.find((item) => item.name === 'Tablet');
    expect(orders.get('#W6235914')?.status).toBe('delivered');
    const cheaper = [...(products.get(tablet?.product_id ?? '')?.variants.values() ?? [])].filter(
      (variant) => variant.available && variant.price < (tablet?.price ?? 0),
    );
    expect(cheaper.length).toBeGreaterThan(0);
  });
});

describe('a damaged database file', () => {
  const mutate = (change: (file: any) => void) => {
    const file = JSON.parse(seedText);
    change(file);
    return JSON.stringify(file);
  };

  it.each([
    ['not JSON', '{"products": ', /^db\.json is not JSON/],
    ['a missing section', mutate((f) => delete f.orders), /^db\.json: orders: /],
    ['a wrong type', mutate((f) => (f.users.mei_chen_2719.email = 7)), /^db\.json: users\.mei_chen_2719\.email: /],
    [
      'a key that is not the record id',
      mutate((f) => (f.orders['#W6619432'].order_id = '#W0000000')),
      /orders\.#W6619432: the record's own id is "#W0000000"/,
    ],
    [
      'an order of an unknown user',
      mutate((f) => (f.orders['#W6619432'].user_id = 'nobody')),
      /orders\.#W6619432\.user_id: no user nobody/,
    ],
    ['an item no product has', mutate((f) => (f.orders['#W6619432'].items[0].item_id = '1')), /orders\.#W6619432\.items\.0: no item 1/],
    [
      'a user listing a missing order',
      mutate((f) => f.users.lucas_oliveira_5058.orders.push('#W1')),
      /users\.lucas_oliveira_5058\.orders: no order #W1/,
    ],
  ])('%s is refused with its place', (_what, text, message) => {
    const loaded = parseDatabase(text, 'db.json');
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toMatch(message);
  });

  it('an id that cannot be a plain property (__proto__) is reported, not silently dropped', () => {
    const text = seedText.replace('"#W6619432": {', '"__proto__": {');
    const loaded = parseDatabase(text, 'db.json');
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toMatch(/orders: the id "__proto__" cannot be used/);
  });
});

describe('a file-backed store', () => {
  it('creates the file from the seed, saves a change before it is current, and leaves no temporary file', () => {
    const dir = tempDir();
    const file = join(dir, 'db.json');
    const opened = openStore(seedText, file);
    if (!opened.ok) throw new Error(opened.error);
    expect(readFileSync(file, 'utf8')).toBe(seedText);
    const store = opened.value;
    const changed = store.change((draft) => {
      const order = draft.orders.get('#W6619432');
      if (order === undefined) return refuse('missing');
      order.status = 'cancelled';
      return ok(order.status);
    });
    expect(changed).toEqual({ ok: true, value: 'cancelled' });
    expect(JSON.parse(readFileSync(file, 'utf8')).orders['#W6619432'].status).toBe('cancelled');
    expect(store.current().orders.get('#W6619432')?.status).toBe('cancelled');
    expect(readdirSync(dir)).toEqual(['db.json']);
  });

  it('a refused change leaves the state and the file untouched, even what it changed on its draft', () => {
    const file = join(tempDir(), 'db.json');
    const opened = openStore(seedText, file);
    if (!opened.ok) throw new Error(opened.error);
    const before = readFileSync(file, 'utf8');
    const refused = opened.value.change((draft) => {
      const order = draft.orders.get('#W6619432');
      if (order !== undefined) order.status = 'cancelled';
      return refuse('no');
    });
    expect(refused).toEqual({ ok: false, error: 'no' });
    expect(opened.value.current().orders.get('#W6619432')?.status).toBe('pending');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a change that cannot be saved is refused and not applied, and its temporary file is removed', () => {
    const dir = tempDir();
    const file = join(dir, 'db.json');
    const opened = openStore(seedText, file);
    if (!opened.ok) throw new Error(opened.error);
    // A non-empty folder where the file was: the rename over it fails, for root too.
    rmSync(file);
    mkdirSync(file);
    writeFileSync(join(file, 'keep'), '');
    const outcome = opened.value.change((draft) => {
      draft.users.delete('lucas_oliveira_5058');
      return ok(true);
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(/^the change was not saved \(nothing changed\): cannot write .*db\.json/);
    expect(opened.value.current().users.has('lucas_oliveira_5058')).toBe(true);
    expect(readdirSync(dir)).toEqual(['db.json']);
  });

  it('an existing file is loaded instead of the seed', () => {
    const file = join(tempDir(), 'db.json');
    writeFileSync(file, seedText.replace('"sophia.martin4832@example.com"', '"sophia@example.org"'));
    const opened = openStore(seedText, file);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.value.current().users.get('sophia_martin_4832')?.email).toBe('sophia@example.org');
  });
});
