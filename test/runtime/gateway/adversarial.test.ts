/**
 * An agent that does anything: thousands of random domain calls (every tool, arguments from a small pool of real
 * and made-up ids) between random moves (legal or not), with a user who answers yes or no at random. What the
 * gateway sends is recorded where it sends it (the connection's `call`, which still reaches the real retail
 * server), so the check does not trust the gateway's own audit log: every call that went out was made at a node
 * whose tools list it, and the audit log's forwarded calls are exactly the calls that went out, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GatewayUnderTest, legacyClient, RETAIL, startGateway } from '../../support/gateway.js';
import { random as seededRandom } from '../../../fuzz/random.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';

let gateway: GatewayUnderTest;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.close();
});

const ORDERS = ['#W4817420', '#W6619432', '#W9834521', '#W6235914', '#W3390814', '#W0000000'];
const USERS = ['sophia_martin_4832', 'mei_chen_2719', 'nobody_1'];
const EMAILS = ['sophia.martin4832@example.com', 'mei.chen2719@example.com', 'x@example.com'];

it('forwards nothing, in thousands of random calls, at a node whose tools do not list it', async () => {
  const next = seededRandom(20261126).next;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const sent: { tool: string; seq: number }[] = [];
  for (const upstream of gateway.domain.upstreams) {
    const real = upstream.call.bind(upstream);
    (upstream as { call: typeof upstream.call }).call = (tool, args, meta) => {
      sent.push({ tool, seq: sent.length });
      return real(tool, args, meta);
    };
  }
  const client = await legacyClient(gateway, () => next() < 0.5);
  const runId = (await client.call('load_graph', { agent: RETAIL })).answer.run_id as string;
  const sop = gateway.service.catalog().byName(RETAIL)!;
  const tools = sop.tools;
  // Arguments of the tool's own shape (a made-up argument would only test the domain server's validation),
  // with values from the pools: ids that exist, belong to another user, or do not exist at all.
  const pools: Record<string, () => unknown> = {
    order_id: () => pick(ORDERS),
    user_id: () => pick(USERS),
    email: () => pick(EMAILS),
    reason: () => pick(['no longer needed', 'ordered by mistake', 'bored']),
    item_ids: () => [pick(['4063401924', '2106335193', '1646531091'])],
    new_item_ids: () => [pick(['4913411651', '3694871183', '2052249669'])],
    payment_method_id: () => pick(['credit_card_4390581', 'paypal_3349061', 'gift_card_5537814']),
    first_name: () => pick(['Sophia', 'Mei']),
    last_name: () => pick(['Martin', 'Chen']),
    zip: () => pick(['60614', '98101', '00000']),
    product_id: () => '6194517832',
    expression: () => '1 + 2 * 3',
    summary: () => 'the user asks for a person',
  };
  const argsFor = (tool: string): Record<string, unknown> => {
    const properties = Object.keys((gateway.domain.get(tool)?.tool.inputSchema.properties ?? {}) as object).filter(
      (key) => key !== 'run_id',
    );
    return Object.fromEntries(properties.map((key) => [key, (pools[key] ?? (() => 'Some Street 1'))()]));
  };
  let calls = 0;
  let moves = 0;
  for (let i = 0; i < 3000; i++) {
    const here = await gateway.store.read(runId, 0);
    const path = here.status === 'found' ? here.run.state.path : [];
    const current = path.at(-1);
    if (next() < 0.3) {
      // Mostly legal moves, sometimes any node: the walk reaches deep steps and also tries to jump.
      const successors = current === undefined ? [sop.transitions.entry] : (sop.transitions.successors[current] ?? []);
      const target = next() < 0.85 && successors.length > 0 ? pick(successors) : pick(sop.nodeIds);
      await client.call('goto_node', { node_id: target });
      moves += 1;
    } else {
      // Half the time a tool the current step offers (so the walk can go on), half the time any tool.
      const offered = current === undefined ? [] : (sop.toolsByNode[current] ?? []);
      const tool = next() < 0.5 && offered.length > 0 ? pick(offered) : pick(tools);
      const args = argsFor(tool);
      await client.call(tool, args);
      calls += 1;
    }
  }
  const audit = await gateway.store.audit(runId, { limit: 100_000 });
  // What the run says went out: a change is recorded before it is sent (forwarding), a read once with its answer.
  const forwarded = audit.filter(
    (entry) =>
      domainDetailOf(entry)?.phase === 'forwarding' ||
      (domainDetailOf(entry)?.phase === 'answered' && domainDetailOf(entry)?.read === true),
  );
  // Every call that went out is one the run recorded, in the same order, and none other went out.
  expect(forwarded.map((entry) => entry.tool)).toEqual(sent.map((call) => call.tool));
  const offending = forwarded.filter((entry) => !(sop.toolsByNode[entry.from ?? ''] ?? []).includes(entry.tool));
  expect(offending).toEqual([]);
  // The test did what it says: many calls, many refused for their node, and some forwarded at deep steps.
  expect(calls).toBeGreaterThan(1500);
  expect(moves).toBeGreaterThan(500);
  expect(audit.filter((entry) => domainDetailOf(entry)?.rule === 'node-tools' && entry.outcome === 'refused').length).toBeGreaterThan(500);
  expect(new Set(forwarded.map((entry) => entry.from)).size).toBeGreaterThan(5);
  await client.close();
}, 120_000);
