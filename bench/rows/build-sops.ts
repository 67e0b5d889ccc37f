/**
 * Row 4: `build:sops` on synthetic SOPs (40 nodes each), as a user runs it: `node dist/cli/main.js build
 * --sops DIR --out DIR` spawned from a throw-away project (so the build cache lands there).
 *   - cold: a fresh out dir, no cache; 100 SOPs; goal ≤ 1.5 s.
 *   - no-op rebuild: nothing changed since the last build, ÷ `node -e ''` (Node's own start-up); goal ≤ 4.
 *   - scaling: cold 1000 SOPs ÷ cold 100 SOPs; goal ≤ 11 (linear, with room for noise).
 * Runs are alternated where two things are compared, and medians reported.
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext, BenchRow } from '../context.js';
import { layoutProject } from '../fixture-project.js';
import { runNode } from '../processes.js';
import { missing, ROOT } from '../project.js';
import { row, unmeasured, type Row } from '../report.js';
import { median, repeat, repeatPair } from '../stats.js';
import { writeSyntheticSops } from '../synthetic-sop.js';

const COLD = { name: 'build:sops cold, 100 SOPs × 40 nodes', goal: '<= 1.5', goalOn: 'value', unit: 's' } as const;
const NOOP = { name: "build:sops no-op rebuild ÷ node -e ''", goal: '<= 4', unit: 'ms' } as const;
const SCALE = { name: 'build:sops cold 1000 ÷ 100 SOPs', goal: '<= 11', unit: 's' } as const;

/** A project with `count` synthetic SOPs and its own copy of the toolkit's dist/. */
function project(dir: string, count: number): { dir: string; cli: string } {
  layoutProject(dir);
  writeSyntheticSops(join(dir, 'sops'), count, { nodes: 40 });
  for (const part of ['cli', 'generator', 'runtime']) {
    const from = join(ROOT, 'dist', part);
    if (existsSync(from)) cpSync(from, join(dir, 'dist', part), { recursive: true });
  }
  return { dir, cli: join(dir, 'dist', 'cli', 'main.js') };
}

let outCounter = 0;
/** One cold build into a fresh out dir; returns its wall time in ms. */
async function coldBuild(p: { dir: string; cli: string }, signal: AbortSignal): Promise<number> {
  const out = `out-${outCounter++}`;
  const result = await runNode([p.cli, 'build', '--sops', 'sops', '--out', out], { cwd: p.dir, timeoutMs: 240_000, signal });
  if (result.code !== 0) throw new Error(`build exited ${result.code}: ${(result.stderr || result.stdout).slice(0, 600)}`);
  return result.ms;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const absent = missing('buildCommand');
  if (absent) return [unmeasured(COLD, absent), unmeasured(NOOP, absent), unmeasured(SCALE, absent)];
  const { quick, signal } = ctx;
  const small = quick ? 5 : 100;
  const large = quick ? 20 : 1000;

  // Warm the file cache (ts-morph, typescript, remark) with a tiny build, so the first cold run is not colder.
  await coldBuild(project(join(ctx.tmp, 'build-warm'), 3), signal);

  const p100 = project(join(ctx.tmp, `build-${small}`), small);
  ctx.log(`row 4: cold builds of ${small} SOPs`);
  const cold = await repeat(() => coldBuild(p100, signal), { warmup: 0, runs: quick ? 1 : 5, minRuns: 3, budgetMs: 30_000 });
  const cold100 = median(cold);

  ctx.log("row 4: no-op rebuilds vs node -e ''");
  const rebuild = (): Promise<unknown> =>
    runNode([p100.cli, 'build', '--sops', 'sops', '--out', 'out-0'], { cwd: p100.dir, timeoutMs: 30_000, signal }).then((r) => {
      if (r.code !== 0) throw new Error(`no-op build exited ${r.code}: ${r.stderr.slice(0, 400)}`);
    });
  const bare = (): Promise<unknown> => runNode(['-e', ''], { cwd: p100.dir, timeoutMs: 10_000, signal });
  const noop = await repeatPair(rebuild, bare, { warmup: 1, runs: quick ? 2 : 11 });

  ctx.log(`row 4: cold builds of ${large} SOPs`);
  const pLarge = project(join(ctx.tmp, `build-${large}`), large);
  const coldLarge = await repeat(() => coldBuild(pLarge, signal), { warmup: 0, runs: quick ? 1 : 3, minRuns: 1, budgetMs: 60_000 });

  const runsNote = (times: readonly number[]): string => `median of ${times.length}`;
  return [
    row({ ...COLD, value: cold100 / 1000, note: quick ? `quick mode: ${small} SOPs, not 100` : runsNote(cold) }),
    row({ ...NOOP, value: median(noop.subject), floor: median(noop.baseline), note: runsNote(noop.subject) }),
    row({
      ...SCALE,
      value: median(coldLarge) / 1000,
      floor: cold100 / 1000,
      note: `${quick ? `quick mode: ${large} ÷ ${small} SOPs; ` : ''}${runsNote(coldLarge)} (the 100-SOP figure is the cold row's)`,
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
