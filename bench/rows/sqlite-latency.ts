/**
 * Row 9: what the durable default costs a call: `goto_node` p50 with runs on SQLite ÷ with runs in memory; goal ≤ 2.
 *
 * The row is end to end, as a user pays it: two `sop serve` processes over stdio, the same SDK client, the same
 * walk, `--store memory` and `--store sqlite:FILE` (WAL, synchronous=NORMAL: the HTTP default's settings), calls
 * in alternating blocks. The call names no `run_id` (a stdio session implies its run), so on SQLite it reads the
 * session's current run and commits the move with its audit entry in one transaction.
 *
 * The note gives the same ratio inside one process, transport excluded (`service.callTool` with a `run_id` and
 * no session: the tool logic and the store's commit alone), which is what the store adds before any transport
 * is counted.
 */
import { join } from 'node:path';
import { startStdioConversation, type StdioConversation } from '../clients/stdio-conversation.js';
import type { BenchContext, BenchRow } from '../context.js';
import { type InProcessService, openInProcessService } from '../in-process-service.js';
import { row, type Row } from '../report.js';
import { interleavedCalls, percentile } from '../stats.js';
import { cycle } from '../walk.js';
import { benchAgent } from './agent-choice.js';

const SPEC = { name: 'goto_node p50, SQLite ÷ memory store (stdio, SDK client)', goal: '<= 2', unit: 'ms' } as const;
const CALLER = { principal: 'bench' } as const;

/** Per-call p50 in process: the service's `goto_node` on each store, alternating blocks. */
async function serviceLevel(ctx: BenchContext, dir: string, agent: string, walk: readonly string[]) {
  const opened: InProcessService[] = [];
  try {
    const sides = {} as Record<'memory' | 'sqlite', () => Promise<unknown>>;
    for (const [side, url] of [
      ['memory', 'memory'],
      ['sqlite', `sqlite:${join(ctx.tmp, 'latency-service.db')}`],
    ] as const) {
      const service = await openInProcessService(dir, url);
      opened.push(service);
      const runId = await service.startRun(agent, CALLER);
      const next = cycle(walk);
      sides[side] = () => service.service.callTool('goto_node', { node_id: next(), run_id: runId }, CALLER);
    }
    const times = await interleavedCalls(sides, { rounds: ctx.quick ? 1 : 10, block: ctx.quick ? 50 : 2000 });
    return { memory: percentile(times.memory, 50), sqlite: percentile(times.sqlite, 50) };
  } finally {
    for (const service of opened) await service.close();
  }
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const options = { cwd: fixture.dir, agent, steps: ctx.quick ? 30 : 200, signal: ctx.signal };
  let memory: StdioConversation | undefined;
  let sqlite: StdioConversation | undefined;
  try {
    memory = await startStdioConversation([fixture.cli, 'serve', '--store', 'memory'], options);
    sqlite = await startStdioConversation([fixture.cli, 'serve', '--store', `sqlite:${join(ctx.tmp, 'latency-stdio.db')}`], options);
    const rounds = ctx.quick ? 1 : 10;
    const block = ctx.quick ? 50 : 1000;
    ctx.log(`row 9: ${rounds} × (${block} goto_node on memory + ${block} on SQLite) over stdio`);
    const times = await interleavedCalls({ memory: memory.move, sqlite: sqlite.move }, { rounds, block });
    const inProcess = await serviceLevel(ctx, fixture.dir, agent, memory.walk);
    return [
      row({
        ...SPEC,
        value: percentile(times.sqlite, 50),
        floor: percentile(times.memory, 50),
        note:
          `${times.sqlite.length} calls each on ${agent}; p99 ${percentile(times.sqlite, 99).toFixed(3)} vs ${percentile(times.memory, 99).toFixed(3)} ms; ` +
          `in process (service.callTool with run_id, no transport): p50 ${(inProcess.sqlite * 1000).toFixed(1)} µs on SQLite vs ` +
          `${(inProcess.memory * 1000).toFixed(1)} µs on memory (${(inProcess.sqlite / inProcess.memory).toFixed(1)} ×)`,
      }),
    ];
  } finally {
    await memory?.close().catch(() => {});
    await sqlite?.close().catch(() => {});
  }
}

export const sqliteLatencyRow: BenchRow = {
  id: 'sqlite',
  title: 'goto_node on SQLite vs memory',
  specs: [SPEC],
  budgetMs: 120_000,
  run,
};
