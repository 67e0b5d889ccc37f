/**
 * Worker-thread compilation gives exactly what compiling in one thread gives, in input order, and hands each
 * result over as it comes. Runs the transpiled build (dist/, made by the global setup), since workers need a
 * JavaScript entry script.
 */
import { describe, expect, it } from 'vitest';
import { compileSop, type CompiledFile } from '../../generator/compile-sop.js';
import { BASE_SOP, withLine } from '../support/sop-text.js';

describe('compileInParallel', () => {
  it('matches single-threaded compilation, diagnostics and all, for a project large enough to use workers', async () => {
    const { compileInParallel } = (await import(
      new URL('../../dist/generator/compile-in-parallel.js', import.meta.url).href
    )) as typeof import('../../generator/compile-in-parallel.js');
    const jobs = Array.from({ length: 40 }, (_, i) => ({
      file: `sops/agent_${i}.md`,
      raw: (i % 7 === 3 ? withLine(19, '### ASKK') : BASE_SOP).replace('agent: demo', `agent: agent_${i}`) + '\n'.repeat(i),
    }));
    const parallel = await compileInParallel(jobs);
    const serial = jobs.map((j) => compileSop(j.file, j.raw));
    expect(parallel.map((c) => c.file)).toEqual(jobs.map((j) => j.file));
    expect(parallel).toEqual(serial);
    expect(parallel.filter((c) => c.diagnostics.some((d) => d.code === 'SOP020'))).toHaveLength(6);
  });

  it('hands each result over as soon as it is compiled, once, as the same object it returns', async () => {
    const { compileInParallel } = (await import(
      new URL('../../dist/generator/compile-in-parallel.js', import.meta.url).href
    )) as typeof import('../../generator/compile-in-parallel.js');
    const jobs = Array.from({ length: 30 }, (_, i) => ({
      file: `sops/agent_${i}.md`,
      raw: BASE_SOP.replace('agent: demo', `agent: agent_${i}`),
    }));
    const handed: CompiledFile[] = [];
    const results = await compileInParallel(jobs, (compiled) => handed.push(compiled));
    expect(handed).toHaveLength(jobs.length);
    expect(new Set(handed)).toEqual(new Set(results));
  });
});
