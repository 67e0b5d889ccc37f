// The emitted machine walks exactly the edge table: checked with the shared checker on imported output.
import type { AnyStateMachine } from 'xstate';
import { setup } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitProject } from '../../../generator/emit/emit-project.js';
import type { CompiledSop } from '../../../runtime/compiled-sop.js';
import { compareMachineWithEdges } from '../../support/machine-vs-edges.js';
import { writeEmittedProject } from './emitted-project.js';
import type { EmittedProject } from './emitted-project.js';
import { buildModel, retailFixture, syntheticFixture } from './model-fixture.js';

const fixtures = {
  retail_customer_support: retailFixture(),
  synthetic: syntheticFixture(40),
  // An unreachable island and a node with a self-loop.
  islands: buildModel({
    agent: 'islands',
    edges: ['START --> LOOP', 'LOOP -->|again| LOOP', 'LOOP -->|done| END', 'ORPHAN --> END'],
  }),
};

let project: EmittedProject;
beforeAll(() => {
  project = writeEmittedProject(emitProject(Object.values(fixtures)));
});
afterAll(() => project.remove());

async function load(agent: string): Promise<{ machine: AnyStateMachine; sop: CompiledSop }> {
  const graph = await project.importGenerated<{ SOP: CompiledSop }>(`${agent}/graph.ts`);
  const machineModule = await project.importGenerated<Record<string, AnyStateMachine>>(`${agent}/machine.ts`);
  const [machine] = Object.values(machineModule);
  if (!machine) throw new Error(`no machine exported by ${agent}/machine.ts`);
  return { machine, sop: graph.SOP };
}

describe('emitted machines match their edge tables', () => {
  it.each(Object.keys(fixtures))('%s', async (agent) => {
    const { machine, sop } = await load(agent);
    expect(compareMachineWithEdges(machine, sop)).toEqual([]);
  });

  it('compares reachability from the entry, not the node list (the orphan is a state, never reached)', async () => {
    const { machine, sop } = await load('islands');
    expect(sop.nodeIds).toContain('ORPHAN');
    expect(Object.keys(machine.root.states)).toContain('ORPHAN');
    expect(getShortestPaths(machine).map((p) => p.state.value)).not.toContain('ORPHAN');
  });
});

describe('the checker notices disagreements', () => {
  it('reports a missing transition, an extra one and a wrong final state', async () => {
    const { sop } = await load('islands');
    const wrong = setup({}).createMachine({
      id: 'islands',
      initial: 'START',
      states: {
        START: { description: 'START', meta: { type: 'rectangle' }, on: { 'GOTO.END': { target: 'END' } } },
        LOOP: { description: 'LOOP', meta: { type: 'rectangle' }, on: { 'GOTO.END': { target: 'END' } } },
        END: { description: 'END', meta: { type: 'rectangle' } },
        ORPHAN: { description: 'ORPHAN', meta: { type: 'rectangle' }, type: 'final' },
      },
    });
    const problems = compareMachineWithEdges(wrong, sop);
    expect(problems).toEqual(
      expect.arrayContaining([
        'START: machine has GOTO.END → END, the edge table has no edge START → END',
        'START: edge START → LOOP has no machine transition',
        'LOOP: edge LOOP → LOOP has no machine transition',
        'END: state type is atomic but the node has 0 outgoing edges',
        'ORPHAN: state type is final but the node has 1 outgoing edges',
        'the machine reaches [END, START], the edges reach [END, LOOP, START] from the entry',
      ]),
    );
  });
});
