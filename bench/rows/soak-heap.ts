/**
 * Row 17: what a soak leaves behind. A fresh `sop serve --http` (SQLite, the HTTP default) takes 128,000
 * `goto_node` calls over 64 sessions, then every session is DELETEd; the live heap then ÷ the live heap after
 * one conversation (a session that loads the agent, walks 20 steps and is DELETEd: what a first request costs
 * once, the code it compiles and the agent it prepares, is not what a soak leaves); goal ≤ 1.1 (issue 20: the
 * process must return to where it started).
 *
 * Live heap, not RSS: V8 keeps the heap it grew to serve 64 concurrent sessions (RSS after the soak is about
 * twice the cold start's, the minimal SDK server's three times; row 6 shows RSS flat once warm), and gives it
 * back only under memory pressure. A heap snapshot (`--heapsnapshot-signal`) collects all garbage first and
 * counts what is still reachable, so anything the process kept per session, run or call shows here.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HttpSession, keepAliveAgent } from '../clients/http-session.js';
import type { BenchContext, BenchRow } from '../context.js';
import { serveDriver, startHttpServer } from '../http-servers.js';
import { stop } from '../processes.js';
import { row, type Row } from '../report.js';
import { benchAgent } from './agent-choice.js';

const LIVE_HEAP = {
  name: 'live heap after 128k http calls and DELETE of every session ÷ after one conversation',
  goal: '<= 1.1',
  unit: 'MiB',
} as const;

/** Bytes reachable in a V8 heap snapshot: the sum of every node's self size. */
function liveBytes(file: string): number {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[] } };
    nodes: number[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const selfSize = fields.indexOf('self_size');
  let total = 0;
  for (let i = selfSize; i < snapshot.nodes.length; i += fields.length) total += snapshot.nodes[i] as number;
  return total;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agentName = benchAgent(fixture);
  const sessions = ctx.quick ? 8 : 64;
  const callsPerSession = ctx.quick ? 25 : 2000;
  const snapshots = join(ctx.tmp, 'soak-snapshots');
  mkdirSync(snapshots, { recursive: true });
  const driver = serveDriver(fixture.cli, agentName, `sqlite:${join(ctx.tmp, 'soak.db')}`);
  const server = await startHttpServer(
    ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`, ...driver.args],
    fixture.dir,
    ctx.signal,
  );
  const agent = keepAliveAgent(sessions);
  const pid = server.child.pid as number;
  // The signal is handled between two requests and the file written as the heap is walked: it is whole once it
  // parses (a request answered after the signal, or a size that stopped growing, is not proof enough).
  const snapshot = async (): Promise<number> => {
    const before = new Set(readdirSync(snapshots));
    process.kill(pid, 'SIGUSR2');
    const probe = HttpSession.sessionless(server.port, agent);
    let lastError: unknown;
    for (let waited = 0; waited < 60_000; waited += 250) {
      await probe.request('ping', {});
      const file = readdirSync(snapshots).find((name) => !before.has(name));
      if (file !== undefined) {
        try {
          const bytes = liveBytes(join(snapshots, file));
          rmSync(join(snapshots, file));
          return bytes;
        } catch (error) {
          lastError = error;
        }
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`the server wrote no whole heap snapshot within 60 s${lastError === undefined ? '' : ` (${String(lastError)})`}`);
  };
  // Two snapshots a second apart, the second counted: the first one's collection hands some objects to finalizers
  // (undici's registry of web Requests holds each request's abort signal until its finalizer has run), which run
  // after it; what is still there at the second is kept.
  const settledSnapshot = async (): Promise<number> => {
    await snapshot();
    await new Promise((r) => setTimeout(r, 1000));
    return snapshot();
  };
  try {
    const first = await HttpSession.open(server.port, agent);
    const warm = await driver.prepare(first);
    for (let i = 0; i < 20; i++) await warm();
    await first.close();
    const started = await settledSnapshot();
    ctx.log(`row 17: ${sessions * callsPerSession} calls over ${sessions} sessions, then DELETE of each`);
    await Promise.all(
      Array.from({ length: sessions }, async () => {
        const session = await HttpSession.open(server.port, agent);
        const call = await driver.prepare(session);
        for (let i = 0; i < callsPerSession; i++) await call();
        await session.close();
      }),
    );
    const after = await settledSnapshot();
    return [
      row({
        ...LIVE_HEAP,
        value: after / 2 ** 20,
        floor: started / 2 ** 20,
        note:
          `${ctx.quick ? 'quick mode; ' : ''}${sessions} sessions × ${callsPerSession} goto_node on ${agentName}, SQLite store, ` +
          'then DELETE of each; floor after one conversation; the second of two heap snapshots a second apart (all garbage collected first, finalizers run)',
      }),
    ];
  } finally {
    agent.destroy();
    await stop(server.child);
  }
}

export const soakHeapRow: BenchRow = {
  id: 'soak',
  title: 'what a soak leaves behind',
  specs: [LIVE_HEAP],
  budgetMs: 300_000,
  run,
};
