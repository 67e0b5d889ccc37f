/**
 * `sop runs list` and `sop runs show` as a user runs them (the real CLI, a child process) on a real SQLite
 * store in an app folder, filled through the store API as the server fills it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunsArgs } from '../../cli/commands/runs.js';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { composeSop } from '../../contract/composition.js';
import { openSqliteRunStore } from '../../runtime/store/sqlite-run-store.js';
import type { RunSummary } from '../../runtime/store/run-store.js';
import { resultOf } from '../../runtime/service/session-service.js';
import { fixtureService } from '../runtime/helpers/mcp-client.js';
import { runCli } from '../support/run-cli.js';
import { aRun, anAudit, T0, walked } from '../support/stored-runs.js';

const app = mkdtempSync(join(tmpdir(), 'sop-runs-cli-'));
const storePath = join(app, '.sop', 'runs.db');
const busy = aRun({ runId: 'run-busy', principal: 'alice', updatedAt: T0 + 60_000, state: walked('START', 'AUTH', 'ROUTE') });
const quiet = aRun({ runId: 'run-quiet', principal: 'bob', agent: 'it_helpdesk', updatedAt: T0 });

beforeAll(async () => {
  writeFileSync(join(app, 'package.json'), '{ "name": "an-app", "private": true }\n');
  const opened = await openSqliteRunStore({ path: storePath });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.store;
  await store.create({ ...busy, state: walked('START'), updatedAt: T0 }, anAudit({ to: 'START', durationMs: 1.25 }));
  await store.commit(
    busy.runId,
    1,
    walked('START', 'AUTH'),
    anAudit({ tool: 'goto_node', input: { node: 'AUTH' }, from: 'START', to: 'AUTH', at: T0 + 1000 }),
    T0 + 1000,
  );
  await store.commit(
    busy.runId,
    2,
    walked('START', 'AUTH'),
    anAudit({
      tool: 'goto_node',
      input: { node: 'END\u001b[31m' },
      outcome: 'refused',
      error: 'not a successor of AUTH',
      from: 'AUTH',
      to: 'AUTH',
      at: T0 + 2000,
    }),
    T0 + 2000,
  );
  await store.commit(
    busy.runId,
    3,
    busy.state,
    anAudit({ tool: 'goto_node', input: { node: 'ROUTE', note: 'x'.repeat(200) }, from: 'AUTH', to: 'ROUTE', at: T0 + 60_000 }),
    T0 + 60_000,
  );
  await store.create(quiet, anAudit({ input: { agent: 'it_helpdesk' } }));
  await store.close();
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('sop runs list', () => {
  it('lists the runs of the default store under the app root, most recently active first', () => {
    const result = runCli(['runs', 'list'], join(app));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'RUN        PRINCIPAL  AGENT                    CALLS  NODE   LAST ACTIVITY',
        'run-busy   alice      retail_customer_support  4      ROUTE  2025-06-15T15:07:40.000Z',
        'run-quiet  bob        it_helpdesk              1      -      2025-06-15T15:06:40.000Z',
        '',
      ].join('\n'),
    );
  });

  it('filters by principal, limits, and answers JSON with the store rows', () => {
    const result = runCli(['runs', 'list', '--principal', 'bob', '--format', 'json', '--store', `sqlite:${storePath}`], tmpdir());
    expect(result.code).toBe(0);
    const { store, runs } = JSON.parse(result.stdout) as { store: string; runs: RunSummary[] };
    expect(store).toBe(`sqlite:${storePath}`);
    expect(runs).toEqual([
      {
        runId: 'run-quiet',
        principal: 'bob',
        agent: 'it_helpdesk',
        sourceHash: quiet.sourceHash,
        version: 1,
        currentNode: null,
        createdAt: T0,
        updatedAt: T0,
      },
    ]);
    expect(
      JSON.parse(runCli(['runs', 'list', '--limit', '1', '--format', 'json'], app).stdout).runs.map((run: RunSummary) => run.runId),
    ).toEqual(['run-busy']);
  });
});

describe('sop runs show', () => {
  it('shows one run and its audit log: seq, time, tool, outcome, from → to, duration, input (escaped, shortened)', () => {
    const result = runCli(['runs', 'show', 'run-busy'], app);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 9)).toEqual([
      'run        run-busy',
      'principal  alice',
      `agent      retail_customer_support (${busy.sourceHash})`,
      'calls      4',
      'path       START → AUTH → ROUTE',
      'todos      -',
      'started    2025-06-15T15:06:40.000Z',
      'last call  2025-06-15T15:07:40.000Z',
      '',
    ]);
    expect(lines[9]).toMatch(/^SEQ +TIME +TOOL +OUTCOME +DECIDED BY +FROM → TO +DURATION +INPUT$/);
    expect(lines[10]).toMatch(
      /^1 +2025-06-15T15:06:40\.000Z +load_graph +ok +- +- → START +1\.3 ms +\{"agent":"retail_customer_support"\}$/,
    );
    expect(lines[11]).toMatch(/^2 +2025-06-15T15:06:41\.000Z +goto_node +ok +- +START → AUTH +0\.3 ms +\{"node":"AUTH"\}$/);
    expect(lines[12]).toMatch(/^3 .* goto_node +refused: not a successor of AUTH +- +AUTH → AUTH +0\.3 ms +\{"node":"END\\u001b\[31m"\}$/);
    expect(lines[13]).toMatch(/^4 .* AUTH → ROUTE +0\.3 ms +\{"node":"ROUTE","note":"x+…$/);
    expect(lines[13]?.split('{')[1]).toHaveLength(79);
    expect(result.stdout).not.toContain('\u001b');
  });

  it('answers JSON with the whole run and every audit entry, past one page of the store', async () => {
    const opened = await openSqliteRunStore({ path: storePath });
    if (!opened.ok) throw new Error(opened.error);
    const long = aRun({ runId: 'run-long' });
    await opened.store.create(long, anAudit());
    for (let version = 1; version < 1203; version += 1) {
      await opened.store.commit(long.runId, version, walked('START'), anAudit({ tool: 'todo', input: { n: version } }), T0 + version);
    }
    await opened.store.close();
    const result = runCli(['runs', 'show', 'run-long', '--format', 'json'], app);
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout) as { run: { version: number }; audit: { seq: number; input: unknown }[] };
    expect(shown.run.version).toBe(1203);
    expect(shown.audit.map((entry) => entry.seq)).toEqual(Array.from({ length: 1203 }, (_, i) => i + 1));
    expect(shown.audit[1202]?.input).toEqual({ n: 1202 });
  });

  it('inside a sub-flow, says the call stack, read with the SOP version the store keeps for the run', async () => {
    const bundle = JSON.parse(
      readFileSync(new URL('../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
    ) as SopBundle;
    const composed = composeSop(bundle.agents['retail_orders']!, (name) => bundle.agents[name]);
    if (!composed.ok) throw new Error(composed.error);
    const opened = await openSqliteRunStore({ path: storePath });
    if (!opened.ok) throw new Error(opened.error);
    await opened.store.putAgentVersion(composed.sop);
    const inCall = aRun({
      runId: 'run-in-call',
      agent: 'retail_orders',
      sourceHash: composed.sop.sourceHash,
      state: walked('START', 'AUTHENTICATE', 'AUTHENTICATE.START', 'AUTHENTICATE.IDENTIFY'),
    });
    await opened.store.create(inCall, anAudit());
    await opened.store.close();
    const text = runCli(['runs', 'show', 'run-in-call'], app);
    expect(text.stdout).toContain('\nstack      retail_orders AUTHENTICATE › authenticate_customer IDENTIFY\n');
    const json = JSON.parse(runCli(['runs', 'show', 'run-in-call', '--format', 'json'], app).stdout) as { stack: unknown };
    expect(json.stack).toEqual([
      { agent: 'retail_orders', node: 'AUTHENTICATE' },
      { agent: 'authenticate_customer', node: 'IDENTIFY' },
    ]);
    // Outside a call there is no stack line.
    expect(runCli(['runs', 'show', 'run-busy'], app).stdout).not.toContain('stack');
  });

  it('says where each fork on the path stands: its branches passed, failed or open, the join and how it came out', async () => {
    const bundle = JSON.parse(
      readFileSync(new URL('../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
    ) as SopBundle;
    const path = join(app, 'forks.db');
    const opened = await openSqliteRunStore({ path });
    if (!opened.ok) throw new Error(opened.error);
    const service = fixtureService({ bundle, store: opened.store });
    const caller = { principal: 'alice' };
    const call = async (name: string, args: Record<string, unknown>) =>
      JSON.parse((resultOf(await service.callTool(name, args, caller)).content[0] as { text: string }).text);
    const runId = (await call('load_graph', { agent: 'incident_triage' })).run_id as string;
    const move = (node_id: string, outcome?: 'failed') => call('goto_node', { node_id, run_id: runId, ...(outcome ? { outcome } : {}) });
    for (const node of ['START', 'TRIAGE', 'INVESTIGATE', 'STATUS', 'FINDINGS', 'REPRODUCE', 'REPRODUCED']) await move(node);
    await move('FINDINGS', 'failed');
    const show = () => runCli(['runs', 'show', runId, '--store', `sqlite:${path}`], app);
    expect(show().stdout).toContain(
      '\nforks      INVESTIGATE → FINDINGS (all): CHECK_LOGS open, REPRODUCE failed, STATUS passed; join not entered yet\n',
    );
    await move('CHECK_LOGS');
    await move('FINDINGS');
    expect(show().stdout).toContain(
      '\nforks      INVESTIGATE → FINDINGS (all): CHECK_LOGS passed, REPRODUCE failed, STATUS passed; join failed\n',
    );
    const json = JSON.parse(runCli(['runs', 'show', runId, '--store', `sqlite:${path}`, '--format', 'json'], app).stdout) as {
      forks: unknown;
    };
    expect(json.forks).toEqual([
      {
        fork: 'INVESTIGATE',
        join: 'FINDINGS',
        strategy: 'all',
        branches: [
          { branch: 'CHECK_LOGS', state: 'passed' },
          { branch: 'REPRODUCE', state: 'failed' },
          { branch: 'STATUS', state: 'passed' },
        ],
        outcome: 'failed',
      },
    ]);
    await service.close();
    await opened.store.close();
    // A run in no fork has no forks line.
    expect(runCli(['runs', 'show', 'run-busy'], app).stdout).not.toContain('forks');
  });

  it('says so for a run the store does not have', () => {
    const result = runCli(['runs', 'show', 'run-nope'], app);
    expect([result.code, result.stdout, result.stderr]).toEqual([1, '', `sop runs: no run run-nope in sqlite:${storePath}\n`]);
  });
});

describe('sop runs: stores and usage', () => {
  it('reports a missing store file without creating it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'sop-runs-empty-'));
    try {
      writeFileSync(join(empty, 'package.json'), '{}\n');
      const result = runCli(['runs', 'list'], empty);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `sop runs: no run store at ${join(empty, '.sop', 'runs.db')} (sop serve --http creates it with its first run; or pass --store URL)\n`,
      );
      expect(existsSync(join(empty, '.sop'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('names the valid forms for a store it does not know', () => {
    const result = runCli(['runs', 'list', '--store', 'mongodb://x'], app);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^sop runs: unknown store 'mongodb:\/\/x': use `memory`, `sqlite:PATH`/);
  });

  it.each([
    [['list'], { mode: 'list', store: 'sqlite:./.sop/runs.db', format: 'text' }],
    [
      ['list', '--limit', '5', '--principal', 'a', '--format=json'],
      { mode: 'list', store: 'sqlite:./.sop/runs.db', format: 'json', principal: 'a', limit: 5 },
    ],
    [['show', 'r1', '--store', 'memory'], { mode: 'show', store: 'memory', format: 'text', runId: 'r1' }],
    [['--help'], { mode: 'help' }],
    [[], { mode: 'error', message: 'choose list or show' }],
    [['stats'], { mode: 'error', message: "unknown runs command 'stats'" }],
    [['show'], { mode: 'error', message: 'show takes one run id' }],
    [['show', 'a', 'b'], { mode: 'error', message: 'show takes one run id' }],
    [['show', 'a', '--limit', '3'], { mode: 'error', message: '--principal and --limit apply to list only' }],
    [['list', 'x'], { mode: 'error', message: 'list takes no arguments, got x' }],
    [['list', '--limit', '0'], { mode: 'error', message: '--limit needs a number from 1 to 500, got 0' }],
    [['list', '--limit', 'ten'], { mode: 'error', message: '--limit needs a number from 1 to 500, got ten' }],
    [['list', '--format', 'yaml'], { mode: 'error', message: '--format is text or json, got yaml' }],
  ])('%j → %j', (args, expected) => {
    expect(parseRunsArgs(args)).toEqual(expected);
  });

  it('exits 2 with the usage for an unknown option', () => {
    const result = runCli(['runs', 'list', '--verbose'], app);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^sop runs: Unknown option '--verbose'.*\n\nUsage: sop runs list/s);
  });
});
