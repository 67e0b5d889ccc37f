/**
 * An agent that calls goto_node at random (seeded, bounded) must never get past AUTH without having gone
 * through AUTH since the last START: every path the server accepts is a walk of the flowchart from the
 * entry node, where the only jumps are to hubs already reached on that walk.
 */
import { describe, expect, it } from 'vitest';
import { prepareAgent } from '../../../runtime/agents/prepared-agent.js';
import { EMPTY_SESSION, type SessionState } from '../../../runtime/session/session-state.js';
import { gotoNode, MAX_PATH } from '../../../runtime/tools/goto-node.js';
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
const HUBS = new Set(SUPPORT_DESK.hubs);
const hasEdge = (from: string, to: string) => (SUPPORT_DESK.edges[from] ?? []).some((edge) => edge.to === to);

/** The property: a legal walk from START, AUTH second, each step an edge or a jump to a hub seen earlier. */
function assertLegalPath(path: readonly string[]): void {
  if (path.length > 0 && path.length < MAX_PATH) {
    expect(path[0]).toBe('START');
    if (path.length > 1) expect(path[1]).toBe('AUTH');
  }
  for (let i = 1; i < path.length; i += 1) {
    const [from, to] = [path[i - 1] as string, path[i] as string];
    // A path cut to MAX_PATH no longer shows where a hub was first reached; the edge check still applies.
    const ok = hasEdge(from, to) || (HUBS.has(to) && (path.slice(0, i).includes(to) || path.length === MAX_PATH));
    expect(ok, `step ${from} → ${to} in ${path.join(' ')}`).toBe(true);
  }
}

describe('random goto_node calls', () => {
  it.each([1, 2, 3, 42, 2024])('never skip AUTH (pure function, seed %i, 3000 calls)', (seed) => {
    const random = prng(seed);
    const agent = prepareAgent(SUPPORT_DESK);
    let session: SessionState = { ...EMPTY_SESSION, agent: 'support_desk' };
    let accepted = 0;
    for (let call = 0; call < 3000; call += 1) {
      // Bias towards legal moves now and then, so walks get deep enough to matter.
      const current = session.path.at(-1);
      const successors = current === undefined ? [] : (SUPPORT_DESK.edges[current] ?? []).map((edge) => edge.to);
      const pool = random() < 0.5 && successors.length > 0 ? successors : CANDIDATES;
      const target = pool[Math.floor(random() * pool.length)] ?? 'START';
      const outcome = gotoNode(agent, session, { node_id: target });
      const answer = outcome.answer as { valid?: boolean; path?: readonly string[] };
      if (answer.valid === true) {
        accepted += 1;
        assertLegalPath(answer.path ?? []);
      } else {
        expect(outcome.session).toBe(session);
      }
      session = outcome.session;
      assertLegalPath(session.path);
    }
    expect(accepted).toBeGreaterThan(300);
  });

  it('never skip AUTH through the MCP server either (seed 7, 400 calls)', async () => {
    const random = prng(7);
    const session = await connectInMemory();
    await session.call('load_graph', { agent: 'support_desk' });
    for (let call = 0; call < 400; call += 1) {
      const target = CANDIDATES[Math.floor(random() * CANDIDATES.length)] ?? 'START';
      const { answer } = await session.call('goto_node', { node_id: target });
      if (answer.valid === true) assertLegalPath(answer.path);
    }
    await session.close();
  });
});
