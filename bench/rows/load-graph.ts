/**
 * Row 2: `load_graph` of a precompiled agent ÷ what a runtime without a build step does per request: read the
 * SOP markdown and run the real compiler's parse → model → check on it (`compileSop` of the generator).
 * In-process, transport excluded on both sides:
 *   subject  = the runtime's `load_graph` handler (zod validation, lookup in the generated registry, the
 *              cached prepared agent, the pure `loadGraph`) + `JSON.stringify` of its answer, as served;
 *   baseline = `readFileSync` + `compileSop(file, text)`.
 * Steady state (the first call imports the agent's module once per process; reported in the note).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import type { BenchContext, BenchRow } from '../context.js';
import { importDist, missing } from '../project.js';
import { row, unmeasured, type Row } from '../report.js';
import { msSince, perCallMedian } from '../stats.js';
import { benchAgent } from './agent-choice.js';

const SPEC = { name: 'load_graph precompiled ÷ parse+check at request time', goal: '<= 0.01', unit: 'µs' } as const;

interface Outcome {
  readonly answer: object;
  readonly isError: boolean;
}
interface SopToolModule {
  readonly SOP_TOOLS: readonly { name: string; call(context: object, session: object, args: unknown): Promise<Outcome> }[];
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const absent = missing('buildCommand', 'compileSop', 'sopTools');
  if (absent) return [unmeasured(SPEC, absent)];
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const dist = (...parts: string[]): string => join(fixture.dir, 'dist', ...parts);

  const bundle = JSON.parse(readFileSync(join(fixture.dir, 'generated', 'sop-bundle.json'), 'utf8')) as SopBundle;
  const { createCatalog } = await importDist<{ createCatalog(bundle: SopBundle): object }>(dist('runtime', 'agents', 'agent-catalog.js'));
  const { SOP_TOOLS } = await importDist<SopToolModule>(dist('runtime', 'mcp', 'sop-tools.js'));
  const { EMPTY_SESSION } = await importDist<{ EMPTY_SESSION: object }>(dist('runtime', 'session', 'session-state.js'));
  const { compileSop } = await importDist<{ compileSop(file: string, raw: string): { diagnostics: readonly { severity: string }[] } }>(
    dist('generator', 'compile-sop.js'),
  );
  const tool = SOP_TOOLS.find((t) => t.name === 'load_graph');
  if (!tool) throw new Error('the runtime has no load_graph tool');
  const entry = bundle.agents[agent];
  if (!entry) throw new Error(`agent ${agent} is not in the generated bundle`);
  const context = { catalog: createCatalog(bundle), projectRoot: fixture.dir };
  const sopPath = join(fixture.dir, entry.sourceFile);

  const serve = async (args: object): Promise<string> => {
    const outcome = await tool.call(context, EMPTY_SESSION, args);
    if (outcome.isError) throw new Error(`load_graph failed: ${JSON.stringify(outcome.answer).slice(0, 300)}`);
    return JSON.stringify(outcome.answer);
  };
  const coldStart = process.hrtime.bigint();
  await serve({ agent });
  const coldMs = msSince(coldStart);
  const parse = (): void => {
    const compiled = compileSop(entry.sourceFile, readFileSync(sopPath, 'utf8'));
    if (compiled.diagnostics.some((d) => d.severity === 'error')) throw new Error(`${entry.sourceFile} does not compile cleanly`);
  };

  const runs = ctx.quick ? 3 : 9;
  ctx.log(`row 2: load_graph(${agent}) vs compileSop(${entry.sourceFile}), ${runs} batches each`);
  const baseline = await perCallMedian(parse, { warmup: 2, runs, batch: ctx.quick ? 2 : 10 });
  const subject = await perCallMedian(() => serve({ agent }), { warmup: 2, runs, batch: ctx.quick ? 50 : 2000 });
  const bySopFile = await perCallMedian(() => serve({ sop_file: entry.sourceFile }), { warmup: 2, runs, batch: ctx.quick ? 50 : 500 });
  return [
    row({
      ...SPEC,
      value: subject * 1000,
      floor: baseline * 1000,
      note:
        `${agent}; by sop_file (hash check of the source): ${(bySopFile * 1000).toFixed(1)} µs; ` +
        `first call in the process (module import + prepare): ${coldMs.toFixed(1)} ms`,
    }),
  ];
}

export const loadGraphRow: BenchRow = {
  id: 'load-graph',
  title: 'load_graph vs request-time parsing',
  specs: [SPEC],
  budgetMs: 60_000,
  run,
};
