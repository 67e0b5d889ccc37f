/**
 * Rebuilding a run at any step from its audit log alone (what the page's scrubber shows), on a real run's log:
 * a session service drives the fixture agent, and the log it committed is read back from the store.
 */
import { resultOf } from '../../../runtime/service/session-service.js';
import { describe, expect, it } from 'vitest';
import { stepView } from '../../../runtime/page/run-timeline.js';
import { fixtureService } from '../helpers/mcp-client.js';

async function recordedRun() {
  const service = fixtureService();
  const caller = { principal: 'local' };
  const call = async (name: string, args: object) => resultOf(await service.callTool(name, args, caller));
  const runId = ((await call('load_graph', { agent: 'support_desk' })).structuredContent as Record<string, unknown>)['run_id'] as string;
  const moves = [
    ['goto_node', { node_id: 'START' }],
    ['goto_node', { node_id: 'AUTH' }],
    ['todo', { todos: [{ content: '  New address ', status: 'in_progress', completion_node: 'END_ADDR' }] }],
    ['goto_node', { node_id: 'ROUTE' }],
    ['goto_node', { node_id: 'DO_REFUND' }],
    ['goto_node', { node_id: 'COLLECT_ADDR' }],
    ['goto_node', { node_id: 'ROUTE' }],
    ['todo', { todos: [{ content: 'x', status: 'done' }] }],
    ['inspect', {}],
  ] as const;
  for (const [name, args] of moves) await call(name, { ...args, run_id: runId });
  const audit = await service.store.audit(runId);
  await service.close();
  return audit;
}

describe('stepView', () => {
  it('shows the run as it stood after each step: visited, current, moved along, refused, todos', async () => {
    const audit = await recordedRun();
    expect(audit).toHaveLength(10);

    expect(stepView(audit, 1)).toMatchObject({ step: 1, current: null, visited: [], traversed: [], refused: [], todos: [] });
    expect(stepView(audit, 3)).toMatchObject({ current: 'AUTH', visited: ['START', 'AUTH'], traversed: [['START', 'AUTH']] });

    const refusedStep = stepView(audit, 6);
    expect(refusedStep.entry).toMatchObject({ tool: 'goto_node', outcome: 'refused' });
    expect(refusedStep).toMatchObject({ current: 'ROUTE', refused: [['ROUTE', 'DO_REFUND']] });
    expect(refusedStep.todos).toEqual([{ content: 'New address', status: 'in_progress', completion_node: 'END_ADDR' }]);

    const last = stepView(audit, 10);
    expect(last.current).toBe('ROUTE');
    expect(last.traversed).toEqual([
      ['START', 'AUTH'],
      ['AUTH', 'ROUTE'],
      ['ROUTE', 'COLLECT_ADDR'],
      ['COLLECT_ADDR', 'ROUTE'],
    ]);
    expect(new Set(last.visited)).toEqual(new Set(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR']));
    // The rejected todo write (status "done") left the list as it was.
    expect(last.todos).toEqual(refusedStep.todos);
  });
});
