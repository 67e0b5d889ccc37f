/**
 * How the user's yes is obtained depends on what the client can do, and each way is tested with real clients:
 *   - a 2026-07-28 client over HTTP that declares elicitation: the call answers `input_required`; the v2 client
 *     asks its user and retries the call with the answer (any instance could take the retry: the question waits in
 *     the run, not in the process; `confirmation-answers.test.ts` has the answers that are refused);
 *   - a 2025-era client over HTTP that declared elicitation: asked on the event stream of the call's own POST, its
 *     answer POSTed back;
 *   - a client that does not declare elicitation (over HTTP or a connection): the flowchart's confirmation step
 *     stands in, one call per entry into it.
 * The retail SOP's confirmation steps are its DO_* nodes (confirm, then act), so "one call per entry" is what
 * shows there.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopHttpServer } from '../../../runtime/http/serve-http.js';
import { callOn, type GatewayUnderTest, httpGateway, legacyClient, RETAIL, startGateway } from '../../support/gateway.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';

let gateway: GatewayUnderTest;
let http: SopHttpServer;
beforeAll(async () => {
  gateway = await startGateway();
  http = await httpGateway(gateway);
});
afterAll(async () => {
  await http?.close();
  await gateway?.close();
});

type Call = (name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; answer: any; text: string }>;

/** Load the retail agent and walk to DO_CANCEL for `orderId`, the order read at CHK_CANCEL; returns the run id. */
async function toDoCancel(call: Call, email: string, orderId: string, withRunId: boolean): Promise<string> {
  const runId = (await call('load_graph', { agent: RETAIL })).answer.run_id as string;
  const run = withRunId ? { run_id: runId } : {};
  for (const node_id of ['START', 'AUTH']) await call('goto_node', { node_id, ...run });
  expect((await call('find_user_id_by_email', { email, ...run })).isError).toBe(false);
  for (const node_id of ['ROUTE', 'CHK_CANCEL']) await call('goto_node', { node_id, ...run });
  expect((await call('get_order_details', { order_id: orderId, ...run })).isError).toBe(false);
  for (const node_id of ['IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL']) {
    expect((await call('goto_node', { node_id, ...run })).answer.valid, node_id).toBe(true);
  }
  return runId;
}

describe('a 2026-07-28 client that can ask its user (elicitation), over HTTP', () => {
  it('gets input_required, asks, retries with the answer: yes sends the call; a second call asks again', async () => {
    const asked: string[] = [];
    const answers = [false, true, false];
    const client = new ClientV2(
      { name: 'modern', version: '0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { confirm: answers.shift() ?? false } };
    });
    await client.connect(new HttpV2(new URL(http.url)));
    const call: Call = (name, args) => callOn(client, name, args);
    const runId = await toDoCancel(call, 'mei.chen2719@example.com', '#W6619432', true);
    const no = await call('cancel_pending_order', { order_id: '#W6619432', reason: 'no longer needed', run_id: runId });
    expect(no.answer.refused_by).toBe('confirmation');
    expect(gateway.database().orders['#W6619432'].status).toBe('pending');
    const yes = await call('cancel_pending_order', { order_id: '#W6619432', reason: 'no longer needed', run_id: runId });
    expect(yes.isError).toBe(false);
    expect(gateway.database().orders['#W6619432'].status).toBe('cancelled');
    const again = await call('cancel_pending_order', { order_id: '#W6619432', reason: 'no longer needed', run_id: runId });
    expect(again.answer.refused_by).toBe('confirmation');
    expect(asked).toHaveLength(3);
    expect(asked[0]).toContain('cancel_pending_order with order_id: "#W6619432", reason: "no longer needed"');
    await client.close();
  });
});

describe('a 2025-era client over HTTP that declared elicitation', () => {
  it('is asked on the event stream of the call: a no sends nothing, a yes sends the call, and the audit says so', async () => {
    const asked: string[] = [];
    const answers = [false, true];
    const client = new ClientV1({ name: 'legacy-http', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: answers.shift() ?? false } };
    });
    await client.connect(new HttpV1(new URL(http.url)));
    const call: Call = (name, args) => callOn(client, name, args);
    const runId = await toDoCancel(call, 'amara.okafor1357@example.com', '#W2240671', false);
    const args = { order_id: '#W2240671', reason: 'ordered by mistake' };
    const no = await call('cancel_pending_order', args);
    expect(no.answer).toMatchObject({ refused_by: 'confirmation', policy: 'confirm_before_changes' });
    expect(no.answer.error).toContain('The user did not allow cancel_pending_order');
    expect(gateway.database().orders['#W2240671'].status).toBe('pending');
    const yes = await call('cancel_pending_order', args);
    expect(yes.isError, yes.text).toBe(false);
    expect(gateway.database().orders['#W2240671'].status).toBe('cancelled');
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain('cancel_pending_order with order_id: "#W2240671", reason: "ordered by mistake"');
    const cancels = (await gateway.store.audit(runId, { limit: 200 })).filter((entry) => entry.tool === 'cancel_pending_order');
    expect(cancels.map((entry) => [entry.outcome, domainDetailOf(entry)?.confirmation])).toEqual([
      ['pending', 'asked'],
      ['refused', 'no'],
      ['pending', 'asked'],
      ['pending', 'yes'],
      ['ok', 'yes'],
    ]);
    await client.close();
  });

  it('a user who does not answer in time: nothing is sent, and the call says why', async () => {
    const patient = await startGateway();
    const hurried = await httpGateway(patient, { asking: { answerTimeoutMs: 300 } });
    let questions = 0;
    const client = new ClientV1({ name: 'legacy-http', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => {
      questions += 1;
      return new Promise(() => {});
    });
    try {
      await client.connect(new HttpV1(new URL(hurried.url)));
      const call: Call = (name, args) => callOn(client, name, args);
      await toDoCancel(call, 'sophia.martin4832@example.com', '#W4817420', false);
      const late = await call('cancel_pending_order', { order_id: '#W4817420', reason: 'no longer needed' });
      expect(late.isError).toBe(true);
      expect(late.answer.error).toContain('the user did not answer within 0.3 s: nothing was sent');
      expect(questions).toBe(1);
      expect(patient.database().orders['#W4817420'].status).toBe('pending');
    } finally {
      await client.close();
      await hurried.close();
      await patient.close();
    }
  });
});

describe('clients that cannot be asked: the confirmation step stands in, once per entry', () => {
  it('a 2025-era client over HTTP: the first change at DO_CANCEL goes through, a second needs the step again', async () => {
    const client = new ClientV1({ name: 'legacy-http', version: '0' });
    await client.connect(new HttpV1(new URL(http.url)));
    const call: Call = (name, args) => callOn(client, name, args);
    const runId = await toDoCancel(call, 'sophia.martin4832@example.com', '#W4817420', false);
    const first = await call('cancel_pending_order', { order_id: '#W4817420', reason: 'ordered by mistake' });
    expect(first.isError, first.text).toBe(false);
    const second = await call('cancel_pending_order', { order_id: '#W4817420', reason: 'ordered by mistake' });
    expect(second.isError).toBe(true);
    expect(second.answer).toMatchObject({ refused_by: 'confirmation', policy: 'confirm_before_changes' });
    expect(second.answer.error).toContain('this client cannot be asked directly');
    expect(second.answer.error).toContain('It was already used in this visit of DO_CANCEL.');
    const cancels = (await gateway.store.audit(runId, { limit: 200 })).filter((entry) => entry.tool === 'cancel_pending_order');
    expect(cancels.map((entry) => [entry.outcome, domainDetailOf(entry)?.confirmation])).toEqual([
      ['pending', 'step'],
      ['ok', 'step'],
      ['refused', undefined],
    ]);
    await client.close();
  });

  it('a client over a connection that does not declare elicitation: the same', async () => {
    const client = await legacyClient(gateway);
    const runId = await toDoCancel(client.call, 'jonas.mueller6620@example.com', '#W3390814', false);
    expect((await client.call('cancel_pending_order', { order_id: '#W3390814', reason: 'no longer needed' })).isError).toBe(false);
    expect((await client.call('cancel_pending_order', { order_id: '#W3390814', reason: 'no longer needed' })).answer.refused_by).toBe(
      'confirmation',
    );
    expect(gateway.database().orders['#W3390814'].status).toBe('cancelled');
    expect(
      (await gateway.store.audit(runId, { limit: 200 })).filter((entry) => entry.outcome === 'ok' && entry.tool === 'cancel_pending_order'),
    ).toHaveLength(1);
    await client.close();
  });
});
