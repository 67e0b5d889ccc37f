/**
 * The retail SOP lets the seed's own walkthrough and the retail policy happen, checked on the compiled output
 * (`generated/retail_customer_support/graph.ts`):
 *  - the walkthrough (seed 000, "End-to-End Example: Sophia Martin"), move by move through legal transitions,
 *    with every domain tool call it makes allowed by `TOOLS_BY_NODE` at the node where it makes it;
 *  - each flow of the policy has, at the node that does the work, the tools that work needs.
 */
import { describe, expect, it } from 'vitest';
import { nextPath } from '../../contract/transitions.js';
import { TOOLS_BY_NODE, TRANSITIONS } from '../../generated/retail_customer_support/graph.js';
import type { NodeId, ToolName } from '../../generated/retail_customer_support/ids.js';

/** A move to a node, then the domain tools called there, in the walkthrough's order. */
type Step = readonly [node: NodeId, ...calls: ToolName[]];

// Where the seed elides steps ("Agent proceeds through COLLECT_MOD_ADDR → DO_MOD_ADDR"), the nodes are written out;
// a tool the seed narrates without naming ("executes exchange") is the one that node exists for.
const WALKTHROUGH: readonly Step[] = [
  // Phase 2: authentication ("agent calls find_user_id_by_email").
  ['START'],
  ['AUTH', 'find_user_id_by_email'],
  // Phase 3: change an order's address. "Agent looks up orders, finds the one with wrong address … uses
  // get_order_details on luggage order, extracts address."
  ['ROUTE'],
  ['CHK_MOD', 'get_user_details', 'get_order_details', 'get_order_details'],
  ['IS_PENDING_M'],
  ['COLLECT_MOD_ADDR'],
  ['DO_MOD_ADDR', 'modify_pending_order_address'],
  ['END_MOD'],
  // Phase 4: update the default address (the address comes from the todo note).
  ['ROUTE'],
  ['COLLECT_USER_ADDR'],
  ['DO_USER_ADDR', 'modify_user_address'],
  ['END_UADDR'],
  // Phase 5: exchange the tablet. "Agent finds tablet order, checks delivered status … calls get_product_details
  // to find cheapest tablet variant, uses calculate for price difference, confirms with user, executes exchange."
  ['ROUTE'],
  ['CHK_EXCH', 'get_user_details', 'get_order_details'],
  ['IS_DELIVERED_E'],
  ['COLLECT_EXCH', 'get_product_details', 'calculate'],
  ['DO_EXCH', 'exchange_delivered_order_items'],
  ['END_EXCH'],
];

describe('retail_customer_support', () => {
  it("plays the seed's walkthrough: every move legal, every tool call allowed where it is made", () => {
    let path: readonly NodeId[] = [];
    const refused: string[] = [];
    for (const [node, ...calls] of WALKTHROUGH) {
      const next = nextPath(TRANSITIONS, path, node);
      expect(next, `${path.at(-1) ?? '(start)'} → ${node}`).not.toBeNull();
      path = next!;
      for (const tool of calls) if (!TOOLS_BY_NODE[node].includes(tool)) refused.push(`${tool} at ${node}`);
    }
    expect(refused).toEqual([]);
    expect(path.at(-1)).toBe('END_EXCH');
  });

  it('gives each node of the policy the tools its work needs', () => {
    // The policy (retail domain of tau2, which the seed's example follows) and this SOP's Global Rules: find the
    // order (a user who lacks its id has their orders listed in their profile), check its status, choose variants
    // that exist and are available, take payment methods and gift card balances from the profile, and do all
    // arithmetic with `calculate`.
    const needs: Partial<Record<NodeId, readonly ToolName[]>> = {
      AUTH: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
      CHK_CANCEL: ['get_user_details', 'get_order_details'],
      DO_CANCEL: ['calculate', 'cancel_pending_order'],
      CHK_MOD: ['get_user_details', 'get_order_details'],
      COLLECT_MOD_ADDR: ['get_user_details', 'get_order_details'],
      DO_MOD_ADDR: ['modify_pending_order_address'],
      COLLECT_MOD_ITEMS: ['get_product_details', 'get_user_details', 'calculate'],
      DO_MOD_ITEMS: ['modify_pending_order_items'],
      COLLECT_MOD_PAY: ['get_user_details', 'calculate'],
      DO_MOD_PAY: ['modify_pending_order_payment'],
      CHK_RETURN: ['get_user_details', 'get_order_details'],
      COLLECT_RETURN: ['get_user_details', 'calculate'],
      DO_RETURN: ['return_delivered_order_items'],
      CHK_EXCH: ['get_user_details', 'get_order_details'],
      COLLECT_EXCH: ['get_product_details', 'get_user_details', 'calculate'],
      DO_EXCH: ['exchange_delivered_order_items'],
      DO_USER_ADDR: ['modify_user_address'],
      ESCALATE_HUMAN: ['transfer_to_human_agents'],
      INFO: ['get_user_details', 'get_order_details', 'get_product_details', 'list_all_product_types', 'calculate'],
    };
    const missing = Object.entries(needs).flatMap(([node, tools]) =>
      tools.filter((tool) => !TOOLS_BY_NODE[node as NodeId].includes(tool)).map((tool) => `${tool} at ${node}`),
    );
    expect(missing).toEqual([]);
  });

  it('offers the tools that change data only where the SOP confirms or transfers', () => {
    // The seed's goto_node examples also list the action tool at COLLECT_CANCEL and COLLECT_EXCH, before the user has
    // confirmed anything: the policy `confirm_before_changes` (proved by the build over every path) refuses that.
    const actions: readonly ToolName[] = [
      'cancel_pending_order',
      'modify_pending_order_address',
      'modify_pending_order_items',
      'modify_pending_order_payment',
      'modify_user_address',
      'return_delivered_order_items',
      'exchange_delivered_order_items',
      'transfer_to_human_agents',
    ];
    const where = Object.entries(TOOLS_BY_NODE)
      .filter(([, tools]) => tools.some((tool) => actions.includes(tool)))
      .map(([node]) => node)
      .sort();
    expect(where).toEqual([
      'DO_CANCEL',
      'DO_EXCH',
      'DO_MOD_ADDR',
      'DO_MOD_ITEMS',
      'DO_MOD_PAY',
      'DO_RETURN',
      'DO_USER_ADDR',
      'ESCALATE_HUMAN',
    ]);
  });
});
