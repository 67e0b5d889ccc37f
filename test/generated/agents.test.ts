/**
 * Every agent compiled into `generated/`, on the real XState runtime: its machine agrees with its edge table
 * both ways, and `getShortestPaths` reaches every node that is reachable from the entry node (for our SOPs:
 * every node, since they compile without SOP041).
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { AGENTS } from '../../generated/registry.js';
import { compareMachineWithEdges } from '../support/machine-vs-edges.js';

async function machineOf(agent: string): Promise<AnyStateMachine> {
  const url = new URL(`../../generated/${agent}/machine.ts`, import.meta.url).href;
  const module = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  const machine = Object.values(module).find((v): v is AnyStateMachine => typeof v === 'object' && v !== null && 'root' in v);
  expect(machine, `generated/${agent}/machine.ts exports a machine`).toBeDefined();
  return machine!;
}

describe.each(AGENTS.map((a) => [a.agent, a] as const))('generated agent %s', (agent, entry) => {
  it('has a machine whose transitions equal the edge table, both ways', async () => {
    const sop = await entry.load();
    expect(compareMachineWithEdges(await machineOf(agent), sop)).toEqual([]);
  });

  it('reaches every node from the entry node with getShortestPaths', async () => {
    const sop = await entry.load();
    const reached = new Set(getShortestPaths(await machineOf(agent)).map((p) => String(p.state.value)));
    expect([...reached].sort()).toEqual([...sop.nodeIds].sort());
  });
});
