/**
 * App code against the golden case `reserved-words` (issue 21): a SOP whose node ids are every TypeScript keyword and
 * every member of `Object.prototype` and `Function.prototype` the format accepts (`delete`, `default`, `enum`,
 * `constructor`, `toString`, …), and agents named `delete`, `default`, `enum`, `class`, `new`, `await`, `constructor`
 * and `prototype`. `npm run typecheck` (tsc over test/, the golden output included) is what proves the generated
 * modules and this app code type-check, each `@ts-expect-error` included; vitest runs it on the real XState runtime.
 * `test/generator/emit/reserved-words.test.ts` keeps the case holding every accepted word.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createActor } from 'xstate';
import type { NodePrompt, SopNode } from '../../contract/index.js';
import {
  awaitMachine,
  type ClassNodeId,
  classMachine,
  constructorMachine,
  defaultMachine,
  type DeleteNodeId,
  deleteMachine,
  enumMachine,
  newMachine,
  prototypeMachine,
  type WordsEvent,
  type WordsNodeId,
  wordsMachine,
} from '../fixtures/golden/reserved-words/generated/index.js';
import { type AgentName, loadAgent } from '../fixtures/golden/reserved-words/generated/registry.js';
import { EDGES, NODES, PROMPTS, SOP, type TOOLS_BY_NODE, TRANSITIONS } from '../fixtures/golden/reserved-words/generated/words/graph.js';
import type { SuccessorOf } from '../fixtures/golden/reserved-words/generated/words/ids.js';

describe('app code using node ids and agent names that are reserved words or object members', () => {
  it('types every node by its own entry, whatever its name', () => {
    // Over every node id at once: a word added to the case is covered without a line here.
    expectTypeOf<{ [K in WordsNodeId]: (typeof NODES)[K] }[WordsNodeId]>().toEqualTypeOf<{ [K in WordsNodeId]: SopNode<K> }[WordsNodeId]>();
    expectTypeOf<(typeof TOOLS_BY_NODE)[WordsNodeId]>().toEqualTypeOf<readonly 'lookup'[]>();
    expectTypeOf(PROMPTS.toString).toEqualTypeOf<NodePrompt<'lookup'> | undefined>();
    expectTypeOf(PROMPTS.constructor).toEqualTypeOf<NodePrompt<'lookup'> | undefined>();

    const named: readonly string[] = [
      NODES.delete.id,
      NODES.default.id,
      NODES.enum.id,
      NODES.constructor.id,
      NODES.toString.id,
      NODES.valueOf.id,
      NODES.hasOwnProperty.id,
      NODES.prototype.id,
      NODES.new.id,
      NODES.this.id,
      NODES.typeof.id,
      NODES.keyof.id,
    ];
    expect(named).toEqual([
      'delete',
      'default',
      'enum',
      'constructor',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'prototype',
      'new',
      'this',
      'typeof',
      'keyof',
    ]);
    const home: WordsNodeId = 'delete';
    // @ts-expect-error not a node (`class` is a Mermaid keyword, refused as a node id)
    const refused: WordsNodeId = 'class';
    const next: SuccessorOf<'delete'> = EDGES.delete[0]!.to;
    // @ts-expect-error the entry node is no successor of `delete`
    const back: SuccessorOf<'delete'> = 'START';
    expect([home, refused, next, back]).toHaveLength(4);
    // Nothing inherited answers for a node without a prompt or a limit.
    expect(PROMPTS.toString).toBeUndefined();
    expect(PROMPTS.constructor).toBeUndefined();
    expect(TRANSITIONS.limits?.constructor).toBeUndefined();
    expect(Object.values(PROMPTS).filter((prompt) => prompt !== undefined)).toHaveLength(1);
  });

  it('walks the machine through every node, reserved words included', () => {
    const actor = createActor(wordsMachine).start();
    for (const id of SOP.nodeIds.slice(1)) {
      // A union of ids makes a union of types, not of events: TypeScript needs the cast, not the machine.
      actor.send({ type: `GOTO.${id}` } as WordsEvent);
      expect(actor.getSnapshot().value, id).toBe(id);
    }
    actor.send({ type: 'GOTO.delete' }); // a move the machine refuses: not a successor of DONE
    expect(actor.getSnapshot().matches('DONE')).toBe(true);
    // @ts-expect-error not an event of the machine
    actor.send({ type: 'GOTO.class' });
    actor.stop();
  });

  it('loads and runs agents named by reserved words', async () => {
    const machines = [
      awaitMachine,
      classMachine,
      constructorMachine,
      defaultMachine,
      deleteMachine,
      enumMachine,
      newMachine,
      prototypeMachine,
    ];
    expect(machines.map((machine) => machine.id)).toEqual([
      'await',
      'class',
      'constructor',
      'default',
      'delete',
      'enum',
      'new',
      'prototype',
    ]);
    const agents: AgentName[] = ['await', 'class', 'constructor', 'default', 'delete', 'enum', 'new', 'prototype'];
    for (const agent of agents) expect((await loadAgent(agent)).SOP.meta.agent).toBe(agent);
    const loaded: readonly DeleteNodeId[] = (await loadAgent('delete')).SOP.nodeIds;
    const ask: ClassNodeId = 'ASK';
    expect(loaded).toContain(ask);
    // @ts-expect-error not an agent (`toString` breaks the agent grammar)
    await expect(loadAgent('toString')).rejects.toThrow('Unknown agent: toString');
  });
});
