/**
 * The seed's walkthrough (the core spec's Sophia Martin scenario) as an agent plays it through the gateway: every
 * move with goto_node, every domain call at the step that offers it, every id and address taken from the domain
 * server's answers. Three tasks: the pending order ships to the luggage order's address, that address becomes her
 * default, and the delivered tablet is exchanged for the cheapest available variant.
 *
 * `call` is any client's tool call; `run` is added to every call (the run_id, for clients without a session).
 * Returns what a test checks afterwards.
 */
import { expect } from 'vitest';

export type PlayCall = (name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; answer: any; text: string }>;

export interface WalkthroughResult {
  readonly runId: string;
  readonly pendingOrder: string;
  readonly tabletOrder: string;
  readonly address: Record<string, string>;
  readonly newTablet: string;
}

export async function playSeedWalkthrough(call: PlayCall, options: { readonly passRunId: boolean }): Promise<WalkthroughResult> {
  const runId = (await call('load_graph', { agent: 'retail_customer_support' })).answer.run_id as string;
  const run = options.passRunId ? { run_id: runId } : {};
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, { ...args, ...run });
    expect(result.isError, `${name} ${JSON.stringify(args)}: ${result.text}`).toBe(false);
    if (name === 'goto_node') expect(result.answer.valid, `goto_node ${String(args['node_id'])}: ${result.text}`).toBe(true);
    return result.answer;
  };
  const go = (...nodes: string[]) =>
    nodes.reduce<Promise<unknown>>((previous, node_id) => previous.then(() => ok('goto_node', { node_id })), Promise.resolve());

  await ok('todo', {
    todos: [
      { content: 'Change shipping address on pending order', status: 'pending', completion_node: 'END_MOD' },
      { content: 'Update default user address', status: 'pending', completion_node: 'END_UADDR' },
      { content: 'Exchange tablet for cheapest option', status: 'pending', completion_node: 'END_EXCH' },
    ],
  });
  await go('START', 'AUTH');
  const { user_id } = await ok('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });

  // Task 1: the pending order's address, looked up on the luggage order.
  await go('ROUTE', 'CHK_MOD');
  const user = await ok('get_user_details', { user_id });
  const orders = [];
  for (const order_id of user.orders as string[]) orders.push(await ok('get_order_details', { order_id }));
  const pending = orders.find((order) => order.status === 'pending');
  await go('IS_PENDING_M', 'COLLECT_MOD_ADDR');
  const luggage = orders.find((order) => order.items.some((item: { name: string }) => /luggage/i.test(item.name)));
  const { address } = await ok('get_order_details', { order_id: luggage.order_id });
  await go('DO_MOD_ADDR');
  await ok('modify_pending_order_address', { order_id: pending.order_id, ...address });
  await go('END_MOD');

  // Task 2: the same address as her default.
  await go('ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR');
  await ok('modify_user_address', { user_id, ...address });
  await go('END_UADDR');

  // Task 3: the tablet, for the cheapest available other variant.
  await go('ROUTE', 'CHK_EXCH');
  const tabletOrder = orders.find(
    (order) => order.status === 'delivered' && order.items.some((item: { name: string }) => item.name === 'Tablet'),
  );
  await ok('get_order_details', { order_id: tabletOrder.order_id });
  await go('IS_DELIVERED_E', 'COLLECT_EXCH');
  const tablet = tabletOrder.items.find((item: { name: string }) => item.name === 'Tablet');
  const product = await ok('get_product_details', { product_id: tablet.product_id });
  const cheapest = Object.values(product.variants as Record<string, { item_id: string; available: boolean; price: number }>)
    .filter((variant) => variant.available && variant.item_id !== tablet.item_id)
    .sort((a, b) => a.price - b.price)[0]!;
  await ok('calculate', { expression: `${cheapest.price} - ${tablet.price}` });
  await go('DO_EXCH');
  await ok('exchange_delivered_order_items', {
    order_id: tabletOrder.order_id,
    item_ids: [tablet.item_id],
    new_item_ids: [cheapest.item_id],
    payment_method_id: tabletOrder.payment_history[0].payment_method_id,
  });
  await go('END_EXCH');
  return { runId, pendingOrder: pending.order_id, tabletOrder: tabletOrder.order_id, address, newTablet: cheapest.item_id };
}
