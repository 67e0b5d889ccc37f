/**
 * Row 3: cold start, from spawning `node dist/cli/main.js serve` (stdio) with 100 synthetic agents (+ the
 * project's) registered to the first `tools/list` answer, ÷ the same for the minimal SDK server. A bare
 * JSON-RPC client (bench/clients/stdio-cold-start.ts) so the client adds nothing; runs alternate.
 */
import { coldStartToToolsList } from '../clients/stdio-cold-start.js';
import { fixtureAgents, type BenchContext, type BenchRow } from '../context.js';
import { NOOP_FLOOR } from '../project.js';
import { row, type Row } from '../report.js';
import { median, repeatPair } from '../stats.js';

const SPEC = { name: 'cold start → first tools/list, 100 agents ÷ minimal SDK server', goal: '<= 1.3', unit: 'ms' } as const;

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agents = fixture.synthetic.length + fixture.copied.length;
  let tools = 0;
  const subject = async (): Promise<void> => {
    tools = (await coldStartToToolsList([fixture.cli, 'serve'], { cwd: fixture.dir, timeoutMs: 20_000, signal: ctx.signal })).tools;
  };
  const baseline = (): Promise<unknown> => coldStartToToolsList([NOOP_FLOOR], { cwd: fixture.dir, timeoutMs: 20_000, signal: ctx.signal });
  const runs = ctx.quick ? 1 : 11;
  ctx.log(`row 3: ${runs} cold starts each, ${agents} agents registered`);
  const times = await repeatPair(subject, baseline, { warmup: ctx.quick ? 0 : 2, runs });
  if (tools === 0) throw new Error('the server listed no tools');
  const note = `${agents} agents registered (${fixture.synthetic.length} synthetic${ctx.quick ? `, quick mode: not ${fixtureAgents(false)}` : ''}), ${tools} tools listed; median of ${runs}`;
  return [row({ ...SPEC, value: median(times.subject), floor: median(times.baseline), note })];
}

export const coldStartRow: BenchRow = {
  id: 'cold-start',
  title: 'cold start',
  specs: [SPEC],
  budgetMs: 60_000,
  run,
};
