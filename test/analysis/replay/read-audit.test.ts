/**
 * What a gateway's domain calls answered, read from its audit log (`read-audit.ts`): an answered entry's recorded
 * result (the server's structured content and text) as the call's result; a refused or failed call's error as an
 * error answer; a forwarding that no answer follows (outcome unknown) without one; the toolkit's own calls without
 * one (the log keeps their outcome, not their answer). And end to end: the audit a real gateway writes over the real
 * retail server reads back with the answers its client got.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer } from '../../../contract/run/call-results.js';
import type { ToolCallEvent } from '../../../analysis/replay/conversation.js';
import { readAudit } from '../../../analysis/replay/read-audit.js';
import { type GatewayUnderTest, legacyClient, RETAIL, startGateway } from '../../support/gateway.js';

const RUN = { runId: 'r1', agent: 'retail_customer_support', sourceHash: 'sha256:1' };
const domain = (phase: string, extra: object = {}) => ({
  kind: 'domain',
  server: 'retail-tools',
  rule: 'node-tools',
  sop: 'sha256:1',
  phase,
  ...extra,
});

function callsOf(audit: readonly unknown[]): ToolCallEvent[] {
  const read = readAudit({ run: RUN, audit });
  if (!read.ok) throw new Error(read.error);
  return read.conversation.events.filter((event): event is ToolCallEvent => event.kind === 'call');
}

describe('the answers in an audit log', () => {
  it('keeps an answered call’s recorded result, a refusal’s and a failure’s error, and nothing for an unanswered forwarding', () => {
    const user = { result: 'daiki_sanchez_3253' };
    const order = { order_id: '#W1', status: 'pending' };
    const calls = callsOf([
      { seq: 1, tool: 'load_graph', input: {}, outcome: 'ok' },
      {
        seq: 2,
        tool: 'find_user_id_by_email',
        input: { email: 'a@example.com', run_id: 'r1' },
        outcome: 'ok',
        detail: domain('answered', { read: true, result: { structured: user, text: JSON.stringify(user) } }),
      },
      {
        seq: 3,
        tool: 'get_order_details',
        input: { order_id: '#W2' },
        outcome: 'error',
        error: 'No order has the id "#W2".',
        detail: domain('answered', { read: true, result: { structured: { error: 'No order has the id "#W2".' }, isError: true } }),
      },
      {
        seq: 4,
        tool: 'cancel_pending_order',
        input: { order_id: '#W1' },
        outcome: 'refused',
        error: 'cancel_pending_order is not offered at ROUTE',
        detail: domain('decided'),
      },
      {
        seq: 5,
        tool: 'get_order_details',
        input: { order_id: '#W1' },
        outcome: 'ok',
        detail: domain('answered', { read: true, result: { structured: order } }),
      },
      { seq: 6, tool: 'cancel_pending_order', input: { order_id: '#W1' }, outcome: 'pending', detail: domain('forwarding') },
      {
        seq: 7,
        tool: 'cancel_pending_order',
        input: { order_id: '#W1' },
        outcome: 'unknown',
        error: 'The domain server retail-tools could not answer cancel_pending_order: timed out. The call may have reached it.',
        detail: domain('answered', { reached: 'maybe' }),
      },
      { seq: 8, tool: 'modify_user_address', input: { user_id: 'u' }, outcome: 'pending', detail: domain('forwarding') },
    ]);
    expect(calls.map((c) => [c.place, c.tool, c.failed ?? false, c.result ?? null])).toEqual([
      [{ seq: 1 }, 'load_graph', false, null],
      [{ seq: 2 }, 'find_user_id_by_email', false, { structured: user, text: JSON.stringify(user) }],
      [{ seq: 3 }, 'get_order_details', true, { structured: { error: 'No order has the id "#W2".' }, isError: true }],
      [{ seq: 4 }, 'cancel_pending_order', true, { text: 'cancel_pending_order is not offered at ROUTE', isError: true }],
      [{ seq: 5 }, 'get_order_details', false, { structured: order }],
      [
        { seq: 7 },
        'cancel_pending_order',
        true,
        {
          text: 'The domain server retail-tools could not answer cancel_pending_order: timed out. The call may have reached it.',
          isError: true,
        },
      ],
      [{ seq: 8 }, 'modify_user_address', false, null],
    ]);
    expect(calls.flatMap((c) => (c.result === undefined ? [] : [readAnswer(c.result)]))).toEqual([
      { kind: 'found', value: 'daiki_sanchez_3253' },
      { kind: 'error' },
      { kind: 'error' },
      { kind: 'found', value: order },
      { kind: 'error' },
    ]);
  });

  it('reads only the fields of a recorded result, and marks an answered failure as an error whatever its record says', () => {
    const calls = callsOf([
      {
        seq: 1,
        tool: 'find_user_id_by_name_zip',
        input: {},
        outcome: 'ok',
        detail: domain('answered', { result: { structured: null, text: '', isError: false, extra: 1 } }),
      },
      {
        seq: 2,
        tool: 'get_order_details',
        input: {},
        outcome: 'error',
        error: 'boom',
        detail: domain('answered', { result: { text: 'boom' } }),
      },
      { seq: 3, tool: 'get_user_details', input: {}, outcome: 'ok', detail: domain('answered', { result: 'not a result' }) },
    ]);
    expect(calls.map((c) => c.result ?? null)).toEqual([{ structured: null, text: '' }, { text: 'boom', isError: true }, null]);
    expect(readAnswer(calls[0]!.result!)).toEqual({ kind: 'empty' });
  });
});

describe('the audit of a real gateway', () => {
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('reads back each domain call with what the server answered: found, not found, refused', async () => {
    const client = await legacyClient(gateway);
    const runId = (await client.call('load_graph', { agent: RETAIL })).answer.run_id as string;
    const answers: { isError: boolean; answer: unknown; text: string }[] = [];
    for (const node of ['START', 'AUTH']) await client.call('goto_node', { node_id: node });
    answers.push(await client.call('find_user_id_by_email', { email: 'nobody@example.com' }));
    answers.push(await client.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' }));
    await client.call('goto_node', { node_id: 'ROUTE' });
    answers.push(await client.call('get_order_details', { order_id: '#W4817420' }));
    await client.call('goto_node', { node_id: 'CHK_CANCEL' });
    answers.push(await client.call('get_order_details', { order_id: '#W4817420' }));
    await client.close();
    const stored = await gateway.store.read(runId, 0);
    if (stored.status !== 'found') throw new Error(stored.status);
    const audit = await gateway.store.audit(runId);
    const read = readAudit({ run: stored.run, audit: JSON.parse(JSON.stringify(audit)) });
    if (!read.ok) throw new Error(read.error);
    const domain = read.conversation.events.filter(
      (e): e is ToolCallEvent => e.kind === 'call' && e.tool !== 'goto_node' && e.tool !== 'load_graph',
    );
    expect(domain.map((e) => [e.tool, e.result === undefined ? null : readAnswer(e.result).kind])).toEqual([
      ['find_user_id_by_email', 'error'],
      ['find_user_id_by_email', 'found'],
      ['get_order_details', 'error'],
      ['get_order_details', 'found'],
    ]);
    expect(answers.map((a) => a.isError)).toEqual([true, false, true, false]);
    // What the client got is what the audit kept: the server's structured answer (its JSON text is not kept twice), the
    // text of an answer without one, the gateway's refusal's error.
    expect(domain[1]!.result).toEqual({ structured: { user_id: 'sophia_martin_4832' } });
    expect(JSON.parse(answers[1]!.text)).toEqual(domain[1]!.result?.structured);
    expect(domain[3]!.result).toEqual({ structured: answers[3]!.answer });
    expect(domain[0]!.result).toEqual({ isError: true, structured: JSON.parse(answers[0]!.text) });
    expect(domain[2]!.result?.text).toEqual(audit.find((entry) => entry.outcome === 'refused')?.error);
  });
});
