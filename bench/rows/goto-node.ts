/**
 * Row 1: `goto_node` latency over stdio with the SDK client, p50 and p99, ÷ the same client calling a no-op
 * tool on a minimal SDK server (bench/floors/noop-server.ts). Both servers run side by side; calls go in
 * alternating blocks so that a noisy phase of the machine hits both. The walk is a valid tour of the agent's
 * flowchart recorded from the server's own answers (bench/walk.ts), with 100+ agents registered.
 */
import { connectStdio, type StdioConnection } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { missing, NOOP_FLOOR } from '../project.js';
import { row, unmeasured, type Row } from '../report.js';
import { msSince, percentile } from '../stats.js';
import { cycle, recordWalk } from '../walk.js';
import { benchAgent } from './agent-choice.js';

const P50 = { name: 'goto_node stdio p50 ÷ no-op tool', goal: '<= 1.3', unit: 'ms' } as const;
const P99 = { name: 'goto_node stdio p99 ÷ no-op tool', goal: '<= 1.3', unit: 'ms' } as const;

async function timedBlock(calls: number, call: () => Promise<unknown>, into: number[]): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    await call();
    into.push(msSince(start));
  }
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const absent = missing('serveCommand');
  if (absent) return [unmeasured(P50, absent), unmeasured(P99, absent)];
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const rounds = ctx.quick ? 1 : 10;
  const block = ctx.quick ? 50 : 1000;

  let ours: StdioConnection | undefined;
  let floor: StdioConnection | undefined;
  try {
    ours = await connectStdio([fixture.cli, 'serve'], fixture.dir, ctx.signal);
    floor = await connectStdio([NOOP_FLOOR], fixture.dir, ctx.signal);
    const loaded = await ours.call('load_graph', { agent });
    if (loaded.isError) throw new Error(`load_graph(${agent}) failed: ${loaded.text.slice(0, 300)}`);
    const entry = String(loaded.data.entry_node ?? 'START');
    const server = ours;
    const walk = await recordWalk((id) => server.call('goto_node', { node_id: id }), entry, ctx.quick ? 30 : 200);
    const next = cycle(walk);
    const gotoCall = (): Promise<unknown> => server.client.callTool({ name: 'goto_node', arguments: { node_id: next() } });
    const noop = floor;
    const noopCall = (): Promise<unknown> => noop.client.callTool({ name: 'noop', arguments: { node_id: 'X' } });

    ctx.log(`row 1: ${rounds} × (${block} no-op + ${block} goto_node) calls on ${agent}`);
    const warm: number[] = [];
    await timedBlock(block, noopCall, warm);
    await timedBlock(block, gotoCall, warm);
    const subject: number[] = [];
    const baseline: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await timedBlock(block, noopCall, baseline);
      await timedBlock(block, gotoCall, subject);
    }
    const note = `${subject.length} calls each; agent ${agent}; SDK client and servers on the same 2 cores`;
    return [
      row({ ...P50, value: percentile(subject, 50), floor: percentile(baseline, 50), note }),
      row({ ...P99, value: percentile(subject, 99), floor: percentile(baseline, 99) }),
    ];
  } finally {
    await ours?.close().catch(() => {});
    await floor?.close().catch(() => {});
  }
}

export const gotoNodeRow: BenchRow = {
  id: 'goto',
  title: 'goto_node over stdio',
  specs: [P50, P99],
  budgetMs: 90_000,
  run,
};
