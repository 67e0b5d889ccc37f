/**
 * Rules decided by data, in the gateway, with the real retail server upstream (`examples/retail-tools` over stdio,
 * its database in a file) and a real SDK client: evidence lasts the run (real agents read first and decide after),
 * the status decisions follow what `get_order_details` answered (exactly), a branch taken for some of the orders read
 * binds the change after it to them, and a change of unknown outcome is reconciled by a read, never repeated blindly.
 * What reached the server is checked on the database it writes; every refusal is in the audit with its rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledSop, McpServerRef, SopBundle } from '../../../contract/compiled-sop.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';
import {
  authenticated,
  type GatewayClient,
  type GatewayUnderTest,
  legacyClient,
  REPO_BUNDLE,
  RETAIL,
  startGateway,
} from '../../support/gateway.js';

const SOPHIA_PENDING = '#W4817420';
/** Another user's pending order: the retail server cancels an order whoever reads it (the SOP's prompt checks the owner). */
const MEI_PENDING = '#W6619432';
const LUGGAGE_DELIVERED = '#W9834521';
const TABLET_DELIVERED = '#W6235914';

let gateway: GatewayUnderTest;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.close();
});

async function loaded(client: GatewayClient): Promise<string> {
  return (await client.call('load_graph', { agent: RETAIL })).answer.run_id as string;
}

async function moves(client: GatewayClient, ...nodes: string[]): Promise<void> {
  for (const node_id of nodes) {
    const moved = await client.call('goto_node', { node_id });
    if (moved.answer?.valid !== true) throw new Error(`${node_id}: ${moved.text}`);
  }
}

describe('evidence lasts the run', () => {
  it('lets an order read while answering a question be checked and cancelled later, without a second read', async () => {
    const client = await legacyClient(gateway, 'yes');
    await loaded(client);
    await authenticated(client);
    await moves(client, 'INFO');
    expect((await client.call('get_order_details', { order_id: MEI_PENDING })).answer.status).toBe('pending');
    await moves(client, 'END_INFO', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL');
    const cancelled = await client.call('cancel_pending_order', { order_id: MEI_PENDING, reason: 'no longer needed' });
    expect(cancelled.isError).toBe(false);
    expect(gateway.database().orders[MEI_PENDING].status).toBe('cancelled');
    // The user found at AUTH stays found after a restart.
    await moves(client, 'START', 'AUTH', 'ROUTE');
    await client.close();
  });
});

describe('branches decided by data', () => {
  it('refuses the branch the order contradicts, naming the status read and the branch it allows', async () => {
    const client = await legacyClient(gateway);
    const runId = await loaded(client);
    await authenticated(client);
    await moves(client, 'CHK_CANCEL');
    await client.call('get_order_details', { order_id: LUGGAGE_DELIVERED });
    await moves(client, 'IS_PENDING_C');
    const held = await client.call('goto_node', { node_id: 'COLLECT_CANCEL' });
    expect(held.answer).toMatchObject({ valid: false, current_node: 'IS_PENDING_C', valid_next: ['DENY_CANCEL', 'START', 'ROUTE'] });
    expect(held.answer.error).toBe(
      'Cannot go to COLLECT_CANCEL from IS_PENDING_C: that branch needs get_order_details.status == pending, and get_order_details ' +
        `answered order_id "${LUGGAGE_DELIVERED}": status = "delivered". The data allows DENY_CANCEL (get_order_details.status != pending).`,
    );
    await moves(client, 'DENY_CANCEL');
    const audit = await gateway.store.audit(runId, { limit: 100 });
    expect(audit.filter((entry) => entry.outcome === 'refused').map((entry) => [entry.tool, entry.detail])).toEqual([
      ['goto_node', { kind: 'move', rule: 'data', sop: REPO_BUNDLE.agents[RETAIL]!.sourceHash }],
    ]);
    await client.close();
  });

  it('shows each edge its condition in the answer at the decision node', async () => {
    const client = await legacyClient(gateway);
    await loaded(client);
    await authenticated(client);
    await moves(client, 'CHK_CANCEL');
    await client.call('get_order_details', { order_id: SOPHIA_PENDING });
    const decision = await client.call('goto_node', { node_id: 'IS_PENDING_C' });
    expect(decision.answer.edges).toEqual([
      { to: 'DENY_CANCEL', condition: 'no', when: 'get_order_details.status != pending' },
      { to: 'COLLECT_CANCEL', condition: 'yes', when: 'get_order_details.status == pending' },
    ]);
    await client.close();
  });

  it('holds a branch for the orders whose data satisfies it: with one pending and one delivered read, only the pending one is cancelled', async () => {
    const client = await legacyClient(gateway, 'yes');
    await loaded(client);
    await authenticated(client);
    await moves(client, 'INFO');
    await client.call('get_order_details', { order_id: SOPHIA_PENDING });
    await client.call('get_order_details', { order_id: TABLET_DELIVERED });
    await moves(client, 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL');
    const before = gateway.database();
    const wrong = await client.call('cancel_pending_order', { order_id: TABLET_DELIVERED, reason: 'no longer needed' });
    expect(wrong.answer).toMatchObject({ refused_by: 'data', current_node: 'DO_CANCEL' });
    expect(wrong.answer.error).toBe(
      `cancel_pending_order names order_id "${TABLET_DELIVERED}", but the way here decided for "${SOPHIA_PENDING}" only ` +
        `(at IS_PENDING_C: get_order_details.status == pending). Use that one, or go back and decide for this one first.`,
    );
    expect(client.asked).toEqual([]);
    expect(gateway.database()).toEqual(before);
    expect((await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' })).isError).toBe(false);
    expect(gateway.database().orders[SOPHIA_PENDING].status).toBe('cancelled');
    await client.close();
  });
});

describe('a change of unknown outcome', () => {
  const retail = REPO_BUNDLE.agents[RETAIL]!;
  const server: McpServerRef = retail.meta.mcpServers[0]!;
  const crashing: SopBundle = {
    ...REPO_BUNDLE,
    agents: {
      [RETAIL]: {
        ...retail,
        meta: {
          ...retail.meta,
          mcpServers: [{ ...server, env: { ...server.env, RETAIL_TOOLS_CRASH_ON: 'modify_pending_order_address' } }],
        },
      } as CompiledSop,
    },
  };

  it('is reconciled, not repeated: the same order waits for a read, then may be changed again', async () => {
    const faulty = await startGateway({ bundle: crashing, backoff: { initialMs: 200, maxMs: 500 } });
    try {
      const client = await legacyClient(faulty, 'yes');
      const runId = await loaded(client);
      await authenticated(client);
      await moves(client, 'CHK_MOD');
      await client.call('get_order_details', { order_id: SOPHIA_PENDING });
      await moves(client, 'IS_PENDING_M', 'COLLECT_MOD_ADDR', 'DO_MOD_ADDR');
      const address = { address1: '88 Harbor Road', address2: '', city: 'Portland', state: 'ME', country: 'USA', zip: '04101' };
      const lost = await client.call('modify_pending_order_address', { order_id: SOPHIA_PENDING, ...address });
      expect(lost.answer).toMatchObject({ server: 'retail-tools', reached: 'maybe' });
      // The server applied the change before it died: whether it did is what the agent cannot know.
      expect(faulty.database().orders[SOPHIA_PENDING].address.address1).toBe('88 Harbor Road');
      const upstream = faulty.domain.upstreams[0]!;
      for (let i = 0; i < 300 && upstream.status().state !== 'up'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      const again = await client.call('modify_pending_order_address', { order_id: SOPHIA_PENDING, ...address });
      expect(again.answer).toMatchObject({ refused_by: 'unknown-outcome', current_node: 'DO_MOD_ADDR' });
      expect(again.answer.error).toBe(
        `An earlier modify_pending_order_address on order_id "${SOPHIA_PENDING}" may or may not have taken effect (its outcome is unknown). ` +
          `Read order_id "${SOPHIA_PENDING}" again to see whether it did, before changing it again: nothing was sent.`,
      );
      // Read it again (at a step that offers the read), and the order may be changed again.
      await moves(client, 'ROUTE', 'INFO');
      expect((await client.call('get_order_details', { order_id: SOPHIA_PENDING })).answer.address.address1).toBe('88 Harbor Road');
      await moves(client, 'ROUTE', 'CHK_MOD', 'IS_PENDING_M', 'COLLECT_MOD_ADDR', 'DO_MOD_ADDR');
      const settled = await client.call('modify_pending_order_address', { order_id: SOPHIA_PENDING, ...address, address2: 'Unit 2' });
      expect(settled.answer).toMatchObject({ reached: 'maybe' }); // the fault switch crashes it again: it was sent
      const rules = (await faulty.store.audit(runId, { limit: 200 }))
        .filter((entry) => entry.tool === 'modify_pending_order_address')
        .map((entry) => [entry.outcome, domainDetailOf(entry)?.phase, domainDetailOf(entry)?.rule]);
      // Asked (the user said yes), sent, unknown; held before anything was asked; then asked, sent and unknown again.
      expect(rules).toEqual([
        ['pending', 'decided', 'confirmation'],
        ['pending', 'forwarding', 'confirmation'],
        ['unknown', 'answered', 'confirmation'],
        ['refused', 'decided', 'unknown-outcome'],
        ['pending', 'decided', 'confirmation'],
        ['pending', 'forwarding', 'confirmation'],
        ['unknown', 'answered', 'confirmation'],
      ]);
      await client.close();
    } finally {
      await faulty.close();
    }
  });
});
