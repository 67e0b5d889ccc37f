/**
 * `npm run fuzz`: minutes of fuzzing that print what they found.
 *
 *  1. Every recipe (`recipes.ts`, the inputs that found the problems of issue 9) at full size (default 2 MB, just
 *     under the compiler's file limit, so that every stage runs), each in its own process: wall time per MB and the
 *     memory the input costs above the libraries any build may load, against the goal (under 2 s per MB, under
 *     100 MB). The process's whole peak is printed too: Node with ts-morph and the tokenizer is about 180 MB before
 *     any input (measured 2026-11-28), so the former goal of 200 MB for the whole process left 20 MB for a 2 MB SOP.
 *  2. Seeded mutations of the real SOPs (`mutations.ts`), small edits and amplifications, until the time is up,
 *     on a worker with a heap limit and a time limit per input. Each finding is printed with the seed and index
 *     that reproduce it (`--seed S --input I`) and the input is saved to a temporary folder.
 *
 * Options: --seconds N (default 180) --seed N (default: the clock) --input I (only that input) --size N (recipe
 * size, default 2000000) --max-size N (mutated inputs, default 524288) --generator DIR (the dist/generator to test,
 * default this build's: point it at an older build to see what the fuzzer finds there) --no-recipes.
 * Exit code 1 when anything was found.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readCorpus } from './corpus.js';
import { mutate } from './mutations.js';
import { random } from './random.js';
import { RECIPES } from './recipes.js';
import { createRunner } from './run-in-worker.js';

/** The goal per input: seconds per MB, and the memory it costs above the libraries a build may load. */
const GOAL_SECONDS_PER_MB = 2;
const GOAL_INPUT_MB = 100;
/** Time any input may take beside its size (Node's clock, the first use of a stage): the goal is about rate. */
const FIXED_MS = 1000;
const budgetMs = (characters: number) => FIXED_MS + GOAL_SECONDS_PER_MB * 1000 * (characters / 1e6);

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '180' },
    seed: { type: 'string' },
    input: { type: 'string' },
    size: { type: 'string', default: '2000000' },
    'max-size': { type: 'string', default: String(512 * 1024) },
    generator: { type: 'string' },
    'no-recipes': { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('../..', import.meta.url));
const generatorDir = values.generator ?? fileURLToPath(new URL('../generator', import.meta.url));
const seed = Number(values.seed ?? Date.now() % 1_000_000_000);
const findings: string[] = [];
const out = (line: string) => process.stdout.write(`${line}\n`);

if (!values['no-recipes'] && values.input === undefined) {
  const size = Number(values.size);
  out(
    `Recipes at ${(size / 1e6).toFixed(1)} MB (those that grow), one process each; goal: under ${FIXED_MS / 1000} s + ${GOAL_SECONDS_PER_MB} s/MB, ${GOAL_INPUT_MB} MB above the libraries:`,
  );
  out('      MB        s   s/MB   peak MB  input MB  diagnostics  recipe');
  for (const recipe of RECIPES) {
    const script = fileURLToPath(new URL('./measure-one.js', import.meta.url));
    const r = spawnSync(process.execPath, [script, root, generatorDir, recipe.name, String(size)], { encoding: 'utf8', timeout: 600_000 });
    let line: string;
    if (r.status === 0) {
      const m = JSON.parse(r.stdout) as {
        characters: number;
        ms: number;
        peakMb: number;
        inputMb: number;
        diagnostics: number;
        problem: string | null;
      };
      const mb = m.characters / 1e6;
      const over = [
        m.problem,
        m.ms > budgetMs(m.characters) ? 'over the time goal' : null,
        m.inputMb > GOAL_INPUT_MB ? 'over the memory goal' : null,
      ].filter(Boolean);
      const columns = [
        mb.toFixed(2).padStart(8),
        (m.ms / 1000).toFixed(2).padStart(8),
        (m.ms / 1000 / mb).toFixed(2).padStart(6),
        m.peakMb.toFixed(0).padStart(9),
        m.inputMb.toFixed(0).padStart(9),
        String(m.diagnostics).padStart(12),
      ];
      line = `${columns.join(' ')}  ${recipe.name}${over.length ? `  <- ${over.join('; ')}` : ''}`;
      if (over.length) findings.push(`recipe "${recipe.name}": ${over.join('; ')}`);
    } else {
      const why = r.error ? `${r.error.message}` : `exit ${r.status ?? r.signal}: ${r.stderr.trim().split('\n').at(-1)}`;
      line = `${'-'.padStart(8)} ${'-'.padStart(8)} ${'-'.padStart(6)} ${'-'.padStart(9)} ${'-'.padStart(9)} ${'-'.padStart(12)}  ${recipe.name}  <- ${why}`;
      findings.push(`recipe "${recipe.name}": ${why}`);
    }
    out(`${line}\n         (found before: ${recipe.found})`);
  }
}

const corpus = readCorpus(root);
const maxSize = Number(values['max-size']);
const runner = createRunner({ workerScript: new URL('./fuzz-worker.js', import.meta.url), generatorDir, heapMb: 1024 });
const saved = mkdtempSync(join(tmpdir(), 'sop-fuzz-'));
const deadline = Date.now() + Number(values.seconds) * 1000;
const only = values.input === undefined ? null : Number(values.input);
out(`\nMutations of ${corpus.length} SOPs, seed ${seed}, up to ${(maxSize / 1024).toFixed(0)} KB each, for ${values.seconds} s:`);
let count = 0;
let bytes = 0;
for (let i = only ?? 0; only === null ? Date.now() < deadline : i === only; i++) {
  const rng = random(seed * 7919 + i);
  const base = rng.pick(corpus);
  const input = mutate(base.text, rng, maxSize);
  const budget = budgetMs(input.text.length);
  const outcome = await runner.run(input.text, Math.max(20_000, budget * 20));
  count++;
  bytes += input.text.length;
  const slow =
    outcome.problem === null && outcome.ms > budget ? `slow: ${Math.round(outcome.ms)} ms for ${input.text.length} characters` : null;
  const problem = outcome.problem ?? slow;
  if (problem !== null) {
    mkdirSync(saved, { recursive: true });
    const file = join(saved, `seed-${seed}-input-${i}.md`);
    writeFileSync(file, input.text);
    findings.push(`input ${i}: ${problem}`);
    out(
      `  input ${i} (${base.name}; ${input.did.slice(0, 160)}): ${problem}\n    reproduce: npm run fuzz -- --seed ${seed} --input ${i}; saved as ${file}`,
    );
  }
  if (only === null && count % 500 === 0) out(`  ${count} inputs, ${(bytes / 1e6).toFixed(1)} MB, ${findings.length} findings so far`);
}
await runner.close();
out(`\n${count} mutated inputs (${(bytes / 1e6).toFixed(1)} MB); ${findings.length} finding${findings.length === 1 ? '' : 's'}.`);
for (const f of findings) out(`  - ${f}`);
process.exitCode = findings.length > 0 ? 1 : 0;
