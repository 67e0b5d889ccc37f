/**
 * Row 5: `tsc --noEmit` of an app importing 100 generated agents ÷ the same app importing the same graphs
 * written by hand as `setup().createMachine` modules (bench/floors/hand-machines.ts). The app is identical on
 * both sides: per agent, import the machine and its `NodeId` type, start an actor, send the first `GOTO.<id>`
 * event, check `snapshot.matches()` with a `NodeId`-typed value, so that the machine types are really
 * instantiated. Compiler options are the project's (strict, NodeNext).
 * The generated side imports what app code should: the machine from `generated/<agent>/machine.js`, `NodeId`
 * from `generated/<agent>/ids.js` (ids and types only). Not from `graph.js`: that module holds the agent's
 * data (prompts, system prompt, the `SOP` object), which app code that only types never needs.
 * Runs alternate; medians. With the project's TypeScript (5.9) and TypeScript 7 (native), installed from npm
 * into a temp prefix once (a failed install fails the row). Skipped in quick mode.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext, BenchRow, RowSpec } from '../context.js';
import type { FixtureProject } from '../fixture-project.js';
import { handMachineModule, handMachineName, handPathModule } from '../floors/hand-machines.js';
import { run as runCommand, runNode } from '../processes.js';
import { ROOT } from '../project.js';
import { row, type Row } from '../report.js';
import { median, repeatPair } from '../stats.js';
import type { SyntheticSop } from '../synthetic-sop.js';

const projectTs = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string };
const TS5 = { name: `tsc --noEmit, 100 generated agents ÷ hand-written (TS ${projectTs.version})`, goal: '<= 1.2', unit: 's' } as const;
const TS7 = { name: 'tsc --noEmit, 100 generated agents ÷ hand-written (TS 7)', goal: '<= 1.2', unit: 's' } as const;

const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
  // Generated modules import `sop-toolkit/contract`; the fixture links the repository's contract/ (fixture-project.ts).
  paths: { 'sop-toolkit/contract': ['./contract/index.ts'] },
};

/** The export of `generated/<agent>/machine.ts` that holds the machine (found in the emitted text). */
function generatedMachineExport(dir: string, agent: string): string {
  const file = join(dir, 'generated', agent, 'machine.ts');
  if (!existsSync(file)) throw new Error(`the build emitted no ${file.slice(dir.length + 1)}`);
  const match = /export const (\w+)(?:\s*:[^=]+)?\s*=\s*setup\(/.exec(readFileSync(file, 'utf8'));
  if (!match?.[1]) throw new Error(`no \`export const … = setup(\` in generated/${agent}/machine.ts`);
  return match[1];
}

/** Where the app imports an agent's machine and its `NodeId` type from. */
interface AgentImports {
  readonly machine: string;
  readonly machineFrom: string;
  readonly nodeIdFrom: string;
}

/**
 * The app: the same code over either kind of module. Per agent: start an actor, send the first move, and
 * check the state with a value typed by the agent's `NodeId`.
 */
function app(sops: readonly SyntheticSop[], importsOf: (sop: SyntheticSop) => AgentImports): string {
  const lines = ["import { createActor } from 'xstate';"];
  const body: string[] = [];
  sops.forEach((sop, i) => {
    const { machine, machineFrom, nodeIdFrom } = importsOf(sop);
    lines.push(`import { ${machine} as m${i} } from '${machineFrom}';`, `import type { NodeId as N${i} } from '${nodeIdFrom}';`);
    const first = sop.graph.edges.find((e) => e.from === sop.graph.entryNode)?.to as string;
    body.push(
      `const a${i} = createActor(m${i}).start();`,
      `a${i}.send({ type: 'GOTO.${first}' });`,
      `const s${i}: N${i} = '${first}';`,
      `export const at${i}: boolean = a${i}.getSnapshot().matches(s${i});`,
    );
  });
  return [...lines, '', ...body, ''].join('\n');
}

/** Writes both apps, the hand-written machines and one tsconfig per side into the fixture. */
function writeApps(fixture: FixtureProject): void {
  const dir = fixture.dir;
  mkdirSync(join(dir, 'hand'), { recursive: true });
  writeFileSync(join(dir, 'hand', 'path.ts'), handPathModule());
  for (const sop of fixture.synthetic) writeFileSync(join(dir, 'hand', `${sop.agent}.ts`), handMachineModule(sop.graph));
  const generated = app(fixture.synthetic, (s) => ({
    machine: generatedMachineExport(dir, s.agent),
    machineFrom: `./generated/${s.agent}/machine.js`,
    nodeIdFrom: `./generated/${s.agent}/ids.js`,
  }));
  const hand = app(fixture.synthetic, (s) => ({
    machine: handMachineName(s.agent),
    machineFrom: `./hand/${s.agent}.js`,
    nodeIdFrom: `./hand/${s.agent}.js`,
  }));
  writeFileSync(join(dir, 'app-generated.ts'), generated);
  writeFileSync(join(dir, 'app-hand.ts'), hand);
  for (const side of ['generated', 'hand']) {
    writeFileSync(
      join(dir, `tsconfig.${side}.json`),
      JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: [`app-${side}.ts`] }, null, 2),
    );
  }
}

type Tsc = (args: readonly string[], cwd: string) => Promise<{ code: number | null; ms: number; stdout: string; stderr: string }>;

/** Alternating runs of both apps; medians in s and how many runs each. */
async function compare(tsc: Tsc, dir: string): Promise<{ generated: number; hand: number; runs: number }> {
  const check = (side: 'generated' | 'hand') => async (): Promise<void> => {
    const result = await tsc(['--noEmit', '-p', `tsconfig.${side}.json`], dir);
    if (result.code !== 0) {
      throw new Error(`tsc on the ${side} app failed (exit ${result.code}): ${(result.stdout + result.stderr).slice(0, 600)}`);
    }
  };
  // No warm-up round: the fixture's files were just written, and a whole tsc run per side is the expensive part.
  const times = await repeatPair(check('generated'), check('hand'), { warmup: 0, runs: 5, minRuns: 3, budgetMs: 60_000 });
  return { generated: median(times.subject) / 1000, hand: median(times.baseline) / 1000, runs: times.subject.length };
}

/** TypeScript 7 from npm into a temp prefix, kept between bench runs; throws with the reason when it cannot run. */
async function typescript7(ctx: BenchContext): Promise<{ tsc: Tsc; version: string }> {
  const { signal } = ctx;
  const prefix = join(tmpdir(), 'sop-bench-typescript7');
  const bin = join(prefix, 'node_modules', '.bin', 'tsc');
  if (!existsSync(bin)) {
    ctx.log(`row 5: npm install --prefix ${prefix} typescript@7`);
    mkdirSync(prefix, { recursive: true });
    const npm = await runCommand('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', 'typescript@7'], {
      cwd: prefix,
      timeoutMs: 120_000,
      signal,
    });
    if (npm.code !== 0 || !existsSync(bin))
      throw new Error(`npm install typescript@7 failed: ${npm.stderr.trim().split('\n').pop() ?? ''}`);
  }
  const tsc: Tsc = (args, cwd) => runCommand(bin, args, { cwd, timeoutMs: 120_000, signal });
  const version = await tsc(['--version'], prefix);
  if (version.code !== 0) throw new Error(`typescript@7 does not run here: ${(version.stderr || version.stdout).slice(0, 200)}`);
  return { tsc, version: version.stdout.trim().replace(/^Version\s+/, '') };
}

function tsRow(spec: RowSpec, result: { generated: number; hand: number; runs: number }, agents: string): Row {
  return row({ ...spec, value: result.generated, floor: result.hand, note: `${agents}; median of ${result.runs}` });
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  writeApps(fixture);
  const agents = `${fixture.synthetic.length} agents × 40 nodes`;
  const tsc5: Tsc = (args, cwd) =>
    runNode([join(ROOT, 'node_modules', 'typescript', 'lib', 'tsc.js'), ...args], { cwd, timeoutMs: 120_000, signal: ctx.signal });
  ctx.log(`row 5: tsc ${projectTs.version}, alternating runs`);
  const rows = [tsRow(TS5, await compare(tsc5, fixture.dir), agents)];
  const ts7 = await typescript7(ctx);
  ctx.log(`row 5: tsc ${ts7.version}, alternating runs`);
  return [...rows, tsRow({ ...TS7, name: TS7.name.replace('TS 7', `TS ${ts7.version}`) }, await compare(ts7.tsc, fixture.dir), agents)];
}

export const tscRow: BenchRow = {
  id: 'tsc',
  title: 'type-checking cost',
  specs: [TS5, TS7],
  budgetMs: 180_000,
  quickSkip: 'a few tsc runs take a minute',
  run,
};
