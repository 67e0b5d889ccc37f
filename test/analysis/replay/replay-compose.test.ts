/**
 * `sop replay` of audit logs through a sub-flow and a fork (the golden case `compose`): conversations played on the
 * real runtime through an SDK client, their audit logs read as `sop runs show --format json` writes them, replay as
 * the server decided them: a move into a sub-flow node enters the called SOP, ids of the current SOP are read in its
 * frame, the fork brings a finished branch back to the fork and takes the branch's outcome. A move the server
 * refused is still a finding.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { replay } from '../../../analysis/replay/replay.js';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import { connectInMemory, fixtureService } from '../../runtime/helpers/mcp-client.js';

const bundle = JSON.parse(
  readFileSync(new URL('../../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;

async function auditLog(agent: string, moves: readonly (string | [string, string])[]): Promise<string> {
  const store = createMemoryRunStore();
  const connected = await connectInMemory({ service: fixtureService({ bundle, store }) });
  try {
    const runId = (await connected.call('load_graph', { agent })).answer['run_id'] as string;
    for (const move of moves) {
      const [node_id, outcome] = typeof move === 'string' ? [move, undefined] : move;
      await connected.call('goto_node', { node_id, ...(outcome === undefined ? {} : { outcome }) });
    }
    const read = await store.read(runId, 0);
    if (read.status !== 'found') throw new Error('the run is gone');
    return JSON.stringify({ store: 'memory', run: read.run, audit: await store.audit(runId) });
  } finally {
    await connected.close();
    await connected.service.close();
    await store.close();
  }
}

describe('replay through sub-flows and forks', () => {
  it('passes a conversation through the authentication sub-flow, as the server decided it', async () => {
    const text = await auditLog('retail_orders', [
      'START',
      'AUTHENTICATE',
      'IDENTIFY',
      'FOUND',
      'VERIFY',
      'CODE_OK',
      'AUTHENTICATED',
      'ROUTE',
      'CHK_CANCEL',
      'IS_PENDING',
      'END_DENIED',
    ]);
    const outcome = replay({ bundle, text, file: 'run.json' });
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.report.findings).toEqual([]);
    expect(outcome.report.verdict).toBe('pass');
  });

  it('passes a conversation through a fork, branches in its own order, and still finds a refused move', async () => {
    const fine = await auditLog('incident_triage', [
      'START',
      'TRIAGE',
      'INVESTIGATE',
      'STATUS',
      ['FINDINGS', 'failed'],
      'CHECK_LOGS',
      'FINDINGS',
      'REPRODUCE',
      'REPRODUCED',
      'FINDINGS',
      'ESCALATE',
    ]);
    const passed = replay({ bundle, text: fine, file: 'run.json' });
    if (!passed.ok) throw new Error(passed.error);
    expect(passed.report.findings).toEqual([]);
    const refused = await auditLog('incident_triage', ['START', 'TRIAGE', 'INVESTIGATE', 'STATUS', 'FINDINGS', 'STATUS']);
    const failed = replay({ bundle, text: refused, file: 'run.json' });
    if (!failed.ok) throw new Error(failed.error);
    expect(failed.report.findings.map((f) => [f.rule, f.node])).toEqual([
      ['illegal_move', 'INVESTIGATE'],
      ['unfinished', 'INVESTIGATE'],
    ]);
  });
});
