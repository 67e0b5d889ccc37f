/**
 * `goto_node` builds its answer's text by splicing each node's prepared JSON with the path's, instead of
 * calling `JSON.stringify` on the answer. The text must stay byte-identical to `JSON.stringify(answer)`: this
 * checks it for every node of the fixture agents and of every generated agent, with and without a
 * `todo_reminder`, on a fresh path and on a rewound one.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { prepareAgent, type PreparedAgent } from '../../../contract/answers/prepared-agent.js';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { EMPTY_RUN_STATE, type RunState } from '../../../runtime/store/run-store.js';
import { gotoNode } from '../../../runtime/tools/goto-node.js';
import { SUPPORT_DESK, TINY_FLOW, withTransitions } from '../../fixtures/runtime/agents.js';

/** Shortest legal route from the entry node to each reachable node (entry first, the node last). */
function routes(sop: CompiledSop): Map<string, string[]> {
  const entry = sop.transitions.entry;
  const found = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const edge of sop.edges[node] ?? []) {
      if (found.has(edge.to)) continue;
      found.set(edge.to, [...(found.get(node) as string[]), edge.to]);
      queue.push(edge.to);
    }
  }
  return found;
}

/** Moves along `ids`, checking every answer's text; returns the state after them. */
function play(agent: PreparedAgent, state: RunState, ids: readonly string[]): RunState {
  for (const id of ids) {
    const outcome = gotoNode(agent, state, { node_id: id });
    expect(outcome.answer, `move to ${id}`).toMatchObject({ valid: true });
    expect(outcome.text, `text of ${agent.name} ${id}`).toBe(JSON.stringify(outcome.answer));
    state = outcome.state;
  }
  return state;
}

function checkEveryNode(sop: CompiledSop): number {
  const agent = prepareAgent(sop);
  const todos = sop.terminalNodes.map((node) => ({ content: `reach ${node}`, status: 'pending' as const, completion_node: node }));
  const plain: RunState = EMPTY_RUN_STATE;
  const reminded: RunState = { ...plain, todos };
  const byNode = routes(sop);
  for (const [node, route] of byNode) {
    play(agent, plain, route);
    play(agent, reminded, route);
    // Back to an earlier node of the route: a successor or hub behind the current node rewinds the path.
    const end = play(agent, reminded, route);
    const back = route.findIndex((id) => sop.transitions.successors[node]?.includes(id) || sop.transitions.hubs.includes(id));
    if (back >= 0) play(agent, end, [route[back] as string]);
  }
  return byNode.size;
}

describe('goto_node answer text', () => {
  it.each([SUPPORT_DESK, TINY_FLOW])('is JSON.stringify of the answer for every node of the fixture $meta.agent', (sop) => {
    expect(checkEveryNode(sop)).toBe(sop.nodeIds.length);
  });

  it('is JSON.stringify of the answer for every node of every generated agent', () => {
    const bundle = JSON.parse(readFileSync(new URL('../../../generated/sop-bundle.json', import.meta.url), 'utf8')) as SopBundle;
    expect(Object.keys(bundle.agents)).toEqual(expect.arrayContaining(['it_helpdesk', 'retail_customer_support']));
    for (const [agent, sop] of Object.entries(bundle.agents)) {
      expect(checkEveryNode(sop), `${agent}: nodes reached from the entry node`).toBe(sop.nodeIds.length);
    }
  });

  it('escapes what JSON must escape, as JSON.stringify does', () => {
    const quoted: CompiledSop = withTransitions({
      ...TINY_FLOW,
      nodes: { ...TINY_FLOW.nodes, STEP: { id: 'STEP', type: 'rectangle', description: 'Say "hi"\\n\u2028 ✓ \u0007' } },
      edges: { ...TINY_FLOW.edges, BEGIN: [{ to: 'STEP', condition: 'a "quoted" \\ label', style: 'solid' }] },
      prompts: { STEP: { prompt: 'Line 1\nLine 2\t"x" \ud83d\ude00', tools: ['t'], examples: [{ user: 'u "1"', agent: 'a\\b' }] } },
    });
    expect(checkEveryNode(quoted)).toBe(3);
  });
});
