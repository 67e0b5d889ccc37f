/**
 * App code against the real generated retail agent. `npm run typecheck` (tsc over test/) is what checks this
 * file: each `@ts-expect-error` must be needed, so each wrong use below is proven to be a compile error.
 * Vitest also runs it, so the correct uses are proven to work at run time on the real XState runtime.
 */
import { createActor, type SnapshotFrom } from 'xstate';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { retailCustomerSupportMachine, type RetailCustomerSupportNodeId } from '../../generated/index.js';
import type { DataCondition } from '../../contract/index.js';
import { CONDITIONS, EDGES, SOP, TOOLS_BY_NODE } from '../../generated/retail_customer_support/graph.js';
import type { SuccessorOf, ToolName } from '../../generated/retail_customer_support/ids.js';
import { type AgentName, loadAgent } from '../../generated/registry.js';

describe('app code using generated/retail_customer_support', () => {
  it('types node ids, successors, tools and machine states', async () => {
    const home: RetailCustomerSupportNodeId = 'START';
    // @ts-expect-error a typo in a node id is a compile error
    const typo: RetailCustomerSupportNodeId = 'STRAT';

    const next: SuccessorOf<'AUTH'> = 'ROUTE';
    // @ts-expect-error CHK_CANCEL is a node, but not a successor of AUTH (authentication cannot be skipped)
    const skip: SuccessorOf<'AUTH'> = 'CHK_CANCEL';
    const firstEdge = EDGES.START[0];
    expectTypeOf(firstEdge).toEqualTypeOf<
      { readonly to: 'AUTH'; readonly condition: string | null; readonly style: 'solid' | 'dotted' | 'thick' } | undefined
    >();
    // @ts-expect-error terminal nodes have no successors
    const fromEnd: SuccessorOf<'END_MOD'> = 'ROUTE';

    const tool: ToolName = 'get_order_details';
    // @ts-expect-error not a tool of this SOP
    const wrongTool: ToolName = 'delete_all_orders';
    expectTypeOf(TOOLS_BY_NODE.AUTH).toEqualTypeOf<readonly ToolName[]>();

    const actor = createActor(retailCustomerSupportMachine).start();
    actor.send({ type: 'GOTO.AUTH' });
    // @ts-expect-error not an event of the machine
    actor.send({ type: 'GOTO.NOWHERE' });
    const snapshot = actor.getSnapshot();
    expectTypeOf<SnapshotFrom<typeof retailCustomerSupportMachine>['value']>().toEqualTypeOf<RetailCustomerSupportNodeId>();
    // @ts-expect-error not a state of the machine
    snapshot.matches('AUTHH');
    expect(snapshot.matches('AUTH')).toBe(true);

    const mod = await loadAgent('retail_customer_support');
    expect(mod.SOP.transitions.entry).toBe('START');
    // @ts-expect-error not a compiled agent (never called: it is here for the type checker)
    const misspelt = () => loadAgent('retail_customer_suport');

    expect([home, typo, next, skip, fromEnd, tool, wrongTool, misspelt]).toHaveLength(8);
  });

  it("types the edges decided by data with the SOP's tools", () => {
    const decided = CONDITIONS.IS_PENDING_C?.COLLECT_CANCEL;
    expectTypeOf(decided).toEqualTypeOf<DataCondition<ToolName> | undefined>();
    expectTypeOf(decided!.tool).toEqualTypeOf<ToolName>();
    expectTypeOf(SOP.conditions).toEqualTypeOf<
      { readonly [K in RetailCustomerSupportNodeId]?: { readonly [target: string]: DataCondition<ToolName> } } | undefined
    >();
    const read: DataCondition<ToolName> = { tool: 'get_order_details', field: ['status'], op: 'in', values: ['pending'], text: '…' };
    // @ts-expect-error a condition reads a tool of this SOP
    const unknownTool: DataCondition<ToolName> = { tool: 'get_order', field: ['status'], op: '==', values: ['pending'], text: '…' };
    // @ts-expect-error not an operator of the format
    const unknownOp: DataCondition<ToolName> = { tool: 'get_order_details', field: ['status'], op: '=', values: ['pending'], text: '…' };
    // IS_GC_OK decides nothing by data: the gift card to compare is the agent's choice.
    expect(CONDITIONS.IS_GC_OK).toBeUndefined();
    expect(decided).toEqual({
      tool: 'get_order_details',
      field: ['status'],
      op: '==',
      values: ['pending'],
      text: 'get_order_details.status == pending',
    });
    expect([read, unknownTool, unknownOp]).toHaveLength(3);
  });

  it('refuses, at run time, a name untyped code passes to loadAgent that is no agent, `constructor` included', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'retail']) {
      await expect(loadAgent(name as AgentName), name).rejects.toThrow(`Unknown agent: ${name}`);
    }
  });
});
