/**
 * An agent that calls goto_node at random (seeded, bounded) must never get past AUTH without having gone
 * through AUTH since the last START. Checked two ways: against the answers' paths (each a simple walk along
 * the flowchart's edges from START, so AUTH second), and independently of them, from the sequence of moves
 * the server accepted (a node other than START and AUTH is accepted only after AUTH since the last START).
 */
import { describe, expect, it } from 'vitest';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE, type RunState } from '../../../runtime/store/run-store.js';
import { gotoNode } from '../../../runtime/tools/goto-node.js';
import { SUPPORT_DESK } from '../../fixtures/runtime/agents.js';
import { connectInMemory } from '../helpers/mcp-client.js';

/** mulberry32: a tiny seeded PRNG, so a failure replays exactly. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CANDIDATES = [...SUPPORT_DESK.nodeIds, 'NOPE', 'route', ''];
const hasEdge = (from: string, to: string) => (SUPPORT_DESK.edges[from] ?? []).some((edge) => edge.to === to);

/** The property on a path: a simple walk along the flowchart's edges from START, AUTH second. */
function assertLegalPath(path: readonly string[]): void {
  if (path.length > 0) expect(path[0]).toBe('START');
  if (path.length > 1) expect(path[1]).toBe('AUTH');
  expect(new Set(path).size, `no node twice in ${path.join(' ')}`).toBe(path.length);
  for (let i = 1; i < path.length; i += 1) {
    const [from, to] = [path[i - 1] as string, path[i] as string];
    expect(hasEdge(from, to), `step ${from} → ${to} in ${path.join(' ')}`).toBe(true);
  }
}

/** The property on the accepted moves alone: tracks whether AUTH was reached since the last START. */
function authTracker(): (accepted: string) => void {
  let authenticated = false;
  return (accepted) => {
    if (accepted === 'START') authenticated = false;
    else if (accepted === 'AUTH') authenticated = true;
    else expect(authenticated, `${accepted} accepted without AUTH since START`).toBe(true);
  };
}

describe('random goto_node calls', () => {
  it.each([1, 2, 3, 42, 2024])('never skip AUTH (pure function, seed %i, 3000 calls)', (seed) => {
    const random = prng(seed);
    const agent = prepareAgent(SUPPORT_DESK);
    let state: RunState = EMPTY_RUN_STATE;
    let accepted = 0;
    const accept = authTracker();
    for (let call = 0; call < 3000; call += 1) {
      // Bias towards legal moves now and then, so walks get deep enough to matter.
      const current = state.path.at(-1);
      const successors = current === undefined ? [] : (SUPPORT_DESK.edges[current] ?? []).map((edge) => edge.to);
      const pool = random() < 0.5 && successors.length > 0 ? successors : CANDIDATES;
      const target = pool[Math.floor(random() * pool.length)] ?? 'START';
      const outcome = gotoNode(agent, state, { node_id: target });
      const answer = outcome.answer as { valid?: boolean; path?: readonly string[] };
      if (answer.valid === true) {
        accepted += 1;
        accept(target);
        expect(answer.path?.at(-1)).toBe(target);
        assertLegalPath(answer.path ?? []);
      } else {
        expect(outcome.state).toBe(state);
      }
      state = outcome.state;
      assertLegalPath(state.path);
    }
    expect(accepted).toBeGreaterThan(300);
  });

  it('never skip AUTH through the MCP server either (seed 7, 400 calls)', async () => {
    const random = prng(7);
    const state = await connectInMemory();
    await state.call('load_graph', { agent: 'support_desk' });
    const accept = authTracker();
    for (let call = 0; call < 400; call += 1) {
      const target = CANDIDATES[Math.floor(random() * CANDIDATES.length)] ?? 'START';
      const { answer } = await state.call('goto_node', { node_id: target });
      if (answer.valid === true) {
        accept(target);
        expect(answer.path.at(-1)).toBe(target);
        assertLegalPath(answer.path);
      }
    }
    await state.close();
  });
});
