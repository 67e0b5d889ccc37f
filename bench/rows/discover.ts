/**
 * Row 19: what mining costs beyond reading the logs. The 1,000 retail transcripts of the replay row
 * (`bench/replay-transcripts.ts`: τ²-bench simulations, OpenAI chat lists and Claude Code session logs, a quarter
 * with a deviation, every call with its answer) drafted into a SOP as `sop discover DIR` drafts one (`discover`:
 * read and keep the calls, the opening and the intents, the Inductive Miner per intent, the steps, the rules, the
 * SOP text compiled in memory, then the logs read again and each aligned to the draft) ÷ reading and parsing them,
 * answers included (the replay row's floor). Goal ≤ 5, the issue's: mining reads the logs twice (to mine, then to
 * score the draft with replay's alignment, which costs about twice the reading), so the mining itself, the compile
 * and the rest must stay within one more reading.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { discover } from '../../analysis/discover/index.js';
import { knownTools } from '../../analysis/replay/replay.js';
import type { BenchContext, BenchRow } from '../context.js';
import { ROOT } from '../project.js';
import { readTranscriptsFloor } from '../read-transcripts-floor.js';
import { writeRetailTranscripts } from '../replay-transcripts.js';
import { row, type Row } from '../report.js';
import { median, repeatPair } from '../stats.js';

const SPEC = {
  name: 'sop discover of 1,000 retail transcripts ÷ reading and parsing them, answers included',
  goal: '<= 5',
  unit: 'ms',
} as const;

async function run(ctx: BenchContext): Promise<Row[]> {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'generated', 'sop-bundle.json'), 'utf8')) as SopBundle;
  const sop = bundle.agents.retail_customer_support;
  if (sop === undefined) throw new Error('the bundle has no retail_customer_support agent (npm run build:sops)');
  const count = ctx.quick ? 60 : 1000;
  const dir = join(ctx.tmp, 'discover-transcripts');
  const set = writeRetailTranscripts(dir, sop, count);
  ctx.log(`row 19: ${set.files} transcripts (${(set.bytes / 1e6).toFixed(1)} MB, ${set.calls} calls), drafted ÷ read`);

  const known = knownTools(bundle);
  let summary = '';
  const mine = () => {
    const result = discover({ inputs: [dir], root: dir, agent: 'bench_discovered', file: 'sops/bench_discovered.md' });
    if (!result.ok) throw new Error(result.error);
    const { report } = result;
    summary = `${report.conversations} conversations, ${report.nodes.length} nodes, ${report.intents.length} intents, mean fitness ${report.fitness}`;
    return result;
  };
  const times = await repeatPair(mine, () => readTranscriptsFloor(dir, known), { warmup: 1, runs: ctx.quick ? 2 : 7 });
  return [
    row({
      ...SPEC,
      value: median(times.subject),
      floor: median(times.baseline),
      note: `${ctx.quick ? 'quick mode; ' : ''}${set.files} files, ${(set.bytes / 1e6).toFixed(1)} MB, ${set.calls} calls; the draft: ${summary}`,
    }),
  ];
}

export const discoverRow: BenchRow = {
  id: 'discover',
  title: 'sop discover: a SOP drafted from 1,000 transcripts',
  specs: [SPEC],
  budgetMs: 300_000,
  run,
};
