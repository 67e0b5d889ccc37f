/**
 * Sub-flows and fork/join end to end, as a team would run them: the golden case `compose` (a retail SOP calling the
 * shared authentication SOP, an incident SOP with a fork/join) copied into a temp app, compiled by the real
 * `sop build` (with `"paths": true`), served by the real `sop serve` over stdio, and driven by an SDK client:
 *   - the retail conversation authenticates through the called SOP (the stack in every answer inside it), returns,
 *     and cancels an order; the called SOP's visit limit holds across a restart;
 *   - the incident conversation works through the fork's branches in its own order, one of them failing, and leaves
 *     the join along its `failed` edge;
 *   - every golden path of both (`sop paths`, and the build's fixtures) is walked through the real runtime
 *     (`walkGoldenPaths`), and the fixture equals what `sop paths` prints.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoldenPaths } from '../../generator/paths/golden-paths.js';
import { walkGoldenPaths } from '../../testing/walk-paths.js';
import { callTool, type Answer } from '../runtime/helpers/mcp-client.js';
import { CLI, PROJECT_ROOT, runCli } from '../support/run-cli.js';

let app: string;
let client: Client;

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'sop-compose-'));
  cpSync(join(PROJECT_ROOT, 'test/fixtures/golden/compose/sops'), join(app, 'sops'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'compose-app', private: true, type: 'module' }));
  writeFileSync(join(app, 'sop.config.json'), JSON.stringify({ paths: true }));
  const built = runCli(['build'], app);
  expect(built.code, built.stderr + built.stdout).toBe(0);
  client = new Client({ name: 'compose-e2e', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], cwd: app, stderr: 'pipe' }));
  await client.listTools();
}, 120_000);

afterAll(async () => {
  await client?.close();
  rmSync(app, { recursive: true, force: true });
});

async function go(node_id: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const { answer, isError } = await callTool(client, 'goto_node', { node_id, ...extra });
  expect(isError, JSON.stringify(answer)).toBe(false);
  expect(answer['valid'], `goto_node ${node_id}: ${JSON.stringify(answer)}`).toBe(true);
  return answer;
}

describe('a retail SOP calling the shared authentication SOP, over stdio', () => {
  it('authenticates through the called SOP, returns, and cancels an order', async () => {
    await callTool(client, 'load_graph', { agent: 'retail_orders' });
    await go('START');
    const entered = await go('AUTHENTICATE');
    expect(entered['node']).toMatchObject({ id: 'AUTHENTICATE.START' });
    expect(entered['stack']).toEqual([
      { agent: 'retail_orders', node: 'AUTHENTICATE' },
      { agent: 'authenticate_customer', node: 'START' },
    ]);
    for (const step of ['IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK']) {
      const answer = await go(step);
      expect(answer['stack']?.at(-1)).toEqual({ agent: 'authenticate_customer', node: step });
    }
    const authenticated = await go('AUTHENTICATED');
    expect(authenticated['edges']).toEqual([{ to: 'ROUTE', condition: 'authenticated' }]);
    const route = await go('ROUTE');
    expect(route).toMatchObject({ returned: 'AUTHENTICATE', path: ['START', 'AUTHENTICATE', 'ROUTE'] });
    for (const step of ['CHK_CANCEL', 'IS_PENDING', 'DO_CANCEL']) await go(step);
    const done = await go('END_CANCELLED');
    expect(done['path']).toEqual(['START', 'AUTHENTICATE', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING', 'DO_CANCEL', 'END_CANCELLED']);
  });

  it("keeps the called SOP's visit limit across a restart, and escalates inside the call", async () => {
    await callTool(client, 'load_graph', { agent: 'retail_orders' });
    for (const step of ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK', 'VERIFY', 'CODE_OK']) await go(step);
    for (const step of ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK']) await go(step);
    const refused = (await callTool(client, 'goto_node', { node_id: 'VERIFY' })).answer;
    expect(refused).toMatchObject({ valid: false, escalate_to: 'AUTHENTICATE.LOCKED_OUT' });
    await go('AUTHENTICATE.LOCKED_OUT');
    expect((await go('END_UNAUTH'))['returned']).toBe('AUTHENTICATE');
  });
});

describe('a fork/join, over stdio', () => {
  it('works through the branches in its own order and leaves the join along the edge its outcome opens', async () => {
    await callTool(client, 'load_graph', { agent: 'incident_triage' });
    await go('START');
    await go('TRIAGE');
    expect((await go('INVESTIGATE'))['fork']).toEqual({ join: 'FINDINGS', done: [], open: ['CHECK_LOGS', 'REPRODUCE', 'STATUS'] });
    await go('STATUS');
    expect((await go('FINDINGS'))['fork']).toEqual({ join: 'FINDINGS', done: ['STATUS'], open: ['CHECK_LOGS', 'REPRODUCE'] });
    await go('REPRODUCE');
    await go('REPRODUCED');
    await go('REPRODUCE');
    await go('REPRODUCED');
    expect((await go('FINDINGS', { outcome: 'failed' }))['fork']['open']).toEqual(['CHECK_LOGS']);
    await go('CHECK_LOGS');
    const joined = await go('FINDINGS');
    expect(joined).toMatchObject({
      node: { id: 'FINDINGS' },
      join: { outcome: 'failed' },
      edges: [{ to: 'ESCALATE', condition: 'failed' }],
    });
    expect((await callTool(client, 'goto_node', { node_id: 'FIX' })).answer['valid']).toBe(false);
    expect((await go('ESCALATE'))['edges']).toEqual([]);
  });
});

describe('golden paths through sub-flows and forks', () => {
  it.each(['retail_orders', 'incident_triage'])(
    '%s: sop paths lists them, the build wrote them, and the runtime walks every one',
    async (agent) => {
      const printed = runCli(['paths', agent], app);
      expect(printed.code, printed.stderr).toBe(0);
      const paths = JSON.parse(printed.stdout) as GoldenPaths;
      expect(readFileSync(join(app, 'generated', agent, 'paths.json'), 'utf8')).toBe(printed.stdout);
      expect(paths.unreached_terminals).toEqual([]);
      expect(paths.uncovered_edges).toEqual([]);
      if (agent === 'retail_orders') expect(paths.paths.every((path) => path.nodes.includes('AUTHENTICATE.IDENTIFY'))).toBe(true);
      if (agent === 'incident_triage') {
        expect(paths.paths.some((path) => path.failed !== undefined && path.terminal === 'ESCALATE')).toBe(true);
        expect(paths.paths.some((path) => path.failed === undefined && path.terminal === 'RESOLVED')).toBe(true);
      }
      const report = await walkGoldenPaths({
        bundle: join(app, 'generated/sop-bundle.json'),
        agent,
        paths: join(app, 'generated', agent, 'paths.json'),
        projectRoot: app,
      });
      expect(report.failures).toEqual([]);
      expect(report.paths).toBe(paths.paths.length);
    },
  );
});
