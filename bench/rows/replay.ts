/**
 * Row 14: what checking conformance costs beyond reading the logs. 1,000 transcripts of the retail SOP
 * (`bench/replay-transcripts.ts`: τ²-bench simulations, OpenAI chat lists and Claude Code session logs, no goto_node,
 * a quarter with a deviation, every call with its answer) scored as `sop replay DIR` scores them (`replayBatch`: read,
 * parse, read the answers, align, check, summarise, each call's answer given to the step function) ÷ reading and
 * parsing them, answers included (`readTranscripts` on each file's text, the folder listed the same way, and each
 * answer's JSON text parsed once, as the replay must). Goal ≤ 3: the alignment and the checks cost at most twice what
 * reading the logs costs.
 *
 * And memory bounded per transcript (`bench/probes/replay-memory.ts`, a child process with `--expose-gc`): the heap
 * a batch keeps per transcript once scored, goal ≤ 2 KiB (a row of figures, never the transcript); the note adds
 * the most the heap grew while scoring one transcript.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { replayBatch } from '../../analysis/replay/replay-batch.js';
import { knownTools } from '../../analysis/replay/replay.js';
import type { BenchContext, BenchRow } from '../context.js';
import { runNode } from '../processes.js';
import { readTranscriptsFloor } from '../read-transcripts-floor.js';
import { REPLAY_MEMORY_PROBE, ROOT } from '../project.js';
import { writeRetailTranscripts } from '../replay-transcripts.js';
import { row, type Row } from '../report.js';
import { median, repeatPair } from '../stats.js';

const SPEC = {
  name: 'sop replay of 1,000 retail transcripts with their answers ÷ reading and parsing them, answers included',
  goal: '<= 3',
  unit: 'ms',
} as const;
const MEMORY = { name: 'sop replay batch: heap kept per transcript', goal: '<= 2048', goalOn: 'value', unit: 'B' } as const;

async function run(ctx: BenchContext): Promise<Row[]> {
  const bundleFile = join(ROOT, 'generated', 'sop-bundle.json');
  const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as SopBundle;
  const sop = bundle.agents.retail_customer_support;
  if (sop === undefined) throw new Error('the bundle has no retail_customer_support agent (npm run build:sops)');
  const count = ctx.quick ? 60 : 1000;
  const dir = join(ctx.tmp, 'replay-transcripts');
  const set = writeRetailTranscripts(dir, sop, count);
  ctx.log(
    `row 14: ${set.files} transcripts (${(set.bytes / 1e6).toFixed(1)} MB, ${set.calls} calls, ${set.planted} with a deviation), scored ÷ read`,
  );

  const known = knownTools(bundle);
  const read = () => readTranscriptsFloor(dir, known);
  let deviating = 0;
  let exact = true;
  const score = () => {
    const outcome = replayBatch({ bundle, root: dir, inputs: [dir] });
    if (!outcome.ok) throw new Error(outcome.error);
    if (outcome.summary.totals.errors > 0) throw new Error(`${outcome.summary.totals.errors} transcripts could not be replayed`);
    deviating = outcome.summary.transcripts.filter((r) => (r.fitness ?? 1) < 1).length;
    exact = outcome.summary.transcripts.every((r) => r.exact === true);
    return outcome;
  };
  const times = await repeatPair(score, read, { warmup: 1, runs: ctx.quick ? 2 : 7 });

  const first = ctx.quick ? 20 : 250;
  const probe = await runNode(['--expose-gc', REPLAY_MEMORY_PROBE, dir, bundleFile, String(first), String(count - first)], {
    cwd: ROOT,
    timeoutMs: 300_000,
    signal: ctx.signal,
  });
  if (probe.code !== 0) throw new Error(`the replay memory probe exited ${probe.code}: ${probe.stderr.slice(-400)}`);
  const memory = JSON.parse(probe.stdout) as { keptBytes: number; peakBytes: number; count: number };
  return [
    row({
      ...SPEC,
      value: median(times.subject),
      floor: median(times.baseline),
      note: `${ctx.quick ? 'quick mode; ' : ''}${set.files} files, ${(set.bytes / 1e6).toFixed(1)} MB, ${set.calls} calls; ${deviating} scored below fitness 1; every alignment exact: ${exact}`,
    }),
    row({
      ...MEMORY,
      value: memory.keptBytes,
      note: `${memory.count} transcripts after a warm-up batch; the heap grew at most ${(memory.peakBytes / 1024).toFixed(0)} KiB while one transcript was scored (garbage included)`,
    }),
  ];
}

export const replayRow: BenchRow = {
  id: 'replay',
  title: 'sop replay: conformance of 1,000 transcripts',
  specs: [SPEC, MEMORY],
  budgetMs: 300_000,
  run,
};
