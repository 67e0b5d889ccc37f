import { describe, expect, it } from 'vitest';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE, type RunState } from '../../../runtime/store/run-store.js';
import { validNext } from '../../../contract/answers/goto-answer.js';
import { gotoNode } from '../../../runtime/tools/goto-node.js';
import { SUPPORT_DESK, TINY_FLOW, withTransitions } from '../../fixtures/runtime/agents.js';
import { playMoves } from '../../support/play-moves.js';

const desk = prepareAgent(SUPPORT_DESK);
const tiny = prepareAgent(TINY_FLOW);
const loaded: RunState = EMPTY_RUN_STATE;

/** Plays legal moves and returns the state after them (fails the test on any refusal). */
const walk = (ids: readonly string[], from: RunState = loaded, agent = desk) => playMoves(agent, ids, from);

describe('goto_node answers', () => {
  it('answers the entry node with its description and edges, and starts the path', () => {
    const outcome = gotoNode(desk, loaded, { node_id: 'START' });
    expect(outcome.isError).toBe(false);
    expect(outcome.answer).toEqual({
      node: { id: 'START', type: 'stadium', description: 'Customer writes in' },
      edges: [{ to: 'AUTH', condition: null }],
      path: ['START'],
      valid: true,
    });
    expect(outcome.state.path).toEqual(['START']);
  });

  it('adds prompt, tools and examples where the node has them, and edges with conditions in source order', () => {
    const outcome = gotoNode(desk, walk(['START']), { node_id: 'AUTH' });
    expect(outcome.answer).toEqual({
      node: {
        id: 'AUTH',
        type: 'rectangle',
        description: 'Verify identity',
        prompt: 'Verify the customer by email, or by name and zip code.',
        tools: ['find_customer'],
        examples: [{ user: "I'm jo@example.com", agent: 'Thanks, let me look you up.' }],
      },
      edges: [
        { to: 'ROUTE', condition: null },
        { to: 'ESCALATE', condition: 'cannot verify' },
      ],
      path: ['START', 'AUTH'],
      valid: true,
    });
  });

  it.each([
    ['CHK_REFUND', ['START', 'AUTH', 'ROUTE'], { id: 'CHK_REFUND', type: 'rectangle', description: 'Check order', tools: ['get_order'] }],
    [
      'COLLECT_ADDR',
      ['START', 'AUTH', 'ROUTE'],
      { id: 'COLLECT_ADDR', type: 'rectangle', description: 'Collect: new address', prompt: 'Collect the new address and read it back.' },
    ],
    ['ROUTE', ['START', 'AUTH'], { id: 'ROUTE', type: 'rhombus', description: 'Intent?' }],
  ])('omits what %s does not have', (id, before, node) => {
    expect((gotoNode(desk, walk(before), { node_id: id }).answer as { node: object }).node).toEqual(node);
  });

  it('shows every edge of a decision node', () => {
    const outcome = gotoNode(desk, walk(['START', 'AUTH']), { node_id: 'ROUTE' });
    expect(outcome.answer).toMatchObject({
      edges: [
        { to: 'CHK_REFUND', condition: 'refund' },
        { to: 'COLLECT_ADDR', condition: 'address' },
        { to: 'ESCALATE', condition: 'out of scope' },
      ],
    });
  });
});

describe('goto_node transitions', () => {
  it('accepts only the entry node as the first move', () => {
    const outcome = gotoNode(desk, loaded, { node_id: 'AUTH' });
    expect(outcome.isError).toBe(false);
    expect(outcome.answer).toEqual({
      valid: false,
      error: 'Cannot reach AUTH before the conversation has started: go to START first',
      current_node: null,
      valid_next: ['START'],
    });
    expect(outcome.state).toBe(loaded);
  });

  it('refuses an illegal move with the seed message and the valid next nodes, changing nothing', () => {
    const before = walk(['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE']);
    const outcome = gotoNode(desk, before, { node_id: 'COLLECT_ADDR' });
    expect(outcome.isError).toBe(false);
    expect(outcome.answer).toEqual({
      valid: false,
      error: 'Cannot reach COLLECT_ADDR from IS_ELIGIBLE',
      current_node: 'IS_ELIGIBLE',
      valid_next: ['DENY_REFUND', 'DO_REFUND', 'START', 'ROUTE'],
    });
    expect(outcome.state).toBe(before);
    // The next legal move behaves as if the refused one never happened.
    expect(gotoNode(desk, outcome.state, { node_id: 'DO_REFUND' }).answer).toMatchObject({
      path: ['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE', 'DO_REFUND'],
    });
  });

  it('never lets a hub skip authentication', () => {
    const atStart = walk(['START']);
    const outcome = gotoNode(desk, atStart, { node_id: 'ROUTE' });
    expect(outcome.answer).toEqual({
      valid: false,
      error: 'Cannot reach ROUTE from START',
      current_node: 'START',
      valid_next: ['AUTH', 'START'],
    });
    expect(outcome.state).toBe(atStart);
  });

  it('re-enters a hub on the path for the next intent, rewinding the path to it', () => {
    const done = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR', 'END_ADDR']);
    expect(validNext(desk, done)).toEqual(['START', 'ROUTE']);
    const outcome = gotoNode(desk, done, { node_id: 'ROUTE' });
    expect(outcome.answer).toMatchObject({ valid: true, node: { id: 'ROUTE' }, path: ['START', 'AUTH', 'ROUTE'] });
    expect(outcome.state.path).toEqual(['START', 'AUTH', 'ROUTE']);
  });

  it('closes the hubs again when the entry node resets the path', () => {
    const reset = walk(['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'START']);
    expect(reset.path).toEqual(['START']);
    expect(gotoNode(desk, reset, { node_id: 'ROUTE' }).answer).toMatchObject({ valid: false, valid_next: ['AUTH', 'START'] });
  });

  it('allows the entry node from anywhere, always restarting the path', () => {
    const deep = walk(['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE', 'DENY_REFUND']);
    expect(gotoNode(desk, deep, { node_id: 'START' }).answer).toMatchObject({ valid: true, path: ['START'] });
  });

  it('follows a dotted fallback edge back to the hub, rewinding the path', () => {
    const back = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'ROUTE']);
    expect(back.path).toEqual(['START', 'AUTH', 'ROUTE']);
    expect(walk(['CHK_REFUND'], back).path).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_REFUND']);
  });

  /** SUPPORT_DESK with one more edge. */
  const withEdge = (from: string, to: string, condition: string) =>
    prepareAgent(
      withTransitions({
        ...SUPPORT_DESK,
        edges: { ...SUPPORT_DESK.edges, [from]: [...(SUPPORT_DESK.edges[from] ?? []), { to, condition, style: 'dotted' }] },
      }),
    );

  it('rewinds on any loop back along an edge, not only to hubs', () => {
    const retry = withEdge('DO_ADDR', 'COLLECT_ADDR', 'retry');
    const state = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR', 'COLLECT_ADDR'], loaded, retry);
    expect(state.path).toEqual(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR']);
  });

  it('opens exactly the hubs on the path: one left behind by a rewind is closed again', () => {
    const reverify = withEdge('CHK_REFUND', 'AUTH', 're-verify');
    const state = walk(['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'AUTH', 'ESCALATE'], loaded, reverify);
    expect(state.path).toEqual(['START', 'AUTH', 'ESCALATE']);
    expect(gotoNode(reverify, state, { node_id: 'ROUTE' }).answer).toMatchObject({ valid: false, valid_next: ['START'] });
  });

  it('answers a move to the current hub with the same path and leaves the state as it was', () => {
    const atRoute = walk(['START', 'AUTH', 'ROUTE']);
    const outcome = gotoNode(desk, atRoute, { node_id: 'ROUTE' });
    expect(outcome.answer).toMatchObject({ valid: true, path: ['START', 'AUTH', 'ROUTE'] });
    expect(outcome.state).toBe(atRoute);
  });

  it('keeps the path bounded by the node count however long the agent loops', () => {
    let state = walk(['START', 'AUTH', 'ROUTE']);
    for (let i = 0; i < 500; i += 1)
      state = walk(['COLLECT_ADDR', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE', 'DO_REFUND', 'END_REFUND', 'ROUTE'], state);
    expect(state.path).toEqual(['START', 'AUTH', 'ROUTE']);
    expect(gotoNode(desk, state, { node_id: 'DO_ADDR' }).answer).toMatchObject({ valid: false, current_node: 'ROUTE' });
  });

  it('uses the agent entry node, whatever its name, and works without hubs', () => {
    const state = EMPTY_RUN_STATE;
    expect(gotoNode(tiny, state, { node_id: 'START' }).isError).toBe(true);
    const done = walk(['BEGIN', 'DONE'], state, tiny);
    expect(done.path).toEqual(['BEGIN', 'DONE']);
    expect(validNext(tiny, done)).toEqual(['BEGIN']);
  });
});

describe('goto_node errors', () => {
  it('answers an unknown id with "Node not found" and the valid nodes, changing nothing', () => {
    const before = walk(['START', 'AUTH']);
    const outcome = gotoNode(desk, before, { node_id: 'NOPE' });
    expect(outcome.isError).toBe(true);
    expect(outcome.answer).toEqual({
      valid: false,
      error: `Node not found: NOPE. Valid nodes: [${SUPPORT_DESK.nodeIds.join(', ')}]`,
      valid_nodes: SUPPORT_DESK.nodeIds,
    });
    expect(outcome.state).toBe(before);
  });

  it('suggests the node an id differs from only in case', () => {
    expect(gotoNode(desk, loaded, { node_id: 'start' }).answer).toMatchObject({
      error: expect.stringMatching(/^Node not found: start\. Did you mean START\?/),
    });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('treats %s as an unknown node, not an object property', (id) => {
    expect(gotoNode(desk, walk(['START']), { node_id: id }).isError).toBe(true);
  });
});

describe('todo reminders', () => {
  const withTodos = (state: RunState): RunState => ({
    ...state,
    todos: [
      { content: 'Change address', status: 'in_progress', completion_node: 'END_ADDR' },
      { content: 'Refund', status: 'pending', completion_node: 'END_REFUND' },
    ],
  });

  it('adds todo_reminder on a terminal node some todo names', () => {
    const state = withTodos(walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR']));
    expect(gotoNode(desk, state, { node_id: 'END_ADDR' }).answer).toEqual({
      node: { id: 'END_ADDR', type: 'stadium', description: 'Address updated' },
      edges: [],
      path: ['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR', 'END_ADDR'],
      valid: true,
      todo_reminder: 'Reached completion node END_ADDR. Update todos and proceed to next task.',
    });
  });

  it('adds none when the todo naming the terminal node is already completed: the reminder is for open work', () => {
    const state = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR']);
    const done = { ...state, todos: [{ content: 'Change address', status: 'completed' as const, completion_node: 'END_ADDR' }] };
    expect(gotoNode(desk, done, { node_id: 'END_ADDR' }).answer).not.toHaveProperty('todo_reminder');
    const open = { ...state, todos: [{ content: 'Change address', status: 'pending' as const, completion_node: 'END_ADDR' }] };
    expect(gotoNode(desk, open, { node_id: 'END_ADDR' }).answer).toHaveProperty('todo_reminder');
  });

  it('adds none on a terminal node no todo names', () => {
    const state = withTodos(walk(['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE']));
    expect(gotoNode(desk, state, { node_id: 'DENY_REFUND' }).answer).not.toHaveProperty('todo_reminder');
  });
});

describe('prepared answers', () => {
  it('are shared and frozen, so no state can alter another one', () => {
    const first = gotoNode(desk, walk(['START']), { node_id: 'AUTH' }).answer as { node: object; edges: object };
    const second = gotoNode(desk, walk(['START']), { node_id: 'AUTH' }).answer as { node: object; edges: object };
    expect(first.node).toBe(second.node);
    expect(Object.isFrozen(first.node)).toBe(true);
    expect(Object.isFrozen(first.edges)).toBe(true);
  });

  it('refuse a compiled module that is inconsistent', () => {
    expect(() => prepareAgent({ ...SUPPORT_DESK, transitions: { ...SUPPORT_DESK.transitions, hubs: ['NOWHERE'] } })).toThrow(
      /support_desk is inconsistent: hub NOWHERE is not a node\. Run `npm run build:sops`/,
    );
    expect(() => prepareAgent({ ...SUPPORT_DESK, transitions: { ...SUPPORT_DESK.transitions, entry: 'NOWHERE' } })).toThrow(
      /entry node NOWHERE/,
    );
  });
});
