/**
 * Row 8: what an idle HTTP session costs the server process, ÷ what it costs the minimal SDK server (a stateful
 * server, one McpServer and transport per session, as `bench/floors/noop-server.ts` is); goal ≤ 0.75, on our
 * default store (SQLite) and on the memory store.
 *
 * A session here is what a client leaves behind: `initialize`, `notifications/initialized` and one call (ours:
 * `load_graph`, which starts a run; the floor: its no-op tool), then nothing. Our server keeps sessions and runs
 * in the store, so an idle session should cost the process close to nothing (on SQLite, rows in a file; on
 * memory, the store's own records).
 *
 * Measured as RSS growth (/proc/<pid>/status) per session in a fresh server, *after* a first batch of as many
 * sessions: the first batch pays one-time costs (V8's young generation grows under the requests' allocation
 * rate, code is compiled, SQLite's page cache fills), which are not a session's; the note gives that first
 * batch's figure too. The client is the lean HTTP client in the bench process.
 */
import { join } from 'node:path';
import { HttpSession, keepAliveAgent } from '../clients/http-session.js';
import type { BenchContext, BenchRow } from '../context.js';
import { type Driver, noopDriver, serveDriver, startHttpServer } from '../http-servers.js';
import { rssKiB, stop } from '../processes.js';
import { row, skippedInQuickMode, type Row } from '../report.js';
import { benchAgent } from './agent-choice.js';

const ON_SQLITE = { name: 'http idle session memory, SQLite store ÷ SDK server', goal: '<= 0.75', unit: 'KiB' } as const;
const ON_MEMORY = { name: 'http idle session memory, memory store ÷ SDK server', goal: '<= 0.75', unit: 'KiB' } as const;

interface IdleCost {
  /** RSS growth per session over the first `count` sessions of a fresh server, KiB. */
  readonly first: number;
  /** RSS growth per session over `count` more sessions, KiB: the row's figure. */
  readonly marginal: number;
}

async function idleCost(ctx: BenchContext, driver: Driver, cwd: string, count: number): Promise<IdleCost> {
  const server = await startHttpServer(driver.args, cwd, ctx.signal);
  const agent = keepAliveAgent(16);
  // Lets the server finish what the last requests left (closing request servers, timers) before RSS is read.
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, ctx.quick ? 50 : 500));
  try {
    const pid = server.child.pid as number;
    const warmCall = await driver.prepare(await HttpSession.open(server.port, agent));
    for (let i = 0; i < (ctx.quick ? 3 : 20); i++) await warmCall();
    await settle();
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
      await settle();
      return rssKiB(pid);
    };
    const before = rssKiB(pid);
    const afterFirst = await openSessions();
    const afterSecond = await openSessions();
    return { first: (afterFirst - before) / count, marginal: (afterSecond - afterFirst) / count };
  } finally {
    agent.destroy();
    await stop(server.child);
  }
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agentName = benchAgent(fixture);
  const count = ctx.quick ? 20 : 2000;
  ctx.log(`row 8: memory of ${count} + ${count} idle sessions, SDK floor, ours on SQLite${ctx.quick ? '' : ' and on memory'}`);
  const floor = await idleCost(ctx, noopDriver(), fixture.dir, count);
  const onSqlite = await idleCost(
    ctx,
    serveDriver(fixture.cli, agentName, `sqlite:${join(ctx.tmp, 'idle-sessions.db')}`),
    fixture.dir,
    count,
  );
  const note = (ours: IdleCost): string =>
    `${ctx.quick ? 'quick mode; ' : ''}RSS growth per session over ${count} sessions after a first ${count} ` +
    `(each: initialize + one call, ours load_graph on ${agentName}); over the first ${count}: ` +
    `ours ${ours.first.toFixed(1)} KiB, SDK server ${floor.first.toFixed(1)} KiB`;
  const sqliteRow = row({ ...ON_SQLITE, value: onSqlite.marginal, floor: floor.marginal, note: note(onSqlite) });
  if (ctx.quick) return [sqliteRow, skippedInQuickMode(ON_MEMORY, 'the same measurement as on SQLite, another server start')];
  const onMemory = await idleCost(ctx, serveDriver(fixture.cli, agentName, 'memory'), fixture.dir, count);
  return [sqliteRow, row({ ...ON_MEMORY, value: onMemory.marginal, floor: floor.marginal, note: note(onMemory) })];
}

export const idleSessionsRow: BenchRow = {
  id: 'idle-sessions',
  title: 'memory per idle HTTP session',
  specs: [ON_SQLITE, ON_MEMORY],
  budgetMs: 240_000,
  run,
};
