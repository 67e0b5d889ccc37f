/**
 * Row 6: Streamable HTTP on loopback, our `serve --http` against the minimal SDK server (one McpServer and
 * transport per session, the SDK's documented pattern), both driven by the same lean client.
 *   - throughput: 64 concurrent sessions walking the flowchart with `goto_node` (the floor: calling its no-op
 *     tool), calls/s as the median of fixed-size windows after a warm-up; goal ≥ 0.8 of the floor.
 *   - memory per idle session: in a fresh server, RSS growth after opening many sessions that each did one
 *     call (ours: `load_graph`), per session; goal ≤ 40 KiB. The floor column is the SDK's own cost. The
 *     growth includes one-time costs (V8's young generation grows under the allocation rate of the first
 *     sessions' requests), so the note adds the marginal cost: RSS growth over as many sessions again, per
 *     session, in the same server.
 *   - RSS before and after 100k calls (after warm-up): flat, i.e. after ÷ before ≤ 1.1.
 * Server RSS is read from /proc/<pid>/status, the client runs in the bench process.
 */
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { HttpSession, keepAliveAgent } from '../clients/http-session.js';
import { toAnswer } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { freePort, rssKiB, startNode, stop, waitFor } from '../processes.js';
import { missing, NOOP_FLOOR } from '../project.js';
import { row, unmeasured, type Row } from '../report.js';
import { median } from '../stats.js';
import { assertMoved, cycle, recordWalk } from '../walk.js';
import { benchAgent } from './agent-choice.js';

const THROUGHPUT = { name: 'http calls/s, 64 sessions ÷ no-op floor', goal: '>= 0.8', unit: 'calls/s' } as const;
const IDLE = { name: 'http server RSS per idle session', goal: '<= 40', goalOn: 'value', unit: 'KiB' } as const;
const FLAT = { name: 'http server RSS after ÷ before 100k calls', goal: '<= 1.1', unit: 'MiB' } as const;

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
}

async function startServer(args: readonly string[], cwd: string, signal: AbortSignal): Promise<Server> {
  const port = await freePort();
  const child = startNode([...args, '--http', '--port', String(port)], { cwd, signal });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-1000)));
  child.stdout?.resume();
  const probe = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`server exited: ${stderr}`));
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve();
      });
      socket.on('error', reject);
    });
  await waitFor(probe, 15_000, `HTTP server on port ${port}`);
  return { child, port };
}

/** How a kind of server is driven: what a session does once opened, and the call it repeats. */
interface Driver {
  readonly label: string;
  readonly args: readonly string[];
  prepare(session: HttpSession): Promise<() => Promise<unknown>>;
}

function noopDriver(): Driver {
  return {
    label: 'no-op floor',
    args: [NOOP_FLOOR],
    async prepare(session) {
      await session.callTool('noop', { node_id: 'X' });
      return () => session.callTool('noop', { node_id: 'X' });
    },
  };
}

function ourDriver(cli: string, agent: string): Driver {
  let walk: string[] | undefined;
  return {
    label: 'serve --http',
    args: [cli, 'serve'],
    async prepare(session) {
      const loaded = toAnswer(await session.callTool('load_graph', { agent }));
      if (loaded.isError) throw new Error(`load_graph(${agent}) failed: ${loaded.text.slice(0, 300)}`);
      const entry = String(loaded.data.entry_node ?? 'START');
      const goto = async (id: string) => toAnswer(await session.callTool('goto_node', { node_id: id }));
      // The first session records the tour; the others replay it (every session starts at the entry node).
      walk ??= await recordWalk(goto, entry, 200);
      const next = cycle(walk);
      return async () => {
        const target = next();
        const answer = toAnswer(await session.callTool('goto_node', { node_id: target }));
        if (answer.isError) assertMoved(answer, target);
      };
    },
  };
}

/** 64 sessions, `total` calls after `warmup` calls each; calls/s per window, RSS before and after. */
async function loadTest(ctx: BenchContext, driver: Driver, cwd: string, sessions: number, total: number, windows: number) {
  const server = await startServer(driver.args, cwd, ctx.signal);
  try {
    const agent = keepAliveAgent(sessions);
    const calls: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < sessions; i++) calls.push(await driver.prepare(await HttpSession.open(server.port, agent)));
    const runCalls = async (count: number, onDone?: (done: number) => void): Promise<void> => {
      let issued = 0;
      let done = 0;
      await Promise.all(
        calls.map(async (call) => {
          while (issued < count) {
            issued++;
            await call();
            onDone?.(++done);
          }
        }),
      );
    };
    await runCalls(sessions * (ctx.quick ? 5 : 100));
    await new Promise((r) => setTimeout(r, 200));
    const rssBefore = rssKiB(server.child.pid as number);
    const windowSize = Math.floor(total / windows);
    const rates: number[] = [];
    let windowStart = process.hrtime.bigint();
    ctx.log(`row 6: ${driver.label}: ${total} calls over ${sessions} sessions`);
    await runCalls(total, (done) => {
      if (done % windowSize !== 0) return;
      const now = process.hrtime.bigint();
      rates.push(windowSize / (Number(now - windowStart) / 1e9));
      windowStart = now;
    });
    await new Promise((r) => setTimeout(r, 200));
    const rssAfter = rssKiB(server.child.pid as number);
    agent.destroy();
    return { callsPerSecond: median(rates), rssBefore, rssAfter };
  } finally {
    await stop(server.child);
  }
}

/** RSS growth per session in a fresh server, in KiB: over the first `count` sessions, and over `count` more. */
async function idleCost(ctx: BenchContext, driver: Driver, cwd: string, count: number): Promise<{ first: number; marginal: number }> {
  const server = await startServer(driver.args, cwd, ctx.signal);
  try {
    const warmAgent = keepAliveAgent(1);
    const warmCall = await driver.prepare(await HttpSession.open(server.port, warmAgent));
    for (let i = 0; i < 20; i++) await warmCall();
    await new Promise((r) => setTimeout(r, 300));
    const agent = keepAliveAgent(16);
    const openSessions = async (): Promise<number> => {
      let opened = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (opened < count) {
            opened++;
            await driver.prepare(await HttpSession.open(server.port, agent));
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 500));
      return rssKiB(server.child.pid as number);
    };
    const before = rssKiB(server.child.pid as number);
    const afterFirst = await openSessions();
    const afterSecond = await openSessions();
    agent.destroy();
    warmAgent.destroy();
    return { first: (afterFirst - before) / count, marginal: (afterSecond - afterFirst) / count };
  } finally {
    await stop(server.child);
  }
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const absent = missing('serveCommand');
  if (absent) return [unmeasured(THROUGHPUT, absent), unmeasured(IDLE, absent), unmeasured(FLAT, absent)];
  const fixture = await ctx.fixture();
  const agentName = benchAgent(fixture);
  const ours = ourDriver(fixture.cli, agentName);
  const floor = noopDriver();
  const sessions = ctx.quick ? 8 : 64;
  const total = ctx.quick ? 400 : 100_000;
  const floorTotal = ctx.quick ? 400 : 20_000;

  const floorLoad = await loadTest(ctx, floor, fixture.dir, sessions, floorTotal, 5);
  const ourLoad = await loadTest(ctx, ours, fixture.dir, sessions, total, 10);
  const idleSessions = ctx.quick ? 20 : 1000;
  ctx.log(`row 6: memory of ${idleSessions} + ${idleSessions} idle sessions`);
  const floorIdle = await idleCost(ctx, floor, fixture.dir, idleSessions);
  const ourIdle = await idleCost(ctx, ours, fixture.dir, idleSessions);
  const quickNote = ctx.quick ? `quick mode: ${sessions} sessions, ${total} calls` : '';
  return [
    row({
      ...THROUGHPUT,
      value: ourLoad.callsPerSecond,
      floor: floorLoad.callsPerSecond,
      note: quickNote || `${sessions} sessions, goto_node on ${agentName}; lean client in the bench process`,
    }),
    row({
      ...IDLE,
      value: ourIdle.first,
      floor: floorIdle.first,
      note:
        `${idleSessions} sessions, each after one call (ours: load_graph); marginal, over ${idleSessions} more: ` +
        `${ourIdle.marginal.toFixed(1)} KiB (floor ${floorIdle.marginal.toFixed(1)} KiB)`,
    }),
    row({
      ...FLAT,
      value: ourLoad.rssAfter / 1024,
      floor: ourLoad.rssBefore / 1024,
      note: `value = RSS after, floor = RSS before ${total} calls; no-op floor server: ${(floorLoad.rssBefore / 1024).toFixed(1)} → ${(floorLoad.rssAfter / 1024).toFixed(1)} MiB over ${floorTotal} calls`,
    }),
  ];
}

export const httpRow: BenchRow = {
  id: 'http',
  title: 'Streamable HTTP',
  specs: [THROUGHPUT, IDLE, FLAT],
  budgetMs: 150_000,
  run,
};
