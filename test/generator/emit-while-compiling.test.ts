// Printing each SOP's files as it compiles gives exactly what emitting everything at the end gives, and only
// for the SOPs the build finally asks for.
import { describe, expect, it } from 'vitest';
import { compileSop, type CompiledFile } from '../../generator/compile-sop.js';
import { type EmitWhileCompiling, emitWhileCompiling } from '../../generator/emit-while-compiling.js';
import { emitProject } from '../../generator/emit/emit-project.js';
import { compareCodeUnits } from '../../generator/model/naming.js';
import { BASE_SOP, withLine } from '../support/sop-text.js';

const compileAgent = (agent: string, text = BASE_SOP): CompiledFile =>
  compileSop(`sops/${agent}.md`, text.replace('agent: demo', `agent: ${agent}`));
const emitAll = (clean: readonly CompiledFile[]) => emitProject(clean.map((c) => ({ model: c.model!, facts: c.facts! })));
/** What a build writes: the SOPs' own files and the project files listing them, sorted by path. */
async function finish(emitting: EmitWhileCompiling, clean: readonly CompiledFile[]) {
  const { printed, failed } = await emitting.agentFiles(clean);
  expect(failed).toEqual([]);
  const project = await emitting.projectFiles(
    printed.map((p) => p.compiled),
    [],
  );
  return [...printed.flatMap((p) => p.files), ...project].sort((a, b) => compareCodeUnits(a.path, b.path));
}

describe('emitWhileCompiling', () => {
  it('gives what emitting at the end gives, whether the emitter was loaded before or after the SOPs came', async () => {
    const clean = ['b_agent', 'a_agent', 'c_agent'].map((agent) => compileAgent(agent));
    for (const preload of [true, false]) {
      const emitting = emitWhileCompiling({ preload });
      for (const compiled of clean) emitting.add(compiled);
      const files = await finish(emitting, clean);
      expect(files).toEqual(emitProject(clean.map((c) => ({ model: c.model!, facts: c.facts! }))));
    }
  });

  it('leaves out SOPs with errors and SOPs the build drops', async () => {
    const good = compileAgent('good');
    const broken = compileAgent('broken', withLine(19, '### ASKK'));
    const dropped = compileAgent('dropped'); // e.g. failed a cross-file check
    expect(broken.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    const emitting = emitWhileCompiling({});
    for (const compiled of [good, broken, dropped]) emitting.add(compiled);
    const files = await finish(emitting, [good]);
    expect(files).toEqual(emitAll([good]));
    expect(files.map((f) => f.path)).toEqual([
      'good/graph.ts',
      'good/ids.ts',
      'good/machine.ts',
      'index.ts',
      'registry.ts',
      'sop-bundle.json',
    ]);
  });

  it('prints a SOP it was not handed at the end', async () => {
    const [a, b] = [compileAgent('a_agent'), compileAgent('b_agent')];
    const emitting = emitWhileCompiling({});
    emitting.add(a);
    expect(await finish(emitting, [a, b])).toEqual(emitAll([a, b]));
  });

  it('reports an emitter failure as the failure of that SOP alone, only when it is asked for', async () => {
    const good = compileAgent('good');
    const clean = compileAgent('bad');
    // A model no checked SOP has: the emitter treats it as a compiler bug.
    const bad: CompiledFile = { ...clean, model: { ...clean.model!, agent: 'Not-An-Agent' } };
    const emitting = emitWhileCompiling({ preload: true });
    emitting.add(good);
    emitting.add(bad);
    expect(await finish(emitting, [good])).toEqual(emitAll([good]));
    const both = await emitting.agentFiles([good, bad]);
    expect(both.printed.map((p) => p.compiled)).toEqual([good]);
    expect(both.failed.map((f) => f.compiled)).toEqual([bad]);
    expect(String(both.failed[0]!.error)).toMatch(/agent name "Not-An-Agent"/);
  });
});
