/**
 * Row 1: `goto_node` latency over stdio with the SDK client, p50 and p99, ÷ the same client calling a no-op
 * tool on a minimal SDK server (bench/floors/noop-server.ts). Both servers run side by side; calls go in
 * alternating blocks so that a noisy phase of the machine hits both. The walk is a valid tour of the agent's
 * flowchart recorded from the server's own answers (bench/walk.ts), with 100+ agents registered.
 *
 * A third server, in the notes only, splits the ratio in two: a bare low-level SDK `Server` replaying the
 * recorded answers (the same bytes, `structuredContent` plus text) from a table. Its p50 ÷ the no-op's is
 * what the SDK and the pipe cost to carry these answers; ours ÷ its p50 is what our own code costs per call.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectStdio, type StdioConnection, type ToolAnswer } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { missing, NOOP_FLOOR } from '../project.js';
import { row, unmeasured, type Row } from '../report.js';
import { msSince, percentile } from '../stats.js';
import { cycle, recordWalk } from '../walk.js';
import { benchAgent } from './agent-choice.js';

const P50 = { name: 'goto_node stdio p50 ÷ no-op tool', goal: '<= 1.3', unit: 'ms' } as const;
const P99 = { name: 'goto_node stdio p99 ÷ no-op tool', goal: '<= 1.3', unit: 'ms' } as const;

/** The replay server, run with `node --input-type=module -e` in the fixture (which resolves the SDK). */
const REPLAY_SERVER = `
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const answers = JSON.parse(readFileSync(process.argv[1], 'utf8'));
let i = 0;
const server = new Server({ name: 'bench-replay', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, () => answers[i++ % answers.length]);
await server.connect(new StdioServerTransport());
`;

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
  let replay: StdioConnection | undefined;
  try {
    ours = await connectStdio([fixture.cli, 'serve'], fixture.dir, ctx.signal);
    floor = await connectStdio([NOOP_FLOOR], fixture.dir, ctx.signal);
    const loaded = await ours.call('load_graph', { agent });
    if (loaded.isError) throw new Error(`load_graph(${agent}) failed: ${loaded.text.slice(0, 300)}`);
    const entry = String(loaded.data.entry_node ?? 'START');
    const server = ours;
    const recorded: ToolAnswer[] = [];
    const walk = await recordWalk(
      async (id) => {
        const answer = await server.call('goto_node', { node_id: id });
        recorded.push(answer);
        return answer;
      },
      entry,
      ctx.quick ? 30 : 200,
    );
    // The walk starts at the entry node, so every lap gets the answers of the first one.
    const answersFile = join(ctx.tmp, 'goto-answers.json');
    writeFileSync(
      answersFile,
      JSON.stringify(recorded.map((a) => ({ content: [{ type: 'text', text: a.text }], structuredContent: a.data }))),
    );
    replay = await connectStdio(['--input-type=module', '-e', REPLAY_SERVER, answersFile], fixture.dir, ctx.signal);
    const next = cycle(walk);
    const gotoCall = (): Promise<unknown> => server.client.callTool({ name: 'goto_node', arguments: { node_id: next() } });
    const noop = floor;
    const noopCall = (): Promise<unknown> => noop.client.callTool({ name: 'noop', arguments: { node_id: 'X' } });
    const replayNext = cycle(walk);
    const replayServer = replay;
    const replayCall = (): Promise<unknown> => replayServer.client.callTool({ name: 'goto_node', arguments: { node_id: replayNext() } });

    ctx.log(`row 1: ${rounds} × (${block} no-op + ${block} replayed + ${block} goto_node) calls on ${agent}`);
    const warm: number[] = [];
    await timedBlock(block, noopCall, warm);
    await timedBlock(block, replayCall, warm);
    await timedBlock(block, gotoCall, warm);
    const subject: number[] = [];
    const baseline: number[] = [];
    const replayed: number[] = [];
    for (let r = 0; r < rounds; r++) {
      await timedBlock(block, noopCall, baseline);
      await timedBlock(block, replayCall, replayed);
      await timedBlock(block, gotoCall, subject);
    }
    const [p50, p50Floor, p50Replay] = [percentile(subject, 50), percentile(baseline, 50), percentile(replayed, 50)];
    const note =
      `${subject.length} calls each; agent ${agent}; SDK client and servers on the same 2 cores; ` +
      `the same answers replayed from a table by a bare SDK Server: p50 ${p50Replay.toFixed(4)} ms, ` +
      `${(p50Replay / p50Floor).toFixed(2)} × the no-op (the SDK's and the pipe's cost of these answers), ` +
      `ours ${(p50 / p50Replay).toFixed(2)} × the replay (our own per-call cost)`;
    return [
      row({ ...P50, value: p50, floor: p50Floor, note }),
      row({ ...P99, value: percentile(subject, 99), floor: percentile(baseline, 99) }),
    ];
  } finally {
    await ours?.close().catch(() => {});
    await floor?.close().catch(() => {});
    await replay?.close().catch(() => {});
  }
}

export const gotoNodeRow: BenchRow = {
  id: 'goto',
  title: 'goto_node over stdio',
  specs: [P50, P99],
  budgetMs: 120_000,
  run,
};
