/**
 * Evidence across sub-flow frames (gateway mode's `goto_node`, on the expanded `retail_orders` of the golden case
 * `compose`): a called SOP's node that requires evidence holds the run back inside the call as it would alone, and
 * what the authentication proved inside the call stays proved for the rest of the run, after the call ended and
 * after a restart, as in a SOP without sub-flows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { composeSop } from '../../../contract/composition.js';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import type { RunState } from '../../../runtime/store/run-store.js';
import { gatewayGotoNode } from '../../../runtime/tools/goto-node.js';

const bundle = JSON.parse(
  readFileSync(new URL('../../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;
const composed = composeSop(bundle.agents['retail_orders']!, (name) => bundle.agents[name]);
if (!composed.ok) throw new Error(composed.error);
const agent = prepareAgent(composed.sop);

function walk(state: RunState, steps: readonly string[]): RunState {
  let next = state;
  for (const node_id of steps) {
    const moved = gatewayGotoNode(agent, next, { node_id });
    if (moved.outcome !== 'ok') throw new Error(`${node_id}: ${JSON.stringify(moved.answer)}`);
    next = moved.state;
  }
  return next;
}

describe('evidence in a sub-flow (gateway mode)', () => {
  const start: RunState = { path: [], todos: [], visits: {} };

  it('holds the run at a called node that requires evidence until a call there succeeded', () => {
    const at = walk(start, ['START', 'AUTHENTICATE', 'IDENTIFY']);
    const held = gatewayGotoNode(agent, at, { node_id: 'FOUND' });
    expect(held.outcome).toBe('refused');
    expect(held.answer).toMatchObject({ valid: false, current_node: 'AUTHENTICATE.IDENTIFY' });
    expect((held.answer as { error: string }).error).toContain(
      'requires a call of find_user_id_by_email or find_user_id_by_name_zip that found it in this run',
    );
  });

  it('keeps the evidence an ended call gathered for the rest of the run: the user found inside it stays found', () => {
    const at = walk(start, ['START', 'AUTHENTICATE', 'IDENTIFY']);
    const record = { node: 'AUTHENTICATE.IDENTIFY', depth: 3, tool: 'find_user_id_by_email', about: { name: 'user_id', value: 'u1' } };
    const proved: RunState = { ...at, evidence: [record] };
    const inside = walk(proved, ['FOUND', 'VERIFY', 'CODE_OK', 'AUTHENTICATED']);
    expect(inside.evidence).toEqual([record]);
    const returned = walk(inside, ['ROUTE']);
    expect(returned.path).toEqual(['START', 'AUTHENTICATE', 'ROUTE']);
    expect(returned.evidence).toEqual([record]);
    const restarted = walk(returned, ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND']);
    expect(restarted.path.at(-1)).toBe('AUTHENTICATE.FOUND');
    expect(restarted.evidence).toEqual([record]);
  });
});
