/**
 * Row 10: process memory per idle run with a durable store ÷ with the memory store, where idle runs must live in
 * the process; goal ≤ 0.1 ("near zero": idle runs live in the store, the process keeps a bounded cache of the
 * runs it served last).
 *
 * Measured by `bench/probes/idle-runs.ts` in a child process with `--expose-gc`: 20,000 runs started
 * (`load_graph`, one move) and left idle after a first 20,000, V8 heap growth after a full GC per run. The
 * note adds RSS per run, and the same probe for idle sessions (opened as the HTTP adapter opens them, each with
 * its current run), which is the precise counterpart of row 8's RSS figures.
 */
import { join } from 'node:path';
import type { BenchContext, BenchRow } from '../context.js';
import { runNode } from '../processes.js';
import { IDLE_RUNS_PROBE } from '../project.js';
import { row, type Row } from '../report.js';
import { benchAgent } from './agent-choice.js';

const SPEC = { name: 'process memory per idle run, SQLite ÷ memory store', goal: '<= 0.1', unit: 'B' } as const;

interface Probe {
  readonly heapBytes: number;
  readonly rssBytes: number;
  readonly externalBytes: number;
}

async function probe(ctx: BenchContext, dir: string, store: string, agent: string, count: number, sessions: boolean): Promise<Probe> {
  const args = ['--expose-gc', IDLE_RUNS_PROBE, dir, store, agent, String(count), ...(sessions ? ['--sessions'] : [])];
  const result = await runNode(args, { cwd: dir, timeoutMs: 180_000, signal: ctx.signal });
  if (result.code !== 0) throw new Error(`the idle-run probe on ${store} exited ${result.code}: ${result.stderr.slice(-400)}`);
  return JSON.parse(result.stdout) as Probe;
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KiB`;

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const runs = ctx.quick ? 300 : 20_000;
  const sessions = ctx.quick ? 100 : 2000;
  const sqlite = (name: string): string => `sqlite:${join(ctx.tmp, `${name}.db`)}`;
  ctx.log(`row 10: ${runs} + ${runs} idle runs, then ${sessions} + ${sessions} idle sessions, on SQLite and on memory`);
  const onSqlite = await probe(ctx, fixture.dir, sqlite('idle-runs'), agent, runs, false);
  const inMemory = await probe(ctx, fixture.dir, 'memory', agent, runs, false);
  const sessionsOnSqlite = await probe(ctx, fixture.dir, sqlite('idle-sessions-probe'), agent, sessions, true);
  const sessionsInMemory = await probe(ctx, fixture.dir, 'memory', agent, sessions, true);
  return [
    row({
      ...SPEC,
      value: onSqlite.heapBytes,
      floor: inMemory.heapBytes,
      note:
        `${ctx.quick ? 'quick mode; ' : ''}V8 heap after a full GC per run, over ${runs} runs after a first ${runs} (load_graph + one move on ${agent}), ` +
        `in process; RSS per run ${kib(onSqlite.rssBytes)} on SQLite vs ${kib(inMemory.rssBytes)} on memory; ` +
        `per idle session (openSession + load_graph + one move, over ${sessions} after ${sessions}): heap ${kib(sessionsOnSqlite.heapBytes)} ` +
        `on SQLite vs ${kib(sessionsInMemory.heapBytes)} on memory`,
    }),
  ];
}

export const idleRunsRow: BenchRow = {
  id: 'idle-runs',
  title: 'memory per idle run',
  specs: [SPEC],
  budgetMs: 240_000,
  run,
};
