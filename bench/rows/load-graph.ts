/**
 * Row 2: `load_graph` of a precompiled agent ÷ what a runtime without a build step does per request: read the
 * SOP markdown and run the real compiler's parse → model → check on it (`compileSop` of the generator).
 * In-process, transport excluded on both sides:
 *   subject  = the session service's `load_graph` (`service.callTool`, as every transport calls it): input
 *              validation, the agent from the bundle's catalog, its prepared tables, a new run created in the
 *              store (memory, stdio's default) with its first audit entry, the answer and its JSON text;
 *   baseline = `readFileSync` + `compileSop(file, text)`.
 * Steady state (the first call prepares the agent; reported in the note), medians of batches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSop } from '../../generator/compile-sop.js';
import type { BenchContext, BenchRow } from '../context.js';
import { openInProcessService } from '../in-process-service.js';
import { row, type Row } from '../report.js';
import { msSince, perCallMedian } from '../stats.js';
import { benchAgent } from './agent-choice.js';

const SPEC = { name: 'load_graph precompiled ÷ parse+check at request time', goal: '<= 0.01', unit: 'µs' } as const;
const CALLER = { principal: 'bench' } as const;

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  const agent = benchAgent(fixture);
  const opened = await openInProcessService(fixture.dir, 'memory');
  try {
    const entry = opened.service.catalog().entries.find((sop) => sop.meta.agent === agent);
    if (!entry) throw new Error(`agent ${agent} is not in the generated bundle`);
    const sopPath = join(fixture.dir, entry.sourceFile);
    const serve = (args: Record<string, unknown>): Promise<unknown> => opened.call('load_graph', args, CALLER);

    const coldStart = process.hrtime.bigint();
    await serve({ agent });
    const coldMs = msSince(coldStart);
    const parse = (): void => {
      const compiled = compileSop(entry.sourceFile, readFileSync(sopPath, 'utf8'));
      if (compiled.diagnostics.some((d) => d.severity === 'error')) throw new Error(`${entry.sourceFile} does not compile cleanly`);
    };

    const runs = ctx.quick ? 3 : 9;
    ctx.log(`row 2: load_graph(${agent}) vs compileSop(${entry.sourceFile}), ${runs} batches each`);
    const baseline = await perCallMedian(parse, { warmup: ctx.quick ? 1 : 2, runs, batch: ctx.quick ? 2 : 10 });
    const subject = await perCallMedian(() => serve({ agent }), { warmup: 2, runs, batch: ctx.quick ? 50 : 2000 });
    const bySopFile = await perCallMedian(() => serve({ sop_file: entry.sourceFile }), { warmup: 2, runs, batch: ctx.quick ? 20 : 500 });
    return [
      row({
        ...SPEC,
        value: subject * 1000,
        floor: baseline * 1000,
        note:
          `${agent}, memory store; by sop_file (reads and hashes the source to check it is the compiled version): ` +
          `${(bySopFile * 1000).toFixed(1)} µs; first call in the process (prepares the agent): ${coldMs.toFixed(1)} ms`,
      }),
    ];
  } finally {
    await opened.close();
  }
}

export const loadGraphRow: BenchRow = {
  id: 'load-graph',
  title: 'load_graph vs request-time parsing',
  specs: [SPEC],
  budgetMs: 60_000,
  run,
};
