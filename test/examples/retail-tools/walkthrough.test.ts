/**
 * The seed walkthrough (the core spec's "Sophia Martin Scenario") played against the real server with only what
 * the user says: her email, "the address of my luggage order", and "my tablet, for the cheapest one". Every id,
 * address and price comes from tool answers, as an agent would find them; the database file shows the three
 * changes and nothing else.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { connectStdio, seed } from './retail-process.js';

const dir = mkdtempSync(join(tmpdir(), 'retail-walkthrough-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('changes the pending order to the luggage order address, makes it her default, and exchanges her tablet for the cheapest one', async () => {
  const db = join(dir, 'db.json');
  const client = await connectStdio('v2-modern', { db });
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await client.call(name, args);
    expect(answer.isError, `${name}: ${JSON.stringify(answer.structured)}`).toBe(false);
    return answer.structured;
  };
  try {
    // AUTH
    const { user_id } = await call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });
    const user = await call('get_user_details', { user_id });
    const orders = await Promise.all(user.orders.map((order_id: string) => call('get_order_details', { order_id })));

    // Task 1: the pending order ships to the luggage order's address.
    const pending = orders.filter((order) => order.status === 'pending');
    expect(pending).toHaveLength(1);
    const luggage = orders.find((order) => order.items.some((item: { name: string }) => /luggage/i.test(item.name)));
    expect(luggage.order_id).toBe('#W9834521');
    expect(luggage.address.address1).toBe('456 Elm Ave');
    const moved = await call('modify_pending_order_address', { order_id: pending[0].order_id, ...luggage.address });
    expect(moved.address).toEqual(luggage.address);

    // Task 2: the same address becomes her default.
    const profile = await call('modify_user_address', { user_id, ...luggage.address });
    expect(profile.address).toEqual(luggage.address);

    // Task 3: the delivered tablet, for the cheapest available other variant; the difference with calculate.
    const tabletOrder = orders.find(
      (order) => order.status === 'delivered' && order.items.some((item: { name: string }) => item.name === 'Tablet'),
    );
    const tablet = tabletOrder.items.find((item: { name: string }) => item.name === 'Tablet');
    const product = await call('get_product_details', { product_id: tablet.product_id });
    const cheapest = Object.values(product.variants as Record<string, { item_id: string; available: boolean; price: number }>)
      .filter((variant) => variant.available && variant.item_id !== tablet.item_id)
      .sort((a, b) => a.price - b.price)[0];
    expect(cheapest?.price).toBeLessThan(tablet.price);
    const { result: difference } = await call('calculate', { expression: `${cheapest?.price} - ${tablet.price}` });
    const exchanged = await call('exchange_delivered_order_items', {
      order_id: tabletOrder.order_id,
      item_ids: [tablet.item_id],
      new_item_ids: [cheapest?.item_id],
      payment_method_id: tabletOrder.payment_history[0].payment_method_id,
    });
    expect(exchanged).toMatchObject({ status: 'exchange requested', exchange_price_difference: difference });
    expect(difference).toBeLessThan(0);

    // The file holds exactly these three changes.
    const saved = JSON.parse(readFileSync(db, 'utf8'));
    const expected = seed();
    expected.orders[pending[0].order_id].address = luggage.address;
    expected.users[user_id].address = luggage.address;
    expected.orders[tabletOrder.order_id] = exchanged;
    expect(saved).toEqual(expected);
  } finally {
    await client.close();
  }
});
