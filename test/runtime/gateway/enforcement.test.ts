/**
 * The gateway enforces the SOP on the domain tools themselves, with the real retail domain server upstream
 * (`examples/retail-tools` over stdio, its database in a file) and a real SDK client (2025-era, on a long-lived
 * connection: it can be asked mid-call when it declares elicitation). What reaches the domain server is checked
 * on the database the server writes, and on the calls the connection really sent.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../runtime/store/run-store.js';
import { authenticated, type GatewayUnderTest, legacyClient, RETAIL, startGateway } from '../../support/gateway.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';

let gateway: GatewayUnderTest;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.close();
});

const SOPHIA_PENDING = '#W4817420';
const MEI_PENDING = '#W6619432';
const LUGGAGE = '#W9834521';

async function auditOf(runId: string): Promise<readonly AuditEntry[]> {
  return gateway.store.audit(runId, { limit: 500 });
}

async function loaded(client: Awaited<ReturnType<typeof legacyClient>>): Promise<string> {
  const answer = await client.call('load_graph', { agent: RETAIL });
  return answer.answer.run_id as string;
}

describe('what the gateway offers', () => {
  it('lists the domain tools beside its own, with their own schemas and an optional run_id, the same list at every step', async () => {
    const client = await legacyClient(gateway);
    const before = (await client.client.listTools()).tools;
    expect(before.map((tool) => tool.name)).toEqual([
      'load_graph',
      'goto_node',
      'todo',
      'inspect',
      ...gateway.domain.upstreams[0]!.tools().map((tool) => tool.name),
    ]);
    const cancel = before.find((tool) => tool.name === 'cancel_pending_order')!;
    const upstream = gateway.domain.upstreams[0]!.tools().find((tool) => tool.name === 'cancel_pending_order')!;
    expect(cancel.description).toBe(upstream.description);
    expect(cancel.inputSchema.properties).toEqual({ ...upstream.inputSchema.properties, run_id: { type: 'string' } });
    expect(cancel.inputSchema.required).toEqual(upstream.inputSchema.required);
    await loaded(client);
    await authenticated(client);
    expect((await client.client.listTools()).tools).toEqual(before);
    await client.close();
  });
});

describe('calls at the wrong place', () => {
  it('refuses a domain call with no run, and before the first move, naming what to do', async () => {
    const client = await legacyClient(gateway);
    const before = readFileSync(gateway.db, 'utf8');
    const noRun = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' });
    expect(noRun.isError).toBe(true);
    expect(noRun.answer).toMatchObject({ refused_by: 'no-run', error: expect.stringMatching(/^No run is active.*call load_graph first/) });
    const runId = await loaded(client);
    const noMove = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' });
    expect(noMove.answer).toMatchObject({ refused_by: 'no-position', offered_at: ['DO_CANCEL'], valid_next: ['START'] });
    expect(readFileSync(gateway.db, 'utf8')).toBe(before);
    const audit = await auditOf(runId);
    expect(audit.at(-1)).toMatchObject({
      tool: 'cancel_pending_order',
      outcome: 'refused',
      detail: { rule: 'no-position', phase: 'decided' },
    });
    await client.close();
  });

  it("refuses the seed's own calls at steps that do not offer them, and the database stays as it was", async () => {
    const client = await legacyClient(gateway, 'yes');
    const runId = await loaded(client);
    const before = readFileSync(gateway.db, 'utf8');
    await client.call('goto_node', { node_id: 'START' });
    await client.call('goto_node', { node_id: 'AUTH' });
    const atAuth = await client.call('modify_user_address', {
      user_id: 'sophia_martin_4832',
      address1: '1 Main St',
      address2: '',
      city: 'X',
      state: 'IL',
      country: 'USA',
      zip: '60000',
    });
    expect(atAuth.isError).toBe(true);
    expect(atAuth.answer).toMatchObject({ refused_by: 'node-tools', current_node: 'AUTH', offered_at: ['DO_USER_ADDR'] });
    expect(atAuth.answer.error).toMatch(
      /^modify_user_address is not offered at AUTH: it is offered at DO_USER_ADDR\. AUTH offers find_user_id_by_email, find_user_id_by_name_zip; from AUTH you may go to ROUTE, START/,
    );
    await client.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });
    await client.call('goto_node', { node_id: 'ROUTE' });
    await client.call('goto_node', { node_id: 'CHK_CANCEL' });
    await client.call('get_order_details', { order_id: SOPHIA_PENDING });
    const early = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' });
    expect(early.answer).toMatchObject({ refused_by: 'node-tools', current_node: 'CHK_CANCEL', offered_at: ['DO_CANCEL'] });
    expect(client.asked).toEqual([]);
    expect(readFileSync(gateway.db, 'utf8')).toBe(before);
    const refusals = (await auditOf(runId)).filter((entry) => entry.outcome === 'refused');
    expect(refusals.map((entry) => [entry.tool, entry.from, domainDetailOf(entry)?.rule])).toEqual([
      ['modify_user_address', 'AUTH', 'node-tools'],
      ['cancel_pending_order', 'CHK_CANCEL', 'node-tools'],
    ]);
    await client.close();
  });
});

describe('evidence, not declarations', () => {
  it('keeps the run at AUTH until a lookup found the user; a lookup that failed does not count; going back is always open', async () => {
    const client = await legacyClient(gateway);
    await loaded(client);
    await client.call('goto_node', { node_id: 'START' });
    await client.call('goto_node', { node_id: 'AUTH' });
    const skipped = await client.call('goto_node', { node_id: 'ROUTE' });
    expect(skipped.answer).toMatchObject({ valid: false, current_node: 'AUTH', valid_next: ['START'] });
    expect(skipped.answer.error).toContain(
      'AUTH requires a call of find_user_id_by_email or find_user_id_by_name_zip (about the user_id this step is for) that found it in this run',
    );
    const notFound = await client.call('find_user_id_by_email', { email: 'nobody@example.com' });
    expect(notFound.isError).toBe(true);
    expect((await client.call('goto_node', { node_id: 'ROUTE' })).answer.valid).toBe(false);
    expect((await client.call('goto_node', { node_id: 'START' })).answer.valid).toBe(true);
    await client.call('goto_node', { node_id: 'AUTH' });
    const found = await client.call('find_user_id_by_name_zip', { first_name: 'Sophia', last_name: 'Martin', zip: '60614' });
    expect(found.answer).toEqual({ user_id: 'sophia_martin_4832' });
    expect((await client.call('goto_node', { node_id: 'ROUTE' })).answer).toMatchObject({ valid: true, path: ['START', 'AUTH', 'ROUTE'] });
    await client.close();
  });

  it('binds a change to the order the check step read: cancelling another order is refused, reading one is not', async () => {
    const client = await legacyClient(gateway, 'yes');
    await loaded(client);
    await authenticated(client);
    await client.call('goto_node', { node_id: 'CHK_CANCEL' });
    const early = await client.call('goto_node', { node_id: 'IS_PENDING_C' });
    expect(early.answer.error).toContain(
      'CHK_CANCEL requires a call of get_order_details (about the order_id this step is for) that found it in this run',
    );
    await client.call('get_order_details', { order_id: SOPHIA_PENDING });
    for (const node_id of ['IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL']) {
      expect((await client.call('goto_node', { node_id })).answer.valid).toBe(true);
    }
    const before = readFileSync(gateway.db, 'utf8');
    const other = await client.call('cancel_pending_order', { order_id: MEI_PENDING, reason: 'no longer needed' });
    expect(other.isError).toBe(true);
    expect(other.answer).toMatchObject({ refused_by: 'evidence' });
    expect(other.answer.error).toBe(
      `cancel_pending_order names order_id "${MEI_PENDING}", but this run read "${SOPHIA_PENDING}" only. Use one it read, or read this one first.`,
    );
    expect(client.asked).toEqual([]);
    expect(readFileSync(gateway.db, 'utf8')).toBe(before);
    await client.close();
  });

  it('lets the seed read the luggage order at COLLECT_MOD_ADDR (a read is free), and change only the order it checked', async () => {
    // The luggage order is read, so it is evidence; but the check step decided for the pending order only.
    const client = await legacyClient(gateway, 'yes');
    await loaded(client);
    await authenticated(client);
    await client.call('goto_node', { node_id: 'CHK_MOD' });
    await client.call('get_order_details', { order_id: SOPHIA_PENDING });
    for (const node_id of ['IS_PENDING_M', 'COLLECT_MOD_ADDR']) await client.call('goto_node', { node_id });
    const luggage = await client.call('get_order_details', { order_id: LUGGAGE });
    expect(luggage.isError).toBe(false);
    await client.call('goto_node', { node_id: 'DO_MOD_ADDR' });
    const wrong = await client.call('modify_pending_order_address', { order_id: LUGGAGE, ...luggage.answer.address });
    expect(wrong.answer.refused_by).toBe('data');
    expect(wrong.answer.error).toContain(`but the way here decided for "${SOPHIA_PENDING}" only`);
    const right = await client.call('modify_pending_order_address', { order_id: SOPHIA_PENDING, ...luggage.answer.address });
    expect(right.isError).toBe(false);
    expect(gateway.database().orders[SOPHIA_PENDING].address).toEqual(luggage.answer.address);
    await client.close();
  });
});

describe("the user's yes", () => {
  async function atDoCancel(answering?: Parameters<typeof legacyClient>[1], orderId = SOPHIA_PENDING) {
    const client = await legacyClient(gateway, answering);
    const runId = await loaded(client);
    await authenticated(client);
    await client.call('goto_node', { node_id: 'CHK_CANCEL' });
    await client.call('get_order_details', { order_id: orderId });
    for (const node_id of ['IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL']) await client.call('goto_node', { node_id });
    return { client, runId };
  }

  it('asks the user through the client; no sends nothing, and the audit log says what the user answered', async () => {
    const { client, runId } = await atDoCancel('no');
    const before = readFileSync(gateway.db, 'utf8');
    const declined = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'ordered by mistake' });
    expect(client.asked).toEqual([
      `The ${RETAIL} agent, at step DO_CANCEL of its procedure, asks to call cancel_pending_order with order_id: "${SOPHIA_PENDING}", reason: "ordered by mistake". Allow this one call?`,
    ]);
    expect(declined.isError).toBe(true);
    expect(declined.answer).toMatchObject({ refused_by: 'confirmation', policy: 'confirm_before_changes' });
    expect(readFileSync(gateway.db, 'utf8')).toBe(before);
    const audit = await auditOf(runId);
    expect(audit.slice(-2).map((entry) => [entry.outcome, domainDetailOf(entry)?.confirmation])).toEqual([
      ['pending', 'asked'],
      ['refused', 'no'],
    ]);
    await client.close();
  });

  it('yes sends that one call, once: the same call again asks again, and so do changed arguments', async () => {
    const answers = [true, false, false];
    const { client, runId } = await atDoCancel(() => answers.shift() ?? false);
    const sent = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' });
    expect(sent.isError).toBe(false);
    expect(gateway.database().orders[SOPHIA_PENDING].status).toBe('cancelled');
    const again = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' });
    expect(again.answer.refused_by).toBe('confirmation');
    const changed = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'ordered by mistake' });
    expect(changed.answer.refused_by).toBe('confirmation');
    expect(client.asked).toHaveLength(3);
    const cancels = (await auditOf(runId)).filter((entry) => entry.tool === 'cancel_pending_order');
    expect(cancels.map((entry) => [entry.outcome, domainDetailOf(entry)?.phase, domainDetailOf(entry)?.confirmation])).toEqual([
      ['pending', 'decided', 'asked'],
      ['pending', 'forwarding', 'yes'],
      ['ok', 'answered', 'yes'],
      ['pending', 'decided', 'asked'],
      ['refused', 'decided', 'no'],
      ['pending', 'decided', 'asked'],
      ['refused', 'decided', 'no'],
    ]);
    const answered = cancels.filter((entry) => domainDetailOf(entry)?.phase === 'answered');
    expect(answered).toEqual([
      expect.objectContaining({
        tool: 'cancel_pending_order',
        outcome: 'ok',
        from: 'DO_CANCEL',
        detail: expect.objectContaining({
          server: 'retail-tools',
          rule: 'confirmation',
          policy: 'confirm_before_changes',
          confirmation: 'yes',
          sop: gateway.service.catalog().byName(RETAIL)!.sourceHash,
          upstreamMs: expect.any(Number),
        }),
      }),
    ]);
    await client.close();
  });
});
