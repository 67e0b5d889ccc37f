/**
 * `goto_node` with visit limits (`max_visits`): the move past the limit is refused with an answer that names the
 * node, its limit and the escalation node (`escalate_to`, also in `valid_next`); the escalation move is then
 * legal; the count is part of the run's state, committed with each move, so it holds when the run continues on
 * another service instance over the same SQLite file (a restart or a second instance).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, type CompiledSop } from '../../../contract/compiled-sop.js';
import { createAgentSource } from '../../../runtime/agents/agent-source.js';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import { silentLogger } from '../../../runtime/support/logger.js';
import { createSessionService, resultOf, type SessionService } from '../../../runtime/service/session-service.js';
import { openRunStore } from '../../../runtime/store/open-run-store.js';
import { EMPTY_RUN_STATE, type RunState, type RunStore } from '../../../runtime/store/run-store.js';
import { gotoNode } from '../../../runtime/tools/goto-node.js';
import { whereView } from '../../../runtime/tools/inspect/where-view.js';
import { SUPPORT_DESK } from '../../fixtures/runtime/agents.js';
import { playMoves } from '../../support/play-moves.js';

/** support_desk where the address flow may be entered twice at most; then ESCALATE instead. */
const LIMITED: CompiledSop = {
  ...SUPPORT_DESK,
  sourceHash: `sha256:${'1'.repeat(64)}`,
  transitions: { ...SUPPORT_DESK.transitions, limits: { COLLECT_ADDR: { max: 2, escalation: 'ESCALATE' } } },
};
const agent = prepareAgent(LIMITED);

const walk = (ids: readonly string[], from: RunState = EMPTY_RUN_STATE) => playMoves(agent, ids, from);

describe('goto_node and max_visits', () => {
  it('counts the visits in the run state and refuses the move past the limit, naming the escalation node', () => {
    const state = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'ROUTE', 'COLLECT_ADDR', 'ROUTE']);
    expect(state.visits).toEqual({ COLLECT_ADDR: 2 });
    const refused = gotoNode(agent, state, { node_id: 'COLLECT_ADDR' });
    expect(refused).toMatchObject({ isError: false, outcome: 'refused', state });
    expect(refused.answer).toEqual({
      valid: false,
      error:
        'Cannot reach COLLECT_ADDR from ROUTE: COLLECT_ADDR has been visited 2 times, its limit (max_visits: 2). Go to ESCALATE, the escalation node.',
      current_node: 'ROUTE',
      valid_next: ['CHK_REFUND', 'ESCALATE', 'START', 'ROUTE'],
      escalate_to: 'ESCALATE',
    });
    expect(gotoNode(agent, state, { node_id: 'ESCALATE' }).answer).toMatchObject({
      valid: true,
      path: ['START', 'AUTH', 'ROUTE', 'ESCALATE'],
    });
  });

  it('inspect where shows the moves left into each limited node, and nothing for agents without limits', () => {
    const state = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR']);
    const where = (of: typeof agent) => whereView.onRun(of, state, { view: 'where' }, { runId: 'run_x', version: 4 }).answer;
    expect(where(agent)).toMatchObject({ visits_left: { COLLECT_ADDR: 1 } });
    expect(where(prepareAgent(SUPPORT_DESK))).not.toHaveProperty('visits_left');
  });

  it('keeps the count across a restart: START does not buy new visits', () => {
    const state = walk(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'ROUTE', 'COLLECT_ADDR', 'START', 'AUTH', 'ROUTE']);
    expect(gotoNode(agent, state, { node_id: 'COLLECT_ADDR' }).answer).toMatchObject({ valid: false, escalate_to: 'ESCALATE' });
  });

  it('leaves the state object alone on a move that changes neither path nor visits', () => {
    const state = walk(['START', 'AUTH', 'ROUTE']);
    expect(gotoNode(agent, state, { node_id: 'ROUTE' }).state).toBe(state);
  });
});

describe('visit counts in a durable store', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function instance(storeUrl: string): Promise<{ service: SessionService; store: RunStore }> {
    const opened = await openRunStore(storeUrl, { root: tmpdir() });
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    const agents = createAgentSource({
      origin: { bundle: { format: BUNDLE_FORMAT, agents: { support_desk: LIMITED } } },
      store,
      logger: silentLogger,
    });
    const service = createSessionService({ agents, store, projectRoot: tmpdir(), logger: silentLogger });
    cleanup.push(async () => {
      await service.close();
      await store.close();
    });
    return { service, store };
  }

  it('holds when the run goes on in another service over the same SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sop-visits-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${join(dir, 'runs.db')}`;
    const caller = { principal: 'local' };
    const first = await instance(url);
    const loaded = resultOf(await first.service.callTool('load_graph', { agent: 'support_desk' }, caller));
    const runId = (loaded.structuredContent as { run_id: string }).run_id;
    for (const node_id of ['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'ROUTE', 'COLLECT_ADDR', 'ROUTE']) {
      await first.service.callTool('goto_node', { node_id, run_id: runId }, caller);
    }
    const second = await instance(url);
    const read = await second.store.read(runId, 0);
    expect(read.status === 'found' && read.run.state.visits).toEqual({ COLLECT_ADDR: 2 });
    const refused = resultOf(await second.service.callTool('goto_node', { node_id: 'COLLECT_ADDR', run_id: runId }, caller));
    expect(refused.structuredContent).toMatchObject({ valid: false, escalate_to: 'ESCALATE' });
    const escalated = resultOf(await second.service.callTool('goto_node', { node_id: 'ESCALATE', run_id: runId }, caller));
    expect(escalated.structuredContent).toMatchObject({ valid: true, node: { id: 'ESCALATE' } });
    const audit = await second.store.audit(runId);
    expect(audit.at(-2)).toMatchObject({
      tool: 'goto_node',
      outcome: 'refused',
      from: 'ROUTE',
      to: 'ROUTE',
      error: expect.stringMatching(/max_visits: 2/),
    });
  });
});
