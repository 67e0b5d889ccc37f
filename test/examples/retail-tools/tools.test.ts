/**
 * Every retail tool on the seed data, through the real server process and a real SDK client: the happy path and
 * the refusals, each refusal an `isError` result with a message naming the rule, that changes nothing (the record
 * is read back and compared). Run twice: over stdio with a v1 client (2025-era), and over Streamable HTTP with a
 * v2 client pinned to 2026-07-28. Read-only tools share one server; each changing tool gets a fresh one, so the
 * tests start from the seed and can run in any order.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, type RetailClient, seed, startRetailHttp } from './retail-process.js';

interface Setup {
  readonly name: string;
  open(): Promise<{ client: RetailClient; close(): Promise<void> }>;
}

const SETUPS: readonly Setup[] = [
  {
    name: 'stdio, v1 client',
    async open() {
      const client = await connectStdio('v1');
      return { client, close: () => client.close() };
    },
  },
  {
    name: 'Streamable HTTP, v2 client pinned to 2026-07-28',
    async open() {
      const server = await startRetailHttp();
      const client = await connectHttp('v2-modern', server);
      return {
        client,
        async close() {
          await client.close();
          await server.stop();
        },
      };
    },
  },
];

const TOOL_NAMES = [
  'find_user_id_by_email',
  'find_user_id_by_name_zip',
  'get_user_details',
  'get_order_details',
  'get_product_details',
  'list_all_product_types',
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
  'exchange_delivered_order_items',
  'calculate',
  'transfer_to_human_agents',
];

const ELM = { address1: '456 Elm Ave', address2: 'Apt 2', city: 'Springfield', state: 'IL', country: 'USA', zip: '62704' };

describe.each(SETUPS)('$name', ({ open }) => {
  let shared: RetailClient;
  let closeShared: () => Promise<void>;
  const opened: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    ({ client: shared, close: closeShared } = await open());
  });
  afterAll(async () => {
    await closeShared?.();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((close) => close()));
  });
  /** A server of its own, fresh from the seed. */
  const fresh = async (): Promise<RetailClient> => {
    const { client, close } = await open();
    opened.push(close);
    return client;
  };
  const order = async (client: RetailClient, id: string) => (await client.call('get_order_details', { order_id: id })).structured;
  const user = async (client: RetailClient, id: string) => (await client.call('get_user_details', { user_id: id })).structured;
  /** Calls a tool that must refuse, checks the refusal's message, and that `read` sees the same before and after. */
  const refused = async (
    client: RetailClient,
    read: () => Promise<unknown>,
    name: string,
    args: Record<string, unknown>,
    message: RegExp,
  ) => {
    const before = await read();
    const answer = await client.call(name, args);
    expect(answer.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
    expect(Object.keys(answer.structured)).toEqual(['error']);
    expect(answer.structured.error).toMatch(message);
    expect(await read()).toEqual(before);
  };
  const succeeds = async (client: RetailClient, name: string, args: Record<string, unknown>) => {
    const answer = await client.call(name, args);
    expect(answer.isError, JSON.stringify(answer.structured)).toBe(false);
    return answer.structured;
  };

  describe('read-only tools', () => {
    it('lists the fifteen tools, each with a description, an input and an output schema, reads marked read-only', async () => {
      const tools = await shared.tools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      for (const tool of tools) {
        expect(tool.description, tool.name).toMatch(/\w/);
        expect(tool.inputSchema.type, tool.name).toBe('object');
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        const changes = tool.name.startsWith('cancel_') || tool.name.startsWith('modify_') || tool.name.endsWith('_order_items');
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(!changes);
      }
      expect(tools.find((tool) => tool.name === 'modify_pending_order_items')?.inputSchema).toMatchObject({
        required: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
        additionalProperties: false,
      });
    });

    it('find_user_id_by_email: any case finds the user; an unknown email is refused', async () => {
      expect(await succeeds(shared, 'find_user_id_by_email', { email: 'sophia.martin4832@example.com' })).toEqual({
        user_id: 'sophia_martin_4832',
      });
      expect(await succeeds(shared, 'find_user_id_by_email', { email: ' Sophia.Martin4832@EXAMPLE.com' })).toEqual({
        user_id: 'sophia_martin_4832',
      });
      const answer = await shared.call('find_user_id_by_email', { email: 'sophia@example.com' });
      expect(answer).toEqual({
        isError: true,
        structured: { error: expect.stringMatching(/^No user has the email "sophia@example.com"/) },
      });
    });

    it('find_user_id_by_name_zip: names match without case or accents, the zip must match exactly', async () => {
      expect(await succeeds(shared, 'find_user_id_by_name_zip', { first_name: 'Sophia', last_name: 'Martin', zip: '60614' })).toEqual({
        user_id: 'sophia_martin_4832',
      });
      expect(await succeeds(shared, 'find_user_id_by_name_zip', { first_name: 'jonas', last_name: 'MULLER', zip: '80331' })).toEqual({
        user_id: 'jonas_muller_6620',
      });
      const wrongZip = await shared.call('find_user_id_by_name_zip', { first_name: 'Sophia', last_name: 'Martin', zip: '62704' });
      expect(wrongZip.isError).toBe(true);
      expect(wrongZip.structured.error).toMatch(/^No user is named "Sophia Martin" with zip code "62704"/);
    });

    it('get_user_details: the profile as in the database; an unknown id points to the lookups', async () => {
      expect(await succeeds(shared, 'get_user_details', { user_id: 'sophia_martin_4832' })).toEqual(seed().users.sophia_martin_4832);
      const answer = await shared.call('get_user_details', { user_id: 'sophia_martin' });
      expect(answer.isError).toBe(true);
      expect(answer.structured.error).toMatch(/find_user_id_by_email or find_user_id_by_name_zip/);
    });

    it('get_order_details: the order as in the database; a missing "#" or an odd id is refused with a hint', async () => {
      const luggage = await succeeds(shared, 'get_order_details', { order_id: '#W9834521' });
      expect(luggage).toEqual(seed().orders['#W9834521']);
      expect(luggage.address).toEqual(ELM);
      const noHash = await shared.call('get_order_details', { order_id: 'W9834521' });
      expect(noHash.structured.error).toBe('No order has the id "W9834521". Order ids start with "#": did you mean "#W9834521"?');
      for (const id of ['__proto__', 'constructor', '#W0000000', '']) {
        const answer = await shared.call('get_order_details', { order_id: id });
        expect(answer.isError, id).toBe(true);
        expect(answer.structured.error).toMatch(/^No order has the id/);
      }
    });

    it('get_product_details: variants with options, prices, availability; an item id is told apart from a product id', async () => {
      expect(await succeeds(shared, 'get_product_details', { product_id: '6194517832' })).toEqual(seed().products['6194517832']);
      const item = await shared.call('get_product_details', { product_id: '2106335193' });
      expect(item.structured.error).toBe(
        '2106335193 is an item (a variant) of the product "Tablet", not a product id: its product id is 6194517832.',
      );
      expect((await shared.call('get_product_details', { product_id: '1' })).structured.error).toMatch(/list_all_product_types/);
    });

    it('list_all_product_types: names to product ids, sorted by name', async () => {
      const { product_types } = await succeeds(shared, 'list_all_product_types', {});
      const expected = Object.values(seed().products as Record<string, { name: string; product_id: string }>)
        .map((p) => [p.name, p.product_id])
        .sort(([a], [b]) => String(a).localeCompare(String(b)));
      expect(Object.entries(product_types)).toEqual(expected);
      expect(Object.keys(product_types)[0]).toBe('Desk Lamp');
    });

    it('calculate: arithmetic rounded to cents; bad input and division by zero are refused', async () => {
      expect(await succeeds(shared, 'calculate', { expression: '(449.99 - 849.99) + 59.99 * 2' })).toEqual({ result: -280.02 });
      expect(await succeeds(shared, 'calculate', { expression: '10 / 4' })).toEqual({ result: 2.5 });
      expect((await shared.call('calculate', { expression: '1 / (3 - 3)' })).structured.error).toMatch(/^Division by zero/);
      expect((await shared.call('calculate', { expression: 'process.exit(1)' })).structured.error).toMatch(/^Invalid character "p"/);
      // The server is still there.
      expect(await succeeds(shared, 'calculate', { expression: '1 + 1' })).toEqual({ result: 2 });
    });

    it('transfer_to_human_agents: answers that the transfer succeeded', async () => {
      expect(await succeeds(shared, 'transfer_to_human_agents', { summary: 'wants to close the account' })).toEqual({
        result: 'Transfer successful',
      });
    });
  });

  describe('changing tools (each on a fresh server)', () => {
    it('cancel_pending_order: refunds and cancels a pending order; wrong reasons and statuses are refused', async () => {
      const client = await fresh();
      const mei = () => order(client, '#W6619432');
      await refused(
        client,
        mei,
        'cancel_pending_order',
        { order_id: '#W6619432', reason: 'changed my mind' },
        /^The reason must be exactly "no longer needed" or "ordered by mistake", not "changed my mind"\.$/,
      );
      await refused(
        client,
        () => order(client, '#W3172905'),
        'cancel_pending_order',
        { order_id: '#W3172905', reason: 'no longer needed' },
        /^Order #W3172905 is "processed": only pending orders can be cancelled\.$/,
      );
      await refused(
        client,
        () => order(client, '#W7702265'),
        'cancel_pending_order',
        { order_id: '#W7702265', reason: 'no longer needed' },
        /already modified once, and after that it can be neither modified nor cancelled/,
      );
      await refused(client, mei, 'cancel_pending_order', { order_id: '#W404', reason: 'no longer needed' }, /^No order has the id "#W404"/);

      const cancelled = await succeeds(client, 'cancel_pending_order', { order_id: '#W6619432', reason: 'no longer needed' });
      expect(cancelled).toMatchObject({ order_id: '#W6619432', status: 'cancelled', cancel_reason: 'no longer needed' });
      expect(cancelled.payment_history).toEqual([
        { transaction_type: 'payment', amount: 899.99, payment_method_id: 'paypal_3349061' },
        { transaction_type: 'refund', amount: 899.99, payment_method_id: 'paypal_3349061' },
      ]);
      expect(await mei()).toEqual(cancelled);
      await refused(
        client,
        mei,
        'cancel_pending_order',
        { order_id: '#W6619432', reason: 'no longer needed' },
        /is "cancelled": only pending orders/,
      );

      // Paid with a gift card: the balance comes back at once.
      await succeeds(client, 'cancel_pending_order', { order_id: '#W3390814', reason: 'ordered by mistake' });
      expect((await user(client, 'jonas_muller_6620')).payment_methods.gift_card_4409826.balance).toBe(599.99);
    });

    it('modify_pending_order_address: changes only that order; incomplete addresses and non-pending orders are refused', async () => {
      const client = await fresh();
      const pending = () => order(client, '#W4817420');
      await refused(
        client,
        pending,
        'modify_pending_order_address',
        { order_id: '#W4817420', ...ELM, city: ' ' },
        /^The address is incomplete: city must not be empty/,
      );
      await refused(
        client,
        () => order(client, '#W9834521'),
        'modify_pending_order_address',
        { order_id: '#W9834521', ...ELM },
        /is "delivered": only pending orders can be modified/,
      );
      await refused(
        client,
        () => order(client, '#W7702265'),
        'modify_pending_order_address',
        { order_id: '#W7702265', ...ELM },
        /"pending \(item modified\)"/,
      );
      const profile = await user(client, 'sophia_martin_4832');
      const changed = await succeeds(client, 'modify_pending_order_address', { order_id: '#W4817420', ...ELM });
      expect(changed).toEqual({ ...seed().orders['#W4817420'], address: ELM });
      expect(await pending()).toEqual(changed);
      expect(await user(client, 'sophia_martin_4832')).toEqual(profile);
    });

    it('modify_user_address: changes the default address only, never an order; unknown users and empty fields are refused', async () => {
      const client = await fresh();
      const sophia = () => user(client, 'sophia_martin_4832');
      await refused(client, sophia, 'modify_user_address', { user_id: 'nobody', ...ELM }, /^No user has the id "nobody"/);
      await refused(
        client,
        sophia,
        'modify_user_address',
        { user_id: 'sophia_martin_4832', ...ELM, zip: '', country: '' },
        /country, zip must not be empty/,
      );
      const orderBefore = await order(client, '#W4817420');
      const changed = await succeeds(client, 'modify_user_address', { user_id: 'sophia_martin_4832', ...ELM, address2: '' });
      expect(changed).toEqual({ ...seed().users.sophia_martin_4832, address: { ...ELM, address2: '' } });
      expect(await order(client, '#W4817420')).toEqual(orderBefore);
    });

    it('modify_pending_order_payment: switches once to another saved method; gift card balance, same method and foreign methods are refused', async () => {
      const client = await fresh();
      const mei = () => order(client, '#W6619432');
      await refused(
        client,
        mei,
        'modify_pending_order_payment',
        { order_id: '#W6619432', payment_method_id: 'gift_card_8812093' },
        /^Gift card gift_card_8812093 has a balance of 10\.00, less than the 899\.99 to pay/,
      );
      await refused(
        client,
        mei,
        'modify_pending_order_payment',
        { order_id: '#W6619432', payment_method_id: 'paypal_3349061' },
        /is already paid with paypal_3349061/,
      );
      await refused(
        client,
        mei,
        'modify_pending_order_payment',
        { order_id: '#W6619432', payment_method_id: 'credit_card_4390581' },
        /^"credit_card_4390581" is not a payment method of mei_chen_2719; the saved ones are: paypal_3349061, credit_card_6205317, gift_card_8812093\.$/,
      );
      const changed = await succeeds(client, 'modify_pending_order_payment', {
        order_id: '#W6619432',
        payment_method_id: 'credit_card_6205317',
      });
      expect(changed.status).toBe('pending');
      expect(changed.payment_history).toEqual([
        { transaction_type: 'payment', amount: 899.99, payment_method_id: 'paypal_3349061' },
        { transaction_type: 'payment', amount: 899.99, payment_method_id: 'credit_card_6205317' },
        { transaction_type: 'refund', amount: 899.99, payment_method_id: 'paypal_3349061' },
      ]);
      await refused(
        client,
        mei,
        'modify_pending_order_payment',
        { order_id: '#W6619432', payment_method_id: 'paypal_3349061' },
        /has 3 payment transactions/,
      );

      // Away from a gift card: the gift card gets the amount back.
      await succeeds(client, 'modify_pending_order_payment', { order_id: '#W3390814', payment_method_id: 'credit_card_2290417' });
      expect((await user(client, 'jonas_muller_6620')).payment_methods.gift_card_4409826.balance).toBe(599.99);
    });

    it('modify_pending_order_items: swaps variants once, settling the difference; bad swaps are refused', async () => {
      const client = await fresh();
      const amara = () => order(client, '#W2240671');
      const base = { order_id: '#W2240671', payment_method_id: 'paypal_9043772' };
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['9612497925'], new_item_ids: [] },
        /item_ids has 1 entries and new_item_ids 0/,
      );
      await refused(client, amara, 'modify_pending_order_items', { ...base, item_ids: [], new_item_ids: [] }, /^No item ids given/);
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['3799046073'], new_item_ids: ['9612497925'] },
        /^Item 3799046073 is not in order #W2240671; its items are: 1270145486 \(Desk Lamp\), 9612497925 \(T-Shirt\)\.$/,
      );
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['9612497925', '9612497925'], new_item_ids: ['8124970213', '8124970213'] },
        /is listed 2 times, but order #W2240671 holds it 1 time\./,
      );
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['1270145486'], new_item_ids: ['8124970213'] },
        /^Item 8124970213 is not a variant of Desk Lamp \(product 6817146515\)/,
      );
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['9612497925'], new_item_ids: ['5253880258'] },
        /^Item 5253880258 \(T-Shirt, color: blue, size: L, material: cotton, style: crew neck\) is not available\.$/,
      );
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['9612497925'], new_item_ids: ['9612497925'] },
        /is the item it would replace/,
      );
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['9612497925'], new_item_ids: ['8124970213'], payment_method_id: 'gift_card_8812093' },
        /is not a payment method of amara_okafor_1357/,
      );
      // A charge a gift card cannot cover (Mei's laptop for the dearer one).
      await refused(
        client,
        () => order(client, '#W6619432'),
        'modify_pending_order_items',
        { order_id: '#W6619432', item_ids: ['6017636844'], new_item_ids: ['3334537816'], payment_method_id: 'gift_card_8812093' },
        /balance of 10\.00, less than the 400\.00 to pay/,
      );

      const changed = await succeeds(client, 'modify_pending_order_items', {
        ...base,
        item_ids: ['9612497925', '1270145486'],
        new_item_ids: ['8124970213', '5320792178'],
      });
      expect(changed.status).toBe('pending (item modified)');
      expect(changed.items).toEqual([
        {
          name: 'Desk Lamp',
          product_id: '6817146515',
          item_id: '5320792178',
          price: 49.99,
          options: { color: 'black', brightness: 'medium', 'power source': 'AC adapter' },
        },
        {
          name: 'T-Shirt',
          product_id: '9523456873',
          item_id: '8124970213',
          price: 21.99,
          options: { color: 'red', size: 'L', material: 'polyester', style: 'v-neck' },
        },
      ]);
      expect(changed.payment_history.at(-1)).toEqual({ transaction_type: 'refund', amount: 13, payment_method_id: 'paypal_9043772' });
      // Items are modified once; then the order is neither modifiable nor cancellable.
      await refused(
        client,
        amara,
        'modify_pending_order_items',
        { ...base, item_ids: ['8124970213'], new_item_ids: ['9612497925'] },
        /its items were already modified once/,
      );
      await refused(
        client,
        amara,
        'cancel_pending_order',
        { order_id: '#W2240671', reason: 'no longer needed' },
        /its items were already modified once/,
      );
    });

    it('return_delivered_order_items: requests a return to the original method or a gift card; other cases are refused', async () => {
      const client = await fresh();
      const jonas = () => order(client, '#W1945532');
      const base = { order_id: '#W1945532', payment_method_id: 'gift_card_4409826' };
      await refused(
        client,
        jonas,
        'return_delivered_order_items',
        { ...base, item_ids: ['3453331371', '3453331371', '3453331371'] },
        /^Item 3453331371 is listed 3 times, but order #W1945532 holds it 2 times\.$/,
      );
      await refused(client, jonas, 'return_delivered_order_items', { ...base, item_ids: ['4063401924'] }, /is not in order #W1945532/);
      await refused(client, jonas, 'return_delivered_order_items', { ...base, item_ids: [] }, /^No item ids given/);
      await refused(
        client,
        jonas,
        'return_delivered_order_items',
        { ...base, item_ids: ['3453331371'], payment_method_id: 'credit_card_2290417' },
        /^A refund goes to the original payment method or to one of the user's gift cards \(gift_card_4409826\), not to credit_card_2290417\.$/,
      );
      await refused(
        client,
        () => order(client, '#W4817420'),
        'return_delivered_order_items',
        { order_id: '#W4817420', item_ids: ['4063401924'], payment_method_id: 'credit_card_4390581' },
        /^Order #W4817420 is "pending": only delivered orders can have items returned\.$/,
      );
      const returned = await succeeds(client, 'return_delivered_order_items', {
        ...base,
        item_ids: ['3453331371', '2052249669', '3453331371'],
      });
      expect(returned).toEqual({
        ...seed().orders['#W1945532'],
        status: 'return requested',
        return_items: ['2052249669', '3453331371', '3453331371'],
        return_payment_method_id: 'gift_card_4409826',
      });
      await refused(client, jonas, 'return_delivered_order_items', { ...base, item_ids: ['2052249669'] }, /is "return requested"/);
      // To a gift card although the order was paid by credit card: allowed.
      const sophia = await succeeds(client, 'return_delivered_order_items', {
        order_id: '#W6235914',
        item_ids: ['1270145486'],
        payment_method_id: 'gift_card_5537814',
      });
      expect(sophia.return_payment_method_id).toBe('gift_card_5537814');
    });

    it('exchange_delivered_order_items: requests an exchange for available variants of the same product; other cases are refused', async () => {
      const client = await fresh();
      const tablet = () => order(client, '#W6235914');
      const base = { order_id: '#W6235914', item_ids: ['2106335193'], payment_method_id: 'credit_card_4390581' };
      await refused(
        client,
        tablet,
        'exchange_delivered_order_items',
        { ...base, new_item_ids: ['6065192424'] },
        /^Item 6065192424 \(Tablet, screen size: 8-inch, storage: 64GB, color: gold\) is not available\.$/,
      );
      await refused(
        client,
        tablet,
        'exchange_delivered_order_items',
        { ...base, new_item_ids: ['6017636844'] },
        /is not a variant of Tablet \(product 6194517832\), the product of item 2106335193; its items are: 2106335193, 7535423717, 4913411651, 6065192424\.$/,
      );
      await refused(
        client,
        tablet,
        'exchange_delivered_order_items',
        { ...base, new_item_ids: ['4913411651', '7535423717'] },
        /item_ids has 1 entries and new_item_ids 2/,
      );
      await refused(
        client,
        () => order(client, '#W3172905'),
        'exchange_delivered_order_items',
        { order_id: '#W3172905', item_ids: ['3799046073'], new_item_ids: ['9612497925'], payment_method_id: 'credit_card_6205317' },
        /is "processed": only delivered orders can have items exchanged/,
      );
      const exchanged = await succeeds(client, 'exchange_delivered_order_items', { ...base, new_item_ids: ['4913411651'] });
      expect(exchanged).toEqual({
        ...seed().orders['#W6235914'],
        status: 'exchange requested',
        exchange_items: ['2106335193'],
        exchange_new_items: ['4913411651'],
        exchange_payment_method_id: 'credit_card_4390581',
        exchange_price_difference: -400,
      });
      await refused(client, tablet, 'exchange_delivered_order_items', { ...base, new_item_ids: ['7535423717'] }, /is "exchange requested"/);
      await refused(
        client,
        tablet,
        'return_delivered_order_items',
        { order_id: '#W6235914', item_ids: ['1270145486'], payment_method_id: 'credit_card_4390581' },
        /is "exchange requested"/,
      );
    });
  });

  describe('what the SDK refuses before a tool runs', () => {
    it('an unknown tool is a JSON-RPC -32602 error, and the switchable extra tool is not offered at start', async () => {
      for (const name of ['no_such_tool', 'get_store_hours']) {
        await expect(shared.call(name, {})).rejects.toMatchObject({ code: -32602 });
      }
    });
  });
});
