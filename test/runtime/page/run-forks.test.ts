/**
 * Forks on the runs page: over real HTTP with a real SDK client driving `incident_triage` (the golden case `compose`)
 * through its fork, the branches in an order that is not the edges', one failing, the page's API gives the forks on
 * the run's path (`RunDetail.forks`: each branch done passed, done failed or open, the join's strategy and outcome)
 * and the version's transition table; replaying the audit log (`replayForks`) gives, at every step, exactly the forks
 * the server answered with after that step; and the marks on the flowchart follow (`forkMarks`, `frameView`). A log
 * that disagrees with the rule is "not known" (null), never guessed.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { serveHttp, type SopHttpServer } from '../../../runtime/http/serve-http.js';
import { replayForks } from '../../../runtime/page/fork-replay.js';
import { forkMarks, forkViews } from '../../../runtime/page/fork-view.js';
import { frameView } from '../../../runtime/page/frame-view.js';
import type { ForkView, RunDetail, RunSop } from '../../../runtime/page/run-shapes.js';
import { stepView } from '../../../runtime/page/run-timeline.js';
import { planRunsPage } from '../../../runtime/page/runs-page.js';
import type { SessionService } from '../../../runtime/service/session-service.js';
import type { AuditEntry } from '../../../runtime/store/run-store.js';
import { callTool, fixtureService } from '../helpers/mcp-client.js';

const bundle = JSON.parse(
  readFileSync(new URL('../../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;

interface RunPage {
  readonly run: RunDetail;
  readonly sop: RunSop;
  readonly audit: AuditEntry[];
}

const branch = (name: string, state: 'passed' | 'failed' | 'open') => ({ branch: name, state });

describe('the runs page with forks', () => {
  let service: SessionService;
  let server: SopHttpServer;
  let client: Client;

  beforeAll(async () => {
    service = fixtureService({ bundle });
    const page = planRunsPage({ service });
    if (!page.on) throw new Error(page.reason);
    server = await serveHttp({ service, host: '127.0.0.1', port: 0, routes: page.routes });
    client = new Client({ name: 'forks-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await service.close();
  });

  const read = async (runId: string): Promise<RunPage> =>
    (await (await fetch(`http://127.0.0.1:${server.port}/runs/api/runs/${runId}`)).json()) as RunPage;

  it('answers the forks on the path after every step, and the replayed log agrees with each', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'incident_triage' })).answer['run_id'] as string;
    const after: ForkView[][] = [(await read(runId)).run.forks as ForkView[]];
    const moves: { node_id: string; outcome?: 'passed' | 'failed' }[] = [
      { node_id: 'START' },
      { node_id: 'TRIAGE' },
      { node_id: 'INVESTIGATE' },
      { node_id: 'STATUS' },
      { node_id: 'FINDINGS' },
      { node_id: 'STATUS' }, // refused: that branch is done
      { node_id: 'REPRODUCE' },
      { node_id: 'REPRODUCED' },
      { node_id: 'FINDINGS', outcome: 'failed' },
      { node_id: 'CHECK_LOGS' },
      { node_id: 'FINDINGS' },
      { node_id: 'FIX' }, // refused: the join failed
      { node_id: 'ESCALATE' },
    ];
    for (const move of moves) {
      await callTool(client, 'goto_node', move);
      after.push((await read(runId)).run.forks as ForkView[]);
    }
    const page = await read(runId);
    expect(page.audit.map((entry) => `${entry.outcome} ${entry.to}`)).toEqual([
      'ok null',
      'ok START',
      'ok TRIAGE',
      'ok INVESTIGATE',
      'ok STATUS',
      'ok INVESTIGATE',
      'refused INVESTIGATE',
      'ok REPRODUCE',
      'ok REPRODUCED',
      'ok INVESTIGATE',
      'ok CHECK_LOGS',
      'ok FINDINGS',
      'refused FINDINGS',
      'ok ESCALATE',
    ]);
    expect(page.sop.transitions).toEqual(bundle.agents['incident_triage']!.transitions);

    const fork = (branches: ForkView['branches'], outcome: ForkView['outcome']): ForkView[] => [
      { fork: 'INVESTIGATE', join: 'FINDINGS', strategy: 'all', branches, outcome },
    ];
    expect(after[2]).toEqual([]);
    expect(after[3]).toEqual(fork([branch('CHECK_LOGS', 'open'), branch('REPRODUCE', 'open'), branch('STATUS', 'open')], null));
    expect(after[5]).toEqual(fork([branch('CHECK_LOGS', 'open'), branch('REPRODUCE', 'open'), branch('STATUS', 'passed')], null));
    expect(after[9]).toEqual(fork([branch('CHECK_LOGS', 'open'), branch('REPRODUCE', 'failed'), branch('STATUS', 'passed')], null));
    const decided = fork([branch('CHECK_LOGS', 'passed'), branch('REPRODUCE', 'failed'), branch('STATUS', 'passed')], 'failed');
    expect(after[11]).toEqual(decided);
    expect(after[13]).toEqual(decided);

    // Each step of the log, replayed by the page, gives the forks the server answered with then.
    const transitions = page.sop.transitions!;
    for (const entry of page.audit) {
      const replayed = replayForks(page.sop, page.audit, entry.seq);
      if (replayed === null) throw new Error(`the replay disagrees with the log at step ${entry.seq}`);
      expect(forkViews(transitions.forks, replayed.forks, replayed.path), `step ${entry.seq}`).toEqual(after[entry.seq - 1]);
    }

    // The marks on the flowchart at the join: branches by state, the join by its outcome.
    const marks = { ...stepView(page.audit, 12), ...forkMarks(after[11]!) };
    const view = frameView(page.sop, marks);
    expect(view.flowchart).toBe(bundle.agents['incident_triage']!.flowchart);
    expect(view.marks.branches).toEqual([
      ['CHECK_LOGS', 'passed'],
      ['REPRODUCE', 'failed'],
      ['STATUS', 'passed'],
    ]);
    expect(view.marks.joins).toEqual([['FINDINGS', 'failed']]);
  });

  it('says the forks are not known where the log disagrees with the rule, from that step on', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'incident_triage' })).answer['run_id'] as string;
    for (const node of ['START', 'TRIAGE', 'INVESTIGATE', 'CHECK_LOGS']) await callTool(client, 'goto_node', { node_id: node });
    const page = await read(runId);
    expect(replayForks(page.sop, page.audit, 5)?.path).toEqual(['START', 'TRIAGE', 'INVESTIGATE', 'CHECK_LOGS']);
    const altered = page.audit.map((entry) => (entry.seq === 4 ? { ...entry, to: 'STATUS' } : entry));
    expect(replayForks(page.sop, altered, 3)?.path).toEqual(['START', 'TRIAGE']);
    expect(replayForks(page.sop, altered, 4)).toBeNull();
    expect(replayForks(page.sop, altered, 5)).toBeNull();
    const unknownMove = page.audit.map((entry) => (entry.seq === 5 ? { ...entry, input: { node_id: 'NOWHERE' } } : entry));
    expect(replayForks(page.sop, unknownMove, 5)).toBeNull();
  });

  it('a SOP without forks: no forks in the detail, no table in the version, frames with their entry node', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'retail_orders' })).answer['run_id'] as string;
    for (const node of ['START', 'AUTHENTICATE']) await callTool(client, 'goto_node', { node_id: node });
    const page = await read(runId);
    expect(page.run.current_node).toBe('AUTHENTICATE.START');
    expect(page.run.forks).toEqual([]);
    expect(page.sop.transitions).toBeUndefined();
    expect(page.sop.frames?.['AUTHENTICATE']?.entry_node).toBe('START');
  });
});

describe('forkViews', () => {
  const rules = bundle.agents['incident_triage']!.transitions.forks;

  it('shows only the forks still on the path, and reads rules as data', () => {
    const progress = [{ fork: 'INVESTIGATE', depth: 2, done: [{ branch: 'STATUS', outcome: 'failed' as const }] }];
    expect(forkViews(rules, progress, ['START', 'TRIAGE', 'INVESTIGATE'])).toHaveLength(1);
    expect(forkViews(rules, progress, ['START', 'TRIAGE'])).toEqual([]);
    expect(forkViews(rules, [{ fork: 'constructor', depth: 0, done: [] }], ['constructor'])).toEqual([]);
    expect(forkViews(undefined, progress, ['START', 'TRIAGE', 'INVESTIGATE'])).toEqual([]);
  });

  it('marks every branch and a decided join only', () => {
    const views: ForkView[] = [
      { fork: 'F', join: 'J', strategy: 'any', branches: [branch('A', 'open'), branch('B', 'passed')], outcome: null },
      { fork: 'G', join: 'K', strategy: 'all', branches: [branch('C', 'failed')], outcome: 'failed' },
    ];
    expect(forkMarks(views)).toEqual({
      branches: [
        ['A', 'open'],
        ['B', 'passed'],
        ['C', 'failed'],
      ],
      joins: [['K', 'failed']],
    });
  });
});
