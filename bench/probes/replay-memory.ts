/**
 * A memory probe for `sop replay` over many transcripts, run in a child process of its own with `--expose-gc`:
 * how much memory a batch keeps per transcript once scored (a row of figures; the transcript, its reports and its
 * search are dropped), and the most one transcript's scoring adds to the heap at its peak.
 *
 *   node --expose-gc dist/bench/probes/replay-memory.js DIR BUNDLE_JSON FIRST COUNT
 *
 * Scores the first FIRST files of DIR (name order) as a batch to warm up, then FIRST + COUNT files as another whose
 * summary it keeps: the growth of the V8 heap after a full GC, divided by the transcripts, is what the batch keeps
 * per transcript. Each file is then scored alone, the heap sampled right after it before any GC: the largest growth
 * over the heap before it (garbage included) bounds what scoring one transcript takes at once. Prints one line of
 * JSON: `{ keptBytes, peakBytes, count }`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { replayBatch } from '../../analysis/replay/replay-batch.js';
import { replayFile } from '../../analysis/replay/replay.js';

const [dir, bundleFile, firstText, countText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
const first = Number(firstText);
const count = Number(countText);
if (dir === undefined || bundleFile === undefined || !(first > 0) || !(count > 0) || gc === undefined) {
  process.stderr.write('usage: node --expose-gc replay-memory.js DIR BUNDLE_JSON FIRST COUNT\n');
  process.exit(2);
}
const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as SopBundle;
const files = readdirSync(dir)
  .sort()
  .map((name) => join(dir, name));
const heapAfterGc = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const batch = (n: number) => {
  const outcome = replayBatch({ bundle, root: dir, inputs: files.slice(0, n) });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.summary;
};
// Warm up (code, the SOP's model, the search's scratch columns), then keep one batch's summary.
batch(first);
const before = heapAfterGc();
const summary = batch(first + count);
const after = heapAfterGc();

let peak = 0;
for (const file of files.slice(0, first + count)) {
  const base = heapAfterGc();
  const read = replayFile({ bundle, text: readFileSync(file, 'utf8'), file });
  peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  if (!read.ok) throw new Error(read.error);
}
process.stdout.write(
  `${JSON.stringify({ keptBytes: (after - before) / summary.transcripts.length, peakBytes: peak, count: summary.transcripts.length })}\n`,
);
