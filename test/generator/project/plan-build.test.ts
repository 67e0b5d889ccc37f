/**
 * A large project builds the same through worker threads (the transpiled build in dist/, made by the global
 * setup, since workers need a JavaScript entry script) as in one thread (the TypeScript sources, which have
 * none): outputs, diagnostics, completeness, and which agents failed, with files that have errors of their
 * own and files that fail a cross-file check among them.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { planBuild } from '../../../generator/project/plan-build.js';
import { workerThreadsFor } from '../../../generator/compile-in-parallel.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

type PlanBuildModule = typeof import('../../../generator/project/plan-build.js');
type CompileInParallelModule = typeof import('../../../generator/compile-in-parallel.js');
const dist = async <T>(path: string): Promise<T> => (await import(new URL(`../../../dist/generator/${path}`, import.meta.url).href)) as T;

function project(count: number, broken: (i: number) => string | null): { file: string; raw: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    file: `sops/agent_${String(i).padStart(2, '0')}.md`,
    raw: (broken(i) ?? BASE_SOP).replace('agent: demo', `agent: agent_${i}`),
  }));
}

describe('planBuild', () => {
  it('builds a clean project the same on worker threads as in one thread', async () => {
    const sources = project(30, () => null);
    const { planBuild: buildOnWorkers } = await dist<PlanBuildModule>('project/plan-build.js');
    const { workerThreadsFor: distWorkers } = await dist<CompileInParallelModule>('compile-in-parallel.js');
    expect(workerThreadsFor(sources.length)).toBe(0); // the sources have no worker script
    const onWorkers = await buildOnWorkers(sources);
    const inThread = await planBuild(sources);
    expect(onWorkers.outputs.map((f) => f.path)).toContain('index.ts');
    expect(onWorkers).toEqual(inThread);
    expect(distWorkers(sources.length) > 0).toBe(availableParallelism() > 1); // one core: both in one thread
  });

  it('builds a project with broken files and a duplicate agent the same on worker threads', async () => {
    const sources = project(30, (i) => (i % 9 === 4 ? withLine(19, '### ASKK') : null));
    sources.push({ file: 'sops/zz_duplicate.md', raw: BASE_SOP.replace('agent: demo', 'agent: agent_7') });
    const { planBuild: buildOnWorkers } = await dist<PlanBuildModule>('project/plan-build.js');
    const onWorkers = await buildOnWorkers(sources);
    const inThread = await planBuild(sources);
    expect(onWorkers.complete).toBe(false);
    expect(onWorkers.failedAgents).toEqual(expect.arrayContaining(['agent_4', 'agent_7', 'agent_13', 'agent_22']));
    // Good agents still build: the project files list them (and no failed agent: there is no previous bundle).
    expect(onWorkers.outputs.map((f) => f.path)).toContain('index.ts');
    expect(onWorkers.outputs.find((f) => f.path === 'registry.ts')?.content).not.toContain('agent_4');
    expect(onWorkers.outputs.some((f) => f.path.startsWith('agent_7/'))).toBe(false);
    expect(onWorkers.outputs.some((f) => f.path.startsWith('agent_8/'))).toBe(true);
    expect(onWorkers).toEqual(inThread);
  });
});
