/**
 * Row 12: two `sop serve --http` instances on one PostgreSQL cluster behind a round-robin balancer: statements
 * per call ÷ the same with each conversation kept on one instance; goal ≤ 1.2. Two instances on two shared cores
 * cannot show a throughput gain (the machine is the bound, not the code), so what the row measures is what round
 * robin costs the database: a call that lands on the instance that did not serve the conversation's last call
 * holds a stale copy of the run, and pays for it in statements (a commit that finds a newer version returns the
 * run as it is now; deciding again on it costs a second commit, and nothing more when the session service uses it).
 *
 * Real processes: two servers on one database (`--store postgres://…`), 32 concurrent conversations driven by
 * the lean HTTP client in the bench process, sessionless (each call names its `run_id`: the form a deployment
 * behind a load balancer uses, no sticky sessions). Each conversation starts a run with `load_graph`, then
 * walks the flowchart with `goto_node`; every answer is checked to be a legal move, so a lost update or a
 * refused commit fails the row. Three ways of sending the calls, alternating, the median of three windows each:
 *   - one instance: every call to the first server;
 *   - two instances, round robin over all calls (what a plain load balancer does): the row's value;
 *   - two instances, each conversation kept on one (what affinity gives): the row's floor.
 * Statements are counted by `pg_stat_statements` over each window. The note gives the throughput of the three
 * and where the CPU went in each window (servers, PostgreSQL, the client, the whole machine).
 * Skipped in quick mode (it starts PostgreSQL).
 */
import { join } from 'node:path';
import { HttpSession, keepAliveAgent } from '../clients/http-session.js';
import { toAnswer } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { clusterPids, type CpuUse, measureCpu } from '../cpu.js';
import { type HttpServerProcess, startHttpServer } from '../http-servers.js';
import { stop } from '../processes.js';
import type { PostgresCluster } from '../../test/support/postgres-cluster.js';
import { row, type Row } from '../report.js';
import { median } from '../stats.js';
import { assertMoved, cycle, recordWalk } from '../walk.js';
import { benchAgent } from './agent-choice.js';

const SPEC = {
  name: 'PostgreSQL statements per call, two instances round robin ÷ each conversation kept on one',
  goal: '<= 1.2',
  unit: 'statements/call',
} as const;
const CONVERSATIONS = 32;
const CALLS_PER_WINDOW = CONVERSATIONS * 100;

type Routing = 'one' | 'roundRobin' | 'pinned';

interface Conversation {
  readonly runId: string;
  /** The instance that started it (where `pinned` keeps it). */
  readonly home: number;
  readonly next: () => string;
}

interface Window {
  readonly callsPerSecond: number;
  readonly cpu: CpuUse;
  /** Statements the servers sent per call, and of them the commits (compare-and-set). */
  readonly statements: number;
  readonly commits: number;
}

/** Statements run so far on the cluster (`pg_stat_statements`), all and commits, leaving out the counting itself. */
async function statementCounts(cluster: PostgresCluster): Promise<{ all: number; commits: number }> {
  const [counts] = await cluster.query<{ all: string; commits: string }>(
    `SELECT coalesce(sum(calls), 0) AS all, coalesce(sum(calls) FILTER (WHERE query LIKE 'WITH moved AS%'), 0) AS commits
     FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'`,
  );
  return { all: Number(counts?.all), commits: Number(counts?.commits) };
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const cluster = await ctx.postgres();
  const { url } = await cluster.createSchema();
  const servers: HttpServerProcess[] = [];
  const agents = [keepAliveAgent(CONVERSATIONS), keepAliveAgent(CONVERSATIONS)];
  try {
    for (let i = 0; i < 2; i++) servers.push(await startHttpServer([fixture.cli, 'serve', '--store', url], fixture.dir, ctx.signal));
    const clients = servers.map((server, i) => HttpSession.sessionless(server.port, agents[i] as (typeof agents)[number]));
    const goto = async (instance: number, runId: string, nodeId: string) => {
      const answer = toAnswer(await (clients[instance] as HttpSession).callTool('goto_node', { node_id: nodeId, run_id: runId }));
      assertMoved(answer, nodeId);
      return answer;
    };
    const start = async (instance: number): Promise<{ runId: string; entry: string }> => {
      const loaded = toAnswer(await (clients[instance] as HttpSession).callTool('load_graph', { agent }));
      if (loaded.isError || typeof loaded.data.run_id !== 'string') throw new Error(`load_graph failed: ${loaded.text.slice(0, 300)}`);
      return { runId: loaded.data.run_id, entry: String(loaded.data.entry_node) };
    };
    const first = await start(0);
    const walk = await recordWalk((id) => goto(0, first.runId, id), first.entry, 200);
    const conversations: Conversation[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const home = i % 2;
      conversations.push({ runId: (await start(home)).runId, home, next: cycle(walk) });
    }

    const window = async (routing: Routing, calls: number): Promise<number> => {
      let issued = 0;
      let sent = 0;
      const started = process.hrtime.bigint();
      await Promise.all(
        conversations.map(async (conversation) => {
          while (issued < calls) {
            issued++;
            const instance = routing === 'one' ? 0 : routing === 'pinned' ? conversation.home : sent++ % 2;
            await goto(instance, conversation.runId, conversation.next());
          }
        }),
      );
      return calls / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    ctx.log(`row 12: warming both instances, then ${CALLS_PER_WINDOW} calls per window over ${CONVERSATIONS} conversations`);
    await window('roundRobin', CALLS_PER_WINDOW / 2);
    const groups = {
      servers: servers.map((s) => s.child.pid as number),
      postgres: clusterPids(join(cluster.dir, 'data')),
    };
    const windows: Record<Routing, Window[]> = { one: [], roundRobin: [], pinned: [] };
    await cluster.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    for (let round = 0; round < 3; round++) {
      for (const routing of ['one', 'roundRobin', 'pinned'] as const) {
        const before = await statementCounts(cluster);
        const { result, cpu } = await measureCpu(groups, () => window(routing, CALLS_PER_WINDOW));
        const after = await statementCounts(cluster);
        windows[routing].push({
          callsPerSecond: result,
          cpu,
          statements: (after.all - before.all) / CALLS_PER_WINDOW,
          commits: (after.commits - before.commits) / CALLS_PER_WINDOW,
        });
      }
    }
    const rate = (routing: Routing): number => median(windows[routing].map((w) => w.callsPerSecond));
    const statements = (routing: Routing): number => median(windows[routing].map((w) => w.statements));
    const where = (routing: Routing): string => {
      const w = windows[routing][1] as Window;
      const share = (seconds: number): string => `${Math.round((seconds / w.cpu.wallSeconds) * 100)} %`;
      return (
        `${w.statements.toFixed(2)} statements (${w.commits.toFixed(2)} commits) per call; CPU per wall second: ` +
        `servers ${share(w.cpu.seconds['servers'] ?? 0)}, PostgreSQL ${share(w.cpu.seconds['postgres'] ?? 0)}, ` +
        `client ${share(w.cpu.seconds['bench'] ?? 0)} of one core, the machine (2 cores) ${Math.round(w.cpu.machineBusy * 100)} % busy`
      );
    };
    return [
      row({
        ...SPEC,
        value: statements('roundRobin'),
        floor: statements('pinned'),
        note:
          `${CONVERSATIONS} conversations on ${agent}, median of 3 windows of ${CALLS_PER_WINDOW} calls; one instance: ` +
          `${statements('one').toFixed(2)} statements per call; throughput: one instance ${rate('one').toFixed(0)} calls/s, ` +
          `two round robin ${rate('roundRobin').toFixed(0)} (${(rate('roundRobin') / rate('one')).toFixed(2)} × one), ` +
          `two kept on one ${rate('pinned').toFixed(0)} (${(rate('pinned') / rate('one')).toFixed(2)} × one); ` +
          `the middle window of each: one instance: ${where('one')}; round robin: ${where('roundRobin')}; kept on one: ${where('pinned')}`,
      }),
    ];
  } finally {
    for (const agent of agents) agent.destroy();
    for (const server of servers) await stop(server.child);
  }
}

export const postgresScaleRow: BenchRow = {
  id: 'postgres-scale',
  title: 'two instances on PostgreSQL, round robin vs kept on one',
  specs: [SPEC],
  budgetMs: 240_000,
  quickSkip: 'it starts a PostgreSQL cluster',
  run,
};
