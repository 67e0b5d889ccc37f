/**
 * Runs survive what production does to servers, on the real engines, with real `sop serve --http` processes and
 * the SDK client:
 *   - SQLite: `kill -9` of the server mid-conversation, a new server on the same data folder, and the client goes
 *     on with the same handles (its session and its run_id); every answered call is in the audit log.
 *   - PostgreSQL (a cluster this test starts): two instances; one conversation alternating between them; 32
 *     concurrent conversations × 200 calls spread at random, one instance killed with SIGKILL half-way, every
 *     run going on on the other. No lost update: each run's audit log replays, move by move, through the
 *     transition rule to exactly the path stored, and holds one entry per call made.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { nextPath } from '../../../contract/transitions.js';
import { openRunStore } from '../../../runtime/store/open-run-store.js';
import type { AuditEntry, RunStore } from '../../../runtime/store/run-store.js';
import { type PostgresCluster, startPostgresCluster } from '../../support/postgres-cluster.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { httpClient, type ServeProcess, startServe } from '../../support/serve-process.js';

const AGENT = 'retail_customer_support';
const bundle = JSON.parse(readFileSync(join(PROJECT_ROOT, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;
const table = bundle.agents[AGENT]!.transitions;

type Answer = Record<string, any>;

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  return result.structuredContent as Answer;
}

/** Replays a run's audit through the transition rule: every recorded move must be what the rule decides. */
function replay(audit: readonly AuditEntry[]): { path: readonly string[]; problems: string[] } {
  let path: readonly string[] = [];
  const problems: string[] = [];
  audit.forEach((entry, index) => {
    if (entry.seq !== index + 1) problems.push(`entry ${index} has seq ${entry.seq}`);
    if (entry.from !== (path.at(-1) ?? null)) problems.push(`seq ${entry.seq}: from ${entry.from}, the run was at ${path.at(-1)}`);
    if (entry.tool !== 'goto_node') return;
    const target = (entry.input as { node_id?: string }).node_id ?? '';
    const next = nextPath(table, path, target);
    if (entry.outcome === 'ok' && next === null) problems.push(`seq ${entry.seq}: ${entry.from} → ${target} accepted, the rule refuses it`);
    if (entry.outcome === 'refused' && next !== null)
      problems.push(`seq ${entry.seq}: ${entry.from} → ${target} refused, the rule allows it`);
    if (entry.outcome === 'ok' && next !== null) {
      path = next;
      if (entry.to !== target) problems.push(`seq ${entry.seq}: to ${entry.to}, moved to ${target}`);
    }
  });
  return { path, problems };
}

async function storedRun(
  store: RunStore,
  runId: string,
): Promise<{ path: readonly string[]; version: number; audit: readonly AuditEntry[] }> {
  const read = await store.read(runId, 0);
  if (read.status !== 'found') throw new Error(`run ${runId} is ${read.status}`);
  return { path: read.run.state.path, version: read.run.version, audit: await store.audit(runId, { limit: 10_000 }) };
}

describe('a run on SQLite after kill -9', () => {
  let dir: string;
  const servers: ServeProcess[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sop-kill-'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill('SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
  });

  it('goes on with the same session and run on a new server over the same data folder, nothing lost', async () => {
    const storeUrl = `sqlite:${join(dir, 'runs.db')}`;
    const first = await startServe(['--store', storeUrl], PROJECT_ROOT);
    servers.push(first);
    const { client, transport } = await httpClient(first.url);
    const sessionId = transport.sessionId as string;
    const runId = (await call(client, 'load_graph', { agent: AGENT })).run_id as string;
    for (const node of ['START', 'AUTH', 'ROUTE']) expect((await call(client, 'goto_node', { node_id: node })).valid).toBe(true);
    await call(client, 'todo', { todos: [{ content: 'Change the address', status: 'in_progress', completion_node: 'END_MOD' }] });
    // Mid-conversation: a burst of pipelined calls, and the server killed while they are in flight.
    const burst = ['CHK_MOD', 'IS_PENDING_M', 'ROUTE', 'CHK_CANCEL', 'ROUTE', 'INFO'].map((node) =>
      call(client, 'goto_node', { node_id: node }).then(
        (answer) => ({ node, answer }),
        () => ({ node, answer: undefined }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    await first.kill('SIGKILL');
    const answered = (await Promise.all(burst)).filter((sent) => sent.answer !== undefined);

    const second = await startServe(['--store', storeUrl], PROJECT_ROOT);
    servers.push(second);
    const again = await httpClient(second.url, sessionId);
    const where = await call(again.client, 'goto_node', { node_id: 'ROUTE' });
    expect(where.valid).toBe(true);
    expect(where.path).toEqual(['START', 'AUTH', 'ROUTE']);
    expect((await call(again.client, 'goto_node', { node_id: 'CHK_MOD', run_id: runId })).path).toEqual([
      'START',
      'AUTH',
      'ROUTE',
      'CHK_MOD',
    ]);
    await again.client.close();
    await second.stop();

    const opened = await openRunStore(storeUrl, { root: dir });
    if (!opened.ok) throw new Error(opened.error);
    const run = await storedRun(opened.store, runId);
    await opened.store.close();
    // Every answered call is in the log, in order; the log replays to the stored path.
    const logged = run.audit.map((entry) => `${entry.tool}:${(entry.input as { node_id?: string }).node_id ?? ''}`);
    expect(logged.slice(0, 5)).toEqual(['load_graph:', 'goto_node:START', 'goto_node:AUTH', 'goto_node:ROUTE', 'todo:']);
    for (const sent of answered) expect(logged).toContain(`goto_node:${sent.node}`);
    expect(logged.slice(-2)).toEqual(['goto_node:ROUTE', 'goto_node:CHK_MOD']);
    expect(run.audit.length).toBeGreaterThanOrEqual(5 + answered.length + 2);
    expect(run.audit.length).toBe(run.version);
    const replayed = replay(run.audit);
    expect(replayed.problems).toEqual([]);
    expect(replayed.path).toEqual(run.path);
  }, 60_000);
});

describe('two instances on one PostgreSQL cluster', () => {
  let cluster: PostgresCluster;
  let storeUrl: string;
  let instances: ServeProcess[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    storeUrl = await cluster.createDatabase();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((server) => server.kill('SIGKILL')));
    await cluster?.stop();
  });

  it('serve one conversation alternately, with the session or the run_id, and any instance continues it', async () => {
    instances = [await startServe(['--store', storeUrl], PROJECT_ROOT), await startServe(['--store', storeUrl], PROJECT_ROOT)];
    const onA = await httpClient(instances[0]!.url);
    const onB = await httpClient(instances[1]!.url, onA.transport.sessionId);
    const runId = (await call(onA.client, 'load_graph', { agent: AGENT })).run_id as string;
    const route = ['START', 'AUTH', 'ROUTE', 'CHK_MOD', 'IS_PENDING_M', 'COLLECT_MOD_ADDR', 'ROUTE', 'INFO'];
    for (const [index, node] of route.entries()) {
      const client = index % 2 === 0 ? onA.client : onB.client;
      const args = index % 3 === 0 ? { node_id: node, run_id: runId } : { node_id: node };
      expect((await call(client, 'goto_node', args)).valid, node).toBe(true);
    }
    const opened = await openRunStore(storeUrl, { root: PROJECT_ROOT });
    if (!opened.ok) throw new Error(opened.error);
    const run = await storedRun(opened.store, runId);
    await opened.store.close();
    expect(run.audit).toHaveLength(route.length + 1);
    expect(run.path).toEqual(['START', 'AUTH', 'ROUTE', 'INFO']);
    await onA.client.close();
    await onB.client.close();
  }, 60_000);

  it('keep 32 concurrent conversations × 200 calls consistent when one instance is killed half-way', async () => {
    const [a, b] = instances as [ServeProcess, ServeProcess];
    const conversations = 32;
    const callsEach = 200;
    let random = 20_261_124;
    const next = (n: number): number => {
      random = (random * 1_103_515_245 + 12_345) % 2 ** 31;
      return random % n;
    };
    let killed = false;
    let made = 0;
    const clients = await Promise.all(
      Array.from({ length: conversations }, async () => ({ a: await httpClient(a.url), b: await httpClient(b.url) })),
    );

    const converse = async (index: number): Promise<{ runId: string; answered: number; inDoubt: number }> => {
      const pair = clients[index]!;
      const pick = (): Client => (killed || next(2) === 0 ? pair.b.client : pair.a.client);
      let answered = 0;
      let inDoubt = 0;
      const send = async (name: string, args: Record<string, unknown>): Promise<Answer> => {
        for (;;) {
          const client = pick();
          try {
            const answer = await call(client, name, args);
            answered += 1;
            made += 1;
            if (made === Math.floor((conversations * callsEach) / 2)) {
              killed = true;
              void a.kill('SIGKILL');
            }
            return answer;
          } catch (error) {
            // The instance died under this call: it may or may not have committed. Send it again elsewhere.
            if (client !== pair.a.client) throw error;
            inDoubt += 1;
            killed = true;
          }
        }
      };
      const runId = (await send('load_graph', { agent: AGENT })).run_id as string;
      let options: string[] = ['START'];
      for (let i = 0; i < callsEach; i += 1) {
        if (next(10) === 0) {
          await send('todo', { todos: [{ content: `task ${i}`, status: 'pending' }], run_id: runId });
          continue;
        }
        const target = next(8) === 0 ? 'DO_CANCEL' : (options[next(options.length)] ?? 'START');
        const answer = await send('goto_node', { node_id: target, run_id: runId });
        if (answer.valid === true) options = [...new Set([...answer.edges.map((edge: { to: string }) => edge.to), 'START'])];
        else if (Array.isArray(answer.valid_next)) options = answer.valid_next;
      }
      return { runId, answered, inDoubt };
    };

    const results = await Promise.all(Array.from({ length: conversations }, (_, index) => converse(index)));
    expect(killed).toBe(true);
    expect(a.child.signalCode).toBe('SIGKILL');

    const opened = await openRunStore(storeUrl, { root: PROJECT_ROOT });
    if (!opened.ok) throw new Error(opened.error);
    for (const result of results) {
      const run = await storedRun(opened.store, result.runId);
      const replayed = replay(run.audit);
      expect(replayed.problems, result.runId).toEqual([]);
      expect(replayed.path, result.runId).toEqual(run.path);
      expect(run.version).toBe(run.audit.length);
      // One entry per call made: the answered ones, plus any in-doubt call the killed instance had committed.
      expect(run.audit.length).toBeGreaterThanOrEqual(result.answered);
      expect(run.audit.length).toBeLessThanOrEqual(result.answered + result.inDoubt);
    }
    await opened.store.close();
    await Promise.all(clients.map((pair) => pair.b.client.close()));
  }, 120_000);
});
