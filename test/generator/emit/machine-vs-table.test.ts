// The emitted machine follows exactly the server's transition table: checked with the shared checker on imported output.
import type { AnyStateMachine } from 'xstate';
import { assign, setup } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitProject } from '../../../generator/emit/emit-project.js';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { compareMachineWithTable } from '../../support/machine-vs-table.js';
import { writeEmittedProject } from './emitted-project.js';
import type { EmittedProject } from './emitted-project.js';
import { buildModel, retailFixture, syntheticFixture } from './model-fixture.js';

const fixtures = {
  retail_customer_support: retailFixture(),
  synthetic: syntheticFixture(40),
  // Visit limits on a successor in a loop, on a hub and on the entry node, escalating to a terminal and to a hub.
  limits: limitsFixture(true),
  limits_free: limitsFixture(false),
  // An unreachable island, a node with a self-loop, and a hub behind it.
  islands: buildModel({
    agent: 'islands',
    edges: ['START --> LOOP', 'LOOP -->|again| LOOP', 'LOOP -->|done| HUB', 'HUB --> END', 'HUB -.-> LOOP', 'ORPHAN --> END'],
    hubs: ['HUB'],
  }),
};

function limitsFixture(limited: boolean) {
  return buildModel({
    agent: limited ? 'limits' : 'limits_free',
    edges: [
      'START --> ASK',
      'ASK --> CHECK',
      'CHECK -->|retry| ASK',
      'CHECK -->|ok| HUB',
      'CHECK -->|give up| STOP',
      'HUB --> TASK',
      'HUB --> HUMAN',
      'TASK --> DONE',
      'TASK -.-> HUB',
      'DONE --> AGAIN',
      'AGAIN --> START',
    ],
    hubs: ['HUB', 'BACK'],
    ...(limited ? { escalationNode: 'HUMAN' } : {}),
    prompts: limited
      ? {
          START: { prompt: 'Hello.', maxVisits: 2, escalateTo: 'BACK' },
          ASK: { prompt: 'Ask.', maxVisits: 2, escalateTo: 'STOP' },
          HUB: { prompt: 'Route.', maxVisits: 2 },
        }
      : {},
    nodes: [{ id: 'BACK', description: 'A hub no edge leads to' }],
  });
}

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

describe('emitted machines follow the transition table', () => {
  it.each(Object.keys(fixtures))('%s', async (agent) => {
    const { machine, sop } = await load(agent);
    expect(compareMachineWithTable(machine, sop).problems).toEqual([]);
  });

  it('compares the configurations the server can reach (the orphan is a state, never reached)', async () => {
    const { machine, sop } = await load('islands');
    expect(sop.nodeIds).toContain('ORPHAN');
    expect(Object.keys(machine.root.states)).toContain('ORPHAN');
    expect(getShortestPaths(machine).map((p) => p.state.value)).not.toContain('ORPHAN');
  });
});

describe('visit limits in the machine', () => {
  it('the checker compares visit counts and escalation moves: a machine without the limits disagrees', async () => {
    const { sop } = await load('limits');
    const { machine } = await load('limits_free');
    const { problems } = compareMachineWithTable(machine, sop);
    expect(problems).toEqual(
      expect.arrayContaining([
        'CHECK: no transitions [GOTO.HUMAN] to the escalation nodes of its limited successors',
        'from START (path START; visits START=1,ASK=0,HUB=0) to ASK: the machine ends on ASK with path START > ASK (visits START=1,ASK=0,HUB=0), the server on START > ASK (visits START=1,ASK=1,HUB=0)',
      ]),
    );
  });
});

describe('the checker notices disagreements', () => {
  it('reports a wrong transition, a missing one, a final state and a hub without its guard', async () => {
    const { sop } = await load('islands');
    const wrong = setup({
      types: { context: {} as { path: readonly string[] } },
      actions: { enter: assign({ path: ({ context, event }) => [...context.path, event.type.slice(5)] }) },
    }).createMachine({
      id: 'islands',
      initial: 'START',
      context: { path: ['START'] },
      on: { 'GOTO.HUB': { target: '.HUB', actions: 'enter' } },
      states: {
        START: { description: 'START', meta: { type: 'rectangle' }, on: { 'GOTO.END': { target: 'END', actions: 'enter' } } },
        LOOP: { description: 'LOOP', meta: { type: 'rectangle' }, on: { 'GOTO.HUB': { target: 'HUB', actions: 'enter' } } },
        HUB: { description: 'HUB', meta: { type: 'rectangle' }, on: { 'GOTO.END': { target: 'END', actions: 'enter' } } },
        END: { description: 'END', meta: { type: 'rectangle' }, type: 'final' },
        ORPHAN: { description: 'ORPHAN', meta: { type: 'rectangle' }, on: { 'GOTO.END': { target: 'END', actions: 'enter' } } },
      },
    });
    const { problems } = compareMachineWithTable(wrong, sop);
    expect(problems).toEqual(
      expect.arrayContaining([
        'START: GOTO.LOOP goes to nothing, edges say LOOP',
        'START: transitions [GOTO.END] have no edge',
        'END: final, but the entry node and the hubs stay reachable from it',
        'END: terminal tag does not match the terminal nodes',
        'from START (path START) to LOOP: the machine refuses it, the server allows it',
        'from START (path START) to HUB: the machine allows it, the server refuses it',
        'from START (path START) to START: the machine refuses it, the server allows it',
      ]),
    );
  });
});
