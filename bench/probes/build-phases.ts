/**
 * Where a cold build's work goes, in one thread of a fresh process (run by the build row; no vitest):
 * the compiler's parse → model → check of every SOP (`compileSop`), the emitter printing every file
 * (`emitProject`, ts-morph), and the floor's plain parse of the same files (`floors/parse-sops.ts`). The first
 * round is cold (modules loading, code not yet optimised), as in a real build; the median of the next rounds is
 * the work itself.
 *
 *   node dist/bench/probes/build-phases.js SOPS_DIR ROUNDS
 *
 * Prints one line of JSON: `{ files, first: {compile, emit, parse}, steady: {compile, emit, parse} }` in ms.
 */
import { compileSop } from '../../generator/compile-sop.js';
import { parseSops, readSops } from '../floors/parse-sops.js';
import { median, msSince } from '../stats.js';

const [sopsDir, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
if (sopsDir === undefined || !(rounds >= 1)) {
  process.stderr.write('usage: build-phases SOPS_DIR ROUNDS\n');
  process.exit(2);
}
const files = readSops(sopsDir);
const timed = async <T>(fn: () => T | Promise<T>): Promise<{ ms: number; result: T }> => {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { ms: msSince(start), result };
};

const times = { compile: [] as number[], emit: [] as number[], parse: [] as number[] };
for (let round = 0; round <= rounds; round++) {
  const compiled = await timed(() => files.map((file) => compileSop(`sops/${file.name}`, file.text)));
  const emitted = await timed(async () => {
    // Imported here, as the build does once something compiled: its loading is part of the first emit.
    const { emitProject } = await import('../../generator/emit/emit-project.js');
    return emitProject(
      compiled.result.map((c) => {
        if (c.model === null || c.facts === null) throw new Error(`${c.file} does not compile`);
        return { model: c.model, facts: c.facts };
      }),
    );
  });
  const parsed = await timed(() => parseSops(files.map((file) => file.text)));
  times.compile.push(compiled.ms);
  times.emit.push(emitted.ms);
  times.parse.push(parsed.ms);
}
const first = { compile: times.compile[0], emit: times.emit[0], parse: times.parse[0] };
const steady = { compile: median(times.compile.slice(1)), emit: median(times.emit.slice(1)), parse: median(times.parse.slice(1)) };
process.stdout.write(`${JSON.stringify({ files: files.length, first, steady })}\n`);
