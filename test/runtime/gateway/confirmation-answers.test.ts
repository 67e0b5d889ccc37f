/**
 * The user's answer to a gateway question comes back with the retried call (the 2026-07-28 `requestState`, the id of
 * the question the run holds). Only the answer to the run's open question, about exactly this call, where the run
 * stands, in time, and from the principal that owns the run, is taken; every other is refused and sends nothing.
 * Any instance sharing the store takes a valid one: a round-robin balancer between two instances on PostgreSQL.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_LIFETIME_MS } from '../../../contract/run/call.js';
import type { SopHttpServer } from '../../../runtime/http/serve-http.js';
import { type CallAnswer, type Caller, isQuestion } from '../../../runtime/service/session-service.js';
import { openRunStore } from '../../../runtime/store/open-run-store.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';
import { callOn, type GatewayUnderTest, httpGateway, RETAIL, SEED_DB, startGateway } from '../../support/gateway.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';

type Call = (name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; answer: any; text: string }>;

/** Load the retail agent and walk to DO_CANCEL for `orderId` (the order read at CHK_CANCEL); returns the run id. */
async function toDoCancel(call: Call, email: string, orderId: string): Promise<string> {
  const runId = (await call('load_graph', { agent: RETAIL })).answer.run_id as string;
  const run = { run_id: runId };
  for (const node_id of ['START', 'AUTH']) await call('goto_node', { node_id, ...run });
  expect((await call('find_user_id_by_email', { email, ...run })).isError).toBe(false);
  for (const node_id of ['ROUTE', 'CHK_CANCEL']) await call('goto_node', { node_id, ...run });
  expect((await call('get_order_details', { order_id: orderId, ...run })).isError).toBe(false);
  for (const node_id of ['IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL']) {
    expect((await call('goto_node', { node_id, ...run })).answer.valid, node_id).toBe(true);
  }
  return runId;
}

describe('answers that are not taken', () => {
  let gateway: GatewayUnderTest;
  let now = Date.parse('2026-11-28T09:00:00Z');
  const owner: Caller = { principal: 'alice' };
  const asCall =
    (caller: Caller): Call =>
    async (name, args) => {
      const answer = await gateway.service.callTool(name, args, caller);
      return callOn({ callTool: async () => answer }, name, args);
    };
  /**
   * At DO_CANCEL with a question open; returns the call's arguments and the question's id. Jonas's order unless
   * the test sends the call (the retail server keeps its data in memory: each order is cancelled once).
   */
  const asked = async (
    email = 'jonas.mueller6620@example.com',
    orderId = '#W3390814',
  ): Promise<{ args: Record<string, unknown>; id: string }> => {
    const runId = await toDoCancel(asCall(owner), email, orderId);
    const args = { order_id: orderId, reason: 'no longer needed', run_id: runId };
    const question = await gateway.service.callTool('cancel_pending_order', args, owner, { canAsk: true });
    if (!isQuestion(question)) throw new Error('expected a question');
    return { args, id: question.question.id };
  };
  const answering = (args: Record<string, unknown>, id: string, caller: Caller = owner): Promise<CallAnswer> =>
    gateway.service.callTool('cancel_pending_order', args, caller, { canAsk: true, answer: { id, yes: true } });
  const refusal = (answer: CallAnswer): { error: string; refused_by: string } => {
    if (isQuestion(answer)) throw new Error(`expected a refusal, got a question: ${answer.question.message}`);
    expect(answer.isError).toBe(true);
    const text = answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return (answer.structuredContent ?? JSON.parse(text)) as { error: string; refused_by: string };
  };

  beforeAll(async () => {
    gateway = await startGateway({ clock: { now: () => now } });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('a changed request state', async () => {
    const before = readFileSync(gateway.db, 'utf8');
    const { args } = await asked();
    const forged = refusal(await answering(args, 'q_forged'));
    expect(forged.refused_by).toBe('confirmation');
    expect(forged.error).toContain('does not match the question the run asked');
    expect(forged.error).toContain('Nothing was sent');
    expect(readFileSync(gateway.db, 'utf8')).toBe(before);
  });

  it('an answer about other arguments', async () => {
    const { args, id } = await asked();
    const other = refusal(await answering({ ...args, reason: 'ordered by mistake' }, id));
    expect(other.error).toContain('This answer was given about another call');
  });

  it('an answer used already: the yes sends one call, the same answer again is refused', async () => {
    const { args, id } = await asked('mei.chen2719@example.com', '#W6619432');
    const sent = await answering(args, id);
    expect(!isQuestion(sent) && sent.isError !== true).toBe(true);
    expect(gateway.database().orders['#W6619432'].status).toBe('cancelled');
    expect(refusal(await answering(args, id)).error).toContain('This answer is for no open question of this run: it was used already');
  });

  it('an answer after the run moved away and came back', async () => {
    const { args, id } = await asked();
    const call = asCall(owner);
    for (const node_id of ['ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL']) {
      expect((await call('goto_node', { node_id, run_id: args.run_id })).answer.valid, node_id).toBe(true);
    }
    expect(refusal(await answering(args, id)).error).toContain('no open question of this run');
  });

  it('an answer that comes too late', async () => {
    const { args, id } = await asked();
    now += QUESTION_LIFETIME_MS + 60_000;
    const late = refusal(await answering(args, id));
    expect(late.error).toContain('The question expired: it was asked 11 minutes ago, and an answer is good for 10.');
    expect(gateway.database().orders['#W3390814'].status).toBe('pending');
  });

  it('an answer sent by another principal: the run is not theirs, and the owner can still answer', async () => {
    const { args, id } = await asked('amara.okafor1357@example.com', '#W2240671');
    const stranger = await answering(args, id, { principal: 'mallory' });
    expect(isQuestion(stranger) ? '' : JSON.stringify(stranger)).toContain('Unknown run');
    expect(gateway.database().orders['#W2240671'].status).toBe('pending');
    const audit = await gateway.store.audit(args.run_id as string, { limit: 500 });
    expect(audit.filter((entry) => entry.tool === 'cancel_pending_order').at(-1)?.outcome).toBe('pending');
    const sent = await answering(args, id);
    expect(!isQuestion(sent) && sent.isError !== true).toBe(true);
    expect(gateway.database().orders['#W2240671'].status).toBe('cancelled');
  });

  it('each refused answer is audited with the confirmation rule', async () => {
    const { args } = await asked();
    await answering(args, 'q_forged');
    const audit = await gateway.store.audit(args.run_id as string, { limit: 500 });
    const last = audit.filter((entry) => entry.tool === 'cancel_pending_order').at(-1);
    expect(last?.outcome).toBe('refused');
    expect(domainDetailOf(last!)?.rule).toBe('confirmation');
    expect(last?.error).toContain('does not match the question');
  });
});

describe('two instances on PostgreSQL behind a round-robin balancer', () => {
  let cluster: PostgresCluster;
  let dir: string;
  const gateways: GatewayUnderTest[] = [];
  const servers: SopHttpServer[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const { url } = await cluster.createSchema();
    dir = mkdtempSync(join(tmpdir(), 'sop-answers-'));
    const db = join(dir, 'retail.json');
    copyFileSync(SEED_DB, db);
    for (let i = 0; i < 2; i += 1) {
      const opened = await openRunStore(url, { root: dir });
      if (!opened.ok) throw new Error(opened.error);
      const gateway = await startGateway({ store: opened.store, db });
      gateways.push(gateway);
      servers.push(await httpGateway(gateway));
    }
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const gateway of gateways) await gateway.close();
    await cluster?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('a question asked by one instance is answered at the other: the yes sends the call once', async () => {
    const served: number[] = [];
    let next = 0;
    const balanced = (input: string | URL | Request, init?: RequestInit) => {
      const instance = next++ % 2;
      served.push(instance);
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = String(servers[instance]!.port);
      return fetch(url, init);
    };
    const asked: string[] = [];
    const client = new Client(
      { name: 'modern', version: '0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(servers[0]!.url), { fetch: balanced }));
    const call: Call = (name, args) => callOn(client, name, args);
    const runId = await toDoCancel(call, 'amara.okafor1357@example.com', '#W2240671');
    const before = served.length;
    const yes = await call('cancel_pending_order', { order_id: '#W2240671', reason: 'ordered by mistake', run_id: runId });
    expect(yes.isError, yes.text).toBe(false);
    expect(asked).toHaveLength(1);
    // The question and its answer were two requests, and the balancer sent them to different instances.
    const legs = served.slice(before);
    expect(legs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(legs).size).toBe(2);
    const db = JSON.parse(readFileSync(gateways[0]!.db, 'utf8'));
    expect(db.orders['#W2240671'].status).toBe('cancelled');
    const cancels = (await gateways[1]!.store.audit(runId, { limit: 200 })).filter((entry) => entry.tool === 'cancel_pending_order');
    expect(cancels.map((entry) => [entry.outcome, domainDetailOf(entry)?.confirmation])).toEqual([
      ['pending', 'asked'],
      ['pending', 'yes'],
      ['ok', 'yes'],
    ]);
    await client.close();
  });
});
