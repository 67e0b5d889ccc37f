/**
 * Row 1: `goto_node` latency over stdio with the SDK client, p50 and p99, ÷ the limit of that work: a bare low-level
 * SDK `Server` replaying the recorded answers (the same bytes, `structuredContent` plus text) from a table, so that
 * what is left is our own per-call cost (goals p50 ≤ 1.1, p99 ≤ 1.3). The servers run side by side; calls go in
 * alternating blocks so that a noisy phase of the machine hits all. The walk is a valid tour of the agent's
 * flowchart recorded from the server's own answers (bench/walk.ts), with 100+ agents registered.
 *
 * In the notes: a no-op tool on a minimal SDK server (bench/floors/noop-server.ts), the row's floor until
 * 2026-11-28: the replay ÷ the no-op is what the SDK and the pipe cost to carry answers of this size (1.3–1.7 ×),
 * which no server sending them can avoid; and the same no-op on the SDK's v1 line, which keeps the cost of the
 * runtime's move to the v2 line (both protocol eras on one server) in view.
 *
 * Since 2026-11-28 `sop serve` answers a handshaken 2025-era client's plain tool calls without the SDK's per-request
 * serving (`runtime/stdio/plain-calls.ts`), which the replay keeps, as any server built on the SDK has it: that
 * serving was about 40 µs a call, our session service 17–19 µs (timed inside both servers), so ours now reads under 1.
 * The bench's client is 2025-era; a 2026-07-28 client's calls still go the SDK's way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectStdio, type StdioConnection } from '../clients/sdk-stdio.js';
import { startStdioConversation, type StdioConversation } from '../clients/stdio-conversation.js';
import type { BenchContext, BenchRow } from '../context.js';
import { NOOP_FLOOR } from '../project.js';
import { row, type Row } from '../report.js';
import { interleavedCalls, percentile } from '../stats.js';
import { cycle } from '../walk.js';
import { benchAgent } from './agent-choice.js';

const P50 = { name: 'goto_node stdio p50 ÷ the SDK replaying its answers', goal: '<= 1.1', unit: 'ms' } as const;
const P99 = { name: 'goto_node stdio p99 ÷ the SDK replaying its answers', goal: '<= 1.3', unit: 'ms' } as const;

/** The replay server, run with `node --input-type=module -e` in the fixture (which resolves the SDK). */
const REPLAY_SERVER = `
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
const answers = JSON.parse(readFileSync(process.argv[1], 'utf8'));
let i = 0;
serveStdio(() => {
  const server = new Server({ name: 'bench-replay', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', () => answers[i++ % answers.length]);
  return server;
});
`;

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const rounds = ctx.quick ? 1 : 10;
  const block = ctx.quick ? 50 : 1000;

  let ours: StdioConversation | undefined;
  let floor: StdioConnection | undefined;
  let replay: StdioConnection | undefined;
  let floorV1: StdioConnection | undefined;
  try {
    ours = await startStdioConversation([fixture.cli, 'serve'], {
      cwd: fixture.dir,
      agent,
      steps: ctx.quick ? 30 : 200,
      signal: ctx.signal,
    });
    floor = await connectStdio([NOOP_FLOOR], fixture.dir, ctx.signal);
    floorV1 = await connectStdio([NOOP_FLOOR, '--sdk', 'v1'], fixture.dir, ctx.signal);
    // The walk starts at the entry node, so every lap gets the answers of the first one.
    const answersFile = join(ctx.tmp, 'goto-answers.json');
    writeFileSync(
      answersFile,
      JSON.stringify(ours.answers.map((a) => ({ content: [{ type: 'text', text: a.text }], structuredContent: a.data }))),
    );
    replay = await connectStdio(['--input-type=module', '-e', REPLAY_SERVER, answersFile], fixture.dir, ctx.signal);
    const noop = floor.client;
    const noopV1 = floorV1.client;
    const replayed = replay.client;
    const replayNext = cycle(ours.walk);

    ctx.log(`row 1: ${rounds} × (${block} no-op + ${block} no-op v1 + ${block} replayed + ${block} goto_node) calls on ${agent}`);
    const times = await interleavedCalls(
      {
        noop: () => noop.callTool({ name: 'noop', arguments: { node_id: 'X' } }),
        noopV1: () => noopV1.callTool({ name: 'noop', arguments: { node_id: 'X' } }),
        replay: () => replayed.callTool({ name: 'goto_node', arguments: { node_id: replayNext() } }),
        ours: ours.move,
      },
      { rounds, block },
    );
    const [p50, p50Floor, p50Replay] = [percentile(times.ours, 50), percentile(times.noop, 50), percentile(times.replay, 50)];
    const note =
      `${times.ours.length} calls each; agent ${agent}, memory store (stdio's default); SDK client and servers on the same 2 cores; ` +
      `a no-op tool on a minimal SDK server: p50 ${p50Floor.toFixed(4)} ms, ours ${(p50 / p50Floor).toFixed(2)} × it, the replay ` +
      `${(p50Replay / p50Floor).toFixed(2)} × it (the SDK's and the pipe's cost of answers this size); p99 ours ` +
      `${(percentile(times.ours, 99) / percentile(times.noop, 99)).toFixed(2)} × the no-op's; the no-op on the SDK's v1 line: ` +
      `p50 ${percentile(times.noopV1, 50).toFixed(4)} ms, ours ${(p50 / percentile(times.noopV1, 50)).toFixed(2)} × it`;
    return [
      row({ ...P50, value: p50, floor: p50Replay, note }),
      row({ ...P99, value: percentile(times.ours, 99), floor: percentile(times.replay, 99) }),
    ];
  } finally {
    await ours?.close().catch(() => {});
    await floor?.close().catch(() => {});
    await replay?.close().catch(() => {});
    await floorV1?.close().catch(() => {});
  }
}

export const gotoNodeRow: BenchRow = {
  id: 'goto',
  title: 'goto_node over stdio',
  specs: [P50, P99],
  budgetMs: 120_000,
  run,
};
