/**
 * Row 4: `build:sops` on synthetic SOPs (40 nodes each), as a user runs it: `node dist/cli/main.js build
 * --sops DIR --out DIR` spawned from a throw-away project (so the build cache lands there).
 *   - cold: a fresh out dir, no cache; 100 SOPs ÷ the floor (`bench/floors/parse-and-write.ts`: a command that
 *     parses the same 100 files with remark-parse and yaml and writes the bytes the build wrote); goal ≤ 1.5.
 *     The note splits the work in one thread (`bench/probes/build-phases.ts`): compile, emit, the floor's parse;
 *   - no-op rebuild: nothing changed since the last build, ÷ `node -e ''` (Node's own start-up); goal ≤ 4;
 *   - scaling: cold 1000 SOPs ÷ cold 100 SOPs; goal ≤ 11 (linear, with room for noise). Skipped in quick mode.
 * Runs are alternated where two things are compared, and medians reported.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { BenchContext, BenchRow } from '../context.js';
import { copyToolkit, layoutProject } from '../fixture-project.js';
import { runNode } from '../processes.js';
import { BUILD_PHASES_PROBE, PARSE_FLOOR } from '../project.js';
import { row, skippedInQuickMode, type Row } from '../report.js';
import { median, repeat, repeatPair } from '../stats.js';
import { writeSyntheticSops } from '../synthetic-sop.js';

const COLD = { name: 'build:sops cold, 100 SOPs × 40 nodes ÷ parse+write floor', goal: '<= 1.5', unit: 's' } as const;
const NOOP = { name: "build:sops no-op rebuild ÷ node -e ''", goal: '<= 4', unit: 'ms' } as const;
const SCALE = { name: 'build:sops cold 1000 ÷ 100 SOPs', goal: '<= 11', unit: 's' } as const;

interface Project {
  readonly dir: string;
  readonly cli: string;
  /** A fresh folder name under `dir` for each cold build or floor run. */
  fresh(prefix: string): string;
}

/** A project with `count` synthetic SOPs and its own copy of the toolkit's dist/. */
function project(dir: string, count: number): Project {
  layoutProject(dir);
  writeSyntheticSops(join(dir, 'sops'), count, { nodes: 40 });
  let made = 0;
  return { dir, cli: copyToolkit(dir), fresh: (prefix) => `${prefix}-${made++}` };
}

/** One cold build into a fresh out dir; its wall time in ms and the out dir. */
async function coldBuild(p: Project, signal: AbortSignal): Promise<{ ms: number; out: string }> {
  const out = p.fresh('out');
  const result = await runNode([p.cli, 'build', '--sops', 'sops', '--out', out], { cwd: p.dir, timeoutMs: 240_000, signal });
  if (result.code !== 0) throw new Error(`build exited ${result.code}: ${(result.stderr || result.stdout).slice(0, 600)}`);
  return { ms: result.ms, out };
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/**
 * What a cold build into `out` wrote, as the floor's payload: every file of the out dir and the build's cache
 * manifest (the only other file it writes), by path relative to the project. Returns the payload file and size.
 */
function writePayload(p: Project, out: string): { file: string; files: number; bytes: number } {
  const cache = join(p.dir, 'node_modules', '.cache', 'sop-toolkit');
  const written = [...filesUnder(join(p.dir, out)), ...(existsSync(cache) ? filesUnder(cache) : [])];
  const payload = written.map((path) => [relative(p.dir, path), readFileSync(path, 'utf8')]);
  const file = join(p.dir, 'floor-payload.json');
  writeFileSync(file, JSON.stringify(payload));
  return { file, files: written.length, bytes: written.reduce((sum, path) => sum + statSync(path).size, 0) };
}

interface Phases {
  readonly first: { readonly compile: number; readonly emit: number; readonly parse: number };
  readonly steady: { readonly compile: number; readonly emit: number; readonly parse: number };
}

/** The build's work split in one thread: `bench/probes/build-phases.ts` on the project's SOPs. */
async function buildPhases(p: Project, rounds: number, signal: AbortSignal): Promise<Phases> {
  const result = await runNode([BUILD_PHASES_PROBE, 'sops', String(rounds)], { cwd: p.dir, timeoutMs: 120_000, signal });
  if (result.code !== 0) throw new Error(`the build-phases probe exited ${result.code}: ${result.stderr.slice(-400)}`);
  return JSON.parse(result.stdout) as Phases;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const { quick, signal } = ctx;
  const small = quick ? 5 : 100;

  const p100 = project(join(ctx.tmp, `build-${small}`), small);
  // Untimed: it collects the floor's payload, and warms the file cache (ts-morph, typescript, remark) for both sides.
  const first = await coldBuild(p100, signal);
  const payload = writePayload(p100, first.out);
  const floorRun = async (): Promise<void> => {
    const result = await runNode([PARSE_FLOOR, 'sops', payload.file, p100.fresh('floor')], { cwd: p100.dir, timeoutMs: 120_000, signal });
    if (result.code !== 0) throw new Error(`the parse+write floor exited ${result.code}: ${result.stderr.slice(0, 400)}`);
    if (!result.stdout.startsWith(`${small} files`)) throw new Error(`the parse+write floor parsed the wrong files: ${result.stdout}`);
  };
  ctx.log(`row 4: cold builds of ${small} SOPs vs the parse+write floor`);
  const pair = await repeatPair(() => coldBuild(p100, signal), floorRun, { warmup: 0, runs: quick ? 1 : 5, minRuns: 3, budgetMs: 60_000 });
  const cold100 = median(pair.subject);

  ctx.log("row 4: no-op rebuilds vs node -e ''");
  const rebuild = (): Promise<unknown> =>
    runNode([p100.cli, 'build', '--sops', 'sops', '--out', first.out], { cwd: p100.dir, timeoutMs: 30_000, signal }).then((r) => {
      if (r.code !== 0) throw new Error(`no-op build exited ${r.code}: ${r.stderr.slice(0, 400)}`);
    });
  const bare = (): Promise<unknown> => runNode(['-e', ''], { cwd: p100.dir, timeoutMs: 10_000, signal });
  const noop = await repeatPair(rebuild, bare, { warmup: quick ? 0 : 1, runs: quick ? 1 : 11 });
  const phases = await buildPhases(p100, quick ? 1 : 3, signal);

  const runsNote = (times: readonly number[]): string => `median of ${times.length}`;
  const rows = [
    row({
      ...COLD,
      value: cold100 / 1000,
      floor: median(pair.baseline) / 1000,
      note:
        `${quick ? `quick mode: ${small} SOPs, not 100; ` : ''}${runsNote(pair.subject)}, alternating; the floor parses the same files ` +
        `(frontmatter and yaml blocks with yaml, the body with remark-parse) on one thread and writes the build's ` +
        `${payload.files} files (${(payload.bytes / 1024 / 1024).toFixed(1)} MiB); in one thread (build-phases probe), ` +
        `first round / steady: compile ${phases.first.compile.toFixed(0)} / ${phases.steady.compile.toFixed(0)} ms, ` +
        `emit ${phases.first.emit.toFixed(0)} / ${phases.steady.emit.toFixed(0)} ms, the floor's parse ` +
        `${phases.first.parse.toFixed(0)} / ${phases.steady.parse.toFixed(0)} ms`,
    }),
    row({ ...NOOP, value: median(noop.subject), floor: median(noop.baseline), note: runsNote(noop.subject) }),
  ];
  if (quick) return [...rows, skippedInQuickMode(SCALE, 'a cold build of 1000 SOPs takes 20 s')];

  ctx.log('row 4: cold builds of 1000 SOPs');
  const p1000 = project(join(ctx.tmp, 'build-1000'), 1000);
  const coldLarge = await repeat(() => coldBuild(p1000, signal), { warmup: 0, runs: 3, minRuns: 1, budgetMs: 60_000 });
  return [
    ...rows,
    row({
      ...SCALE,
      value: median(coldLarge) / 1000,
      floor: cold100 / 1000,
      note: `${runsNote(coldLarge)} (the 100-SOP figure is the cold row's)`,
    }),
  ];
}

export const buildSopsRow: BenchRow = {
  id: 'build',
  title: 'build:sops',
  specs: [COLD, NOOP, SCALE],
  budgetMs: 180_000,
  run,
};
