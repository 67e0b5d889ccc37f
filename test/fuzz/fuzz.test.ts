/**
 * The bounded fuzz run of `npm test` (`npm run fuzz` is the long one): every recipe that found a problem of issue 9
 * (`fuzz/recipes.ts`), at a size where the old compiler blew far past its budget, and seeded mutations of the real
 * SOPs, each run through everything a build does with it (`fuzz/run-input.ts`) on a worker thread with a heap limit.
 * Each input must come back with diagnostics or a build, within a generous budget: 1 s plus 8 s per MB (four times
 * the goal of 2 s/MB; the old compiler took 14 s for 100 KB of blank lines, 40 s for 30,000 errors, 10 s for a 1 MB
 * id) and 256 MB of heap (the old renderer took 1.5 GB). A bound that loose flags a quadratic step, not a slow
 * machine. Runs the transpiled build (dist/, made by the global setup): workers need JavaScript.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readCorpus } from '../../fuzz/corpus.js';
import { mutate } from '../../fuzz/mutations.js';
import { random } from '../../fuzz/random.js';
import { RECIPES } from '../../fuzz/recipes.js';
import { createRunner } from '../../fuzz/run-in-worker.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const runner = createRunner({
  workerScript: new URL('../../dist/fuzz/fuzz-worker.js', import.meta.url),
  generatorDir: fileURLToPath(new URL('../../dist/generator', import.meta.url)),
  heapMb: 256,
});
afterAll(() => runner.close());

const budgetMs = (characters: number) => 1000 + 8000 * (characters / 1e6);
/** Recipes whose size is the point run at the size that found them; the rest at 200 KB. */
const SIZES: Record<string, number> = { 'a megabyte id': 1_000_000, 'blank lines in a node_prompts block': 100_000 };

/**
 * A problem, or the time over budget. Other work on the machine only ever adds time, so an input over budget is run
 * twice more and judged by its fastest run: a quadratic step is over budget every time, a busy moment is not.
 */
async function check(text: string): Promise<string | null> {
  const budget = budgetMs(text.length);
  const times: number[] = [];
  while (times.length < 3) {
    const outcome = await runner.run(text, budget * 3);
    if (outcome.problem !== null) return outcome.problem;
    times.push(outcome.ms);
    if (outcome.ms <= budget) return null;
  }
  return `${times.map((ms) => Math.round(ms)).join(', ')} ms for ${text.length} characters (budget ${Math.round(budget)} ms)`;
}

describe('fuzz (bounded)', () => {
  const base = readFileSync(new URL('../../sops/retail_customer_support.md', import.meta.url), 'utf8');

  for (const recipe of RECIPES) {
    it(`survives: ${recipe.name}`, async () => {
      const text = recipe.build(base, SIZES[recipe.name] ?? 200_000);
      expect(await check(text)).toBeNull();
    });
  }

  it('survives 150 seeded mutations of the real SOPs', async () => {
    const corpus = readCorpus(ROOT);
    expect(corpus.length).toBeGreaterThanOrEqual(5);
    const found: string[] = [];
    for (let i = 0; i < 150; i++) {
      const rng = random(20261124 * 7919 + i);
      const from = rng.pick(corpus);
      const input = mutate(from.text, rng, 64 * 1024);
      const problem = await check(input.text);
      if (problem !== null) found.push(`input ${i} (${from.name}; ${input.did.slice(0, 120)}): ${problem}`);
    }
    expect(found).toEqual([]);
  });
});
