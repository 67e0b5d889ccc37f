/**
 * Every agent compiled into `generated/`, on the real XState runtime: its machine and the server's transition
 * rule agree on every (state, target) pair the server can reach (`machine-vs-table.ts`), and the JSON bundle the
 * server loads holds exactly the data of the typed graph module.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { compareMachineWithTable } from '../support/machine-vs-table.js';

const bundle = JSON.parse(readFileSync(new URL('../../generated/sop-bundle.json', import.meta.url), 'utf8')) as SopBundle;

async function modulesOf(agent: string): Promise<{ machine: AnyStateMachine; sop: CompiledSop }> {
  const base = new URL(`../../generated/${agent}/`, import.meta.url).href;
  const machineModule = (await import(/* @vite-ignore */ `${base}machine.ts`)) as Record<string, unknown>;
  const graph = (await import(/* @vite-ignore */ `${base}graph.ts`)) as { SOP: CompiledSop };
  const machine = Object.values(machineModule).find((v): v is AnyStateMachine => typeof v === 'object' && v !== null && 'root' in v);
  expect(machine, `generated/${agent}/machine.ts exports a machine`).toBeDefined();
  return { machine: machine!, sop: graph.SOP };
}

describe.each(Object.keys(bundle.agents))('generated agent %s', (agent) => {
  it('has a machine that allows exactly the moves the server allows, ending on the same path', async () => {
    const { machine, sop } = await modulesOf(agent);
    const comparison = compareMachineWithTable(machine, sop);
    expect(comparison.problems).toEqual([]);
    expect(comparison.pairs).toBe(comparison.configurations * sop.nodeIds.length);
    expect(comparison.configurations).toBeGreaterThanOrEqual(sop.nodeIds.length);
  });

  it('is served from the bundle with the data of its typed graph module', async () => {
    const { sop } = await modulesOf(agent);
    expect(bundle.agents[agent]).toEqual(JSON.parse(JSON.stringify(sop)));
  });
});
