/**
 * Type tests of generated code, checked by the real `tsc` with our compiler options: emit fixtures into a
 * temp project, add a consumer that uses them correctly and, under `@ts-expect-error`, wrongly (unknown
 * node, a move to a non-successor, an unknown tool, an unknown state or agent), and require `tsc` to exit 0.
 * Exit 0 means the generated code compiles, every correct use compiles, and every `@ts-expect-error` was
 * needed, i.e. each wrong use is an error.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emitProject } from '../../generator/emit/emit-project.js';
import { writeEmittedProject } from '../generator/emit/emitted-project.js';
import type { EmittedProject } from '../generator/emit/emitted-project.js';
import { nastyFixture, retailFixture, syntheticFixture } from '../generator/emit/model-fixture.js';

const CONSUMER = `
import { createActor } from 'xstate';
import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { expectTypeOf } from 'vitest';
import type { CompiledSop, NodePrompt, TransitionTable } from 'sop-toolkit/contract';
import { EDGES, NODES, NODE_IDS, PROMPTS, SOP, TOOLS_BY_NODE, TRANSITIONS } from './generated/retail_customer_support/graph.js';
import type {
  DecisionNodeId,
  NodeId,
  SuccessorOf,
  TerminalNodeId,
  ToolName,
} from './generated/retail_customer_support/ids.js';
import type * as Graph from './generated/retail_customer_support/graph.js';
import type * as Ids from './generated/retail_customer_support/ids.js';
import { NODE_IDS as ID_TUPLE } from './generated/retail_customer_support/ids.js';
import { retailCustomerSupportMachine as machine } from './generated/retail_customer_support/machine.js';
import type { RetailCustomerSupportEvent } from './generated/retail_customer_support/machine.js';
import { nastyStringsMachine } from './generated/index.js';
import type * as Index from './generated/index.js';
import type {
  NastyStringsNodeId,
  RetailCustomerSupportNodeId,
  RetailCustomerSupportSuccessors,
  RetailCustomerSupportToolName,
} from './generated/index.js';
import { loadAgent } from './generated/registry.js';
import type { AgentName } from './generated/registry.js';

// Node ids
export const route: NodeId = 'ROUTE';
// @ts-expect-error not a node of the SOP
export const nope: NodeId = 'NOPE';
expectTypeOf<NodeId>().toEqualTypeOf<(typeof NODE_IDS)[number]>();
expectTypeOf<DecisionNodeId>().toEqualTypeOf<'ROUTE' | 'IS_PENDING_C'>();
expectTypeOf<TerminalNodeId>().toEqualTypeOf<'DENY_CANCEL' | 'DONE'>();
expectTypeOf(NODES.ROUTE.id).toEqualTypeOf<'ROUTE'>();

// Successors
export const afterStart: SuccessorOf<'START'> = 'AUTH';
// @ts-expect-error ROUTE is not a successor of START (AUTH comes first)
export const skipAuth: SuccessorOf<'START'> = 'ROUTE';
expectTypeOf<SuccessorOf<'ROUTE'>>().toEqualTypeOf<'CHK_CANCEL' | 'DONE'>();
expectTypeOf<SuccessorOf<'DONE'>>().toBeNever();
export function move<N extends NodeId>(from: N, to: SuccessorOf<N>): readonly [N, SuccessorOf<N>] {
  return [from, to];
}
move('IS_PENDING_C', 'DENY_CANCEL');
// @ts-expect-error DENY_CANCEL is not a successor of ROUTE
move('ROUTE', 'DENY_CANCEL');

// The same through the edge table
expectTypeOf(EDGES.START[0]!.to).toEqualTypeOf<'AUTH'>();
export const viaEdges: (typeof EDGES)['COLLECT_CANCEL'][number]['to'] = 'ROUTE';
// @ts-expect-error START's edges lead only to AUTH
export const wrongEdge: (typeof EDGES)['START'][number]['to'] = 'ROUTE';
// @ts-expect-error a terminal node has no edge to follow
export const fromTerminal: (typeof EDGES)['DONE'][number]['to'] = 'START';

// Tools
export const tool: ToolName = 'get_order_details';
// @ts-expect-error not a tool of the SOP
export const badTool: ToolName = 'delete_everything';
expectTypeOf(TOOLS_BY_NODE.AUTH).toEqualTypeOf<readonly ToolName[]>();
expectTypeOf(PROMPTS.AUTH).toEqualTypeOf<NodePrompt<ToolName> | undefined>();

// The machine: state values and matches() are the node ids
expectTypeOf<SnapshotFrom<typeof machine>['value']>().toEqualTypeOf<NodeId>();
expectTypeOf<EventFromLogic<typeof machine>>().toEqualTypeOf<RetailCustomerSupportEvent>();
expectTypeOf<RetailCustomerSupportEvent['type']>().toEqualTypeOf<\`GOTO.\${NodeId}\`>();
const actor = createActor(machine).start();
actor.send({ type: 'GOTO.AUTH' });
// @ts-expect-error not an event of the machine
actor.send({ type: 'GOTO.NOPE' });
const snapshot = actor.getSnapshot();
export const atRoute: boolean = snapshot.matches('ROUTE');
// @ts-expect-error NOPE is not a state
export const atNope: boolean = snapshot.matches('NOPE');
expectTypeOf(snapshot.context.path).toEqualTypeOf<readonly NodeId[]>();
export const done: boolean = snapshot.hasTag('terminal');
// @ts-expect-error the machine has one tag, terminal
export const finished: boolean = snapshot.hasTag('finished');
expectTypeOf(TRANSITIONS).toEqualTypeOf<TransitionTable<NodeId>>();
// @ts-expect-error the entry node is a node id
export const badEntry: TransitionTable<NodeId> = { ...TRANSITIONS, entry: 'NOPE' };
expectTypeOf<SnapshotFrom<typeof nastyStringsMachine>['value']>().toEqualTypeOf<NastyStringsNodeId>();

// graph.js re-exports ids.js: the same values and types from either module
expectTypeOf(NODE_IDS).toEqualTypeOf(ID_TUPLE);
expectTypeOf<Graph.NodeId>().toEqualTypeOf<Ids.NodeId>();
expectTypeOf<Graph.DecisionNodeId>().toEqualTypeOf<Ids.DecisionNodeId>();
expectTypeOf<Graph.TerminalNodeId>().toEqualTypeOf<Ids.TerminalNodeId>();
expectTypeOf<Graph.ToolName>().toEqualTypeOf<Ids.ToolName>();
expectTypeOf<Graph.Successors>().toEqualTypeOf<Ids.Successors>();
expectTypeOf<Graph.SuccessorOf<'ROUTE'>>().toEqualTypeOf<Ids.SuccessorOf<'ROUTE'>>();
expectTypeOf(SOP).toEqualTypeOf<CompiledSop<NodeId, ToolName>>();

// The index re-exports the same types under agent-prefixed names, and as values only the machines (no data)
expectTypeOf<keyof typeof Index>().toEqualTypeOf<'nastyStringsMachine' | 'retailCustomerSupportMachine' | 'syntheticMachine'>();
expectTypeOf<RetailCustomerSupportNodeId>().toEqualTypeOf<NodeId>();
expectTypeOf<RetailCustomerSupportToolName>().toEqualTypeOf<ToolName>();
expectTypeOf<RetailCustomerSupportSuccessors['AUTH']>().toEqualTypeOf<'ROUTE'>();

// The registry: a typed loader
expectTypeOf<AgentName>().toEqualTypeOf<'nasty_strings' | 'retail_customer_support' | 'synthetic'>();
export async function loaded(): Promise<void> {
  const retail = await loadAgent('retail_customer_support');
  expectTypeOf(retail.NODE_IDS).toEqualTypeOf(NODE_IDS);
  // @ts-expect-error not a compiled agent
  await loadAgent('nope');
}
`;

let project: EmittedProject;
beforeAll(() => {
  project = writeEmittedProject(emitProject([retailFixture(), nastyFixture(), syntheticFixture(40)]));
  project.write('consumer.ts', CONSUMER);
});
afterAll(() => project.remove());

it('tsc accepts the generated code and the correct uses, and rejects every wrong one', () => {
  const { status, output } = project.typecheck();
  expect(output).toBe('');
  expect(status).toBe(0);
});

it('fails when a wrong use is not an error (the check can fail)', () => {
  project.write('consumer.ts', `${CONSUMER}\n// @ts-expect-error but this is fine\nexport const fine: NodeId = 'START';\n`);
  const { status, output } = project.typecheck();
  expect(status).not.toBe(0);
  expect(output).toMatch(/consumer\.ts\(\d+,\d+\): error TS2578: Unused '@ts-expect-error' directive/);
  project.write('consumer.ts', CONSUMER);
});
