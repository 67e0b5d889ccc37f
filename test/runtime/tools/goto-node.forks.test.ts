/**
 * Fork/join on the real runtime through an SDK client: the golden case `compose`'s `incident_triage` (a fork of three
 * branches, a join with `all`, its `passed` and `failed` edges). The branches are taken in any order; finishing one
 * early brings the run back to the fork, whose answer offers the branches left; a done branch is refused; the join is
 * entered with the last branch, and only the edge its outcome opens is legal after it. The fork records live in the
 * run's state in the store.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import type { RunStore } from '../../../runtime/store/run-store.js';
import { type Connected, connectInMemory, fixtureService } from '../helpers/mcp-client.js';

const bundle = JSON.parse(
  readFileSync(new URL('../../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;

describe('goto_node through a fork and its join (incident_triage)', () => {
  let store: RunStore;
  let connected: Connected;
  let runId: string;
  beforeEach(async () => {
    store = createMemoryRunStore();
    connected = await connectInMemory({ service: fixtureService({ bundle, store }) });
    runId = (await connected.call('load_graph', { agent: 'incident_triage' })).answer['run_id'];
    for (const step of ['START', 'TRIAGE']) await connected.call('goto_node', { node_id: step });
  });
  afterEach(async () => {
    await connected.close();
    await connected.service.close();
    await store.close();
  });
  const go = async (node_id: string, extra: Record<string, unknown> = {}) =>
    (await connected.call('goto_node', { node_id, ...extra })).answer;

  it('offers every branch at the fork, then only those left; a done branch is refused', async () => {
    const fork = await go('INVESTIGATE');
    expect(fork).toMatchObject({
      node: { id: 'INVESTIGATE', type: 'filled-rectangle' },
      fork: { join: 'FINDINGS', done: [], open: ['CHECK_LOGS', 'REPRODUCE', 'STATUS'] },
      edges: [
        { to: 'CHECK_LOGS', condition: null },
        { to: 'REPRODUCE', condition: null },
        { to: 'STATUS', condition: null },
      ],
    });
    expect((await go('FINDINGS')).valid).toBe(false);
    await go('STATUS');
    const back = await go('FINDINGS');
    expect(back).toMatchObject({
      valid: true,
      node: { id: 'INVESTIGATE' },
      path: ['START', 'TRIAGE', 'INVESTIGATE'],
      fork: { join: 'FINDINGS', done: ['STATUS'], open: ['CHECK_LOGS', 'REPRODUCE'] },
      edges: [
        { to: 'CHECK_LOGS', condition: null },
        { to: 'REPRODUCE', condition: null },
      ],
    });
    const again = await go('STATUS');
    expect(again).toMatchObject({ valid: false, current_node: 'INVESTIGATE', valid_next: ['CHECK_LOGS', 'REPRODUCE', 'START'] });
    expect(again['error']).toContain('Branch STATUS of fork INVESTIGATE is done');
    const read = await store.read(runId, 0);
    expect(read.status === 'found' && read.run.state.forks).toEqual([
      { fork: 'INVESTIGATE', depth: 2, done: [{ branch: 'STATUS', outcome: 'passed' }] },
    ]);
  });

  it('enters the join with the last branch; a failed branch fails it, and only its failed edge is open', async () => {
    await go('INVESTIGATE');
    await go('REPRODUCE');
    await go('REPRODUCED');
    expect((await go('FINDINGS', { outcome: 'failed' })).node.id).toBe('INVESTIGATE');
    await go('CHECK_LOGS');
    expect((await go('FINDINGS')).node.id).toBe('INVESTIGATE');
    await go('STATUS');
    const joined = await go('FINDINGS');
    expect(joined).toMatchObject({
      valid: true,
      node: { id: 'FINDINGS' },
      path: ['START', 'TRIAGE', 'INVESTIGATE', 'STATUS', 'FINDINGS'],
      join: { outcome: 'failed' },
      edges: [{ to: 'ESCALATE', condition: 'failed' }],
    });
    const fix = await go('FIX');
    expect(fix).toMatchObject({ valid: false, valid_next: ['ESCALATE', 'START'] });
    expect(fix['error']).toContain('the join failed');
    expect((await go('ESCALATE')).valid).toBe(true);
  });

  it('passes the join when every branch passed, in any order', async () => {
    await go('INVESTIGATE');
    for (const branch of [['CHECK_LOGS'], ['STATUS'], ['REPRODUCE', 'REPRODUCED']]) {
      for (const step of branch) expect((await go(step)).valid, step).toBe(true);
      await go('FINDINGS');
    }
    const where = (await connected.call('inspect', {})).answer;
    expect(where).toMatchObject({
      current_node: { id: 'FINDINGS' },
      edges: [{ to: 'FIX', condition: 'passed' }],
      valid_next: ['FIX', 'START'],
    });
    expect((await go('FIX')).valid).toBe(true);
    expect((await go('RESOLVED')).edges).toEqual([]);
  });
});
