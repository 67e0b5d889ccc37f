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

  it('fails only the file a worker was on when it stops (here: out of memory), and compiles the rest on a new one', async () => {
    const { compileInParallel } = (await import(
      new URL('../../dist/generator/compile-in-parallel.js', import.meta.url).href
    )) as typeof import('../../generator/compile-in-parallel.js');
    // A valid SOP whose 220 KB node_prompts map needs far more than the 16 MB heap the worker gets here.
    const entries = Array.from({ length: 8_000 }, (_, i) => `  N${i}: {prompt: "step ${i}"}`).join('\n');
    const heavy = BASE_SOP.replace(/### ASK[\s\S]*/, `\`\`\`yaml\nnode_prompts:\n${entries}\n\`\`\`\n`);
    const jobs = ['a', 'heavy', 'c'].map((name) => ({
      file: `sops/${name}.md`,
      raw: name === 'heavy' ? heavy : BASE_SOP.replace('demo', name),
    }));
    const results = await compileInParallel(jobs, undefined, { threads: 1, workerHeapMb: 16 });
    expect(results.map((c) => c.file)).toEqual(jobs.map((j) => j.file));
    expect(results[1]).toMatchObject({ model: null, diagnostics: [{ code: 'SOP090', severity: 'error', line: 1, column: 1 }] });
    expect(results[1]!.diagnostics[0]!.message).toMatch(/^The compiler failed on this file: .*memory limit/);
    expect([results[0]!.diagnostics, results[2]!.diagnostics]).toEqual([[], []]);
    expect(results[2]!.model?.agent).toBe('c');
  });
});
