/**
 * Plays legal `goto_node` moves on a prepared agent, as the server does, and returns the state after them; any
 * refusal fails the test, naming the move. For tests that need a run standing somewhere before what they test.
 */
import { expect } from 'vitest';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import type { RunState } from '../../runtime/store/run-store.js';
import { gotoNode } from '../../runtime/tools/goto-node.js';

export function playMoves(agent: PreparedAgent, ids: readonly string[], from: RunState): RunState {
  let state = from;
  for (const id of ids) {
    const outcome = gotoNode(agent, state, { node_id: id });
    expect(outcome.answer, `move to ${id}`).toMatchObject({ valid: true });
    state = outcome.state;
  }
  return state;
}
