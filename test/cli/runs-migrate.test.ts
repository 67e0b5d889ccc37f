/**
 * `sop runs migrate` on the real stores, SQLite (a file shared with the CLI process) and PostgreSQL (a cluster
 * started by the test), with runs mid-conversation: the golden case `compose`, built by the real `sop build`, serves
 * conversations on the real session service; then the retail SOP changes (a node renamed, declared; a confirmation
 * step put before the cancellation) and is rebuilt, and the real CLI moves the runs:
 *   - a run before the change moves (with its audit entry), a run on the renamed node moves renamed, a run at the
 *     cancellation, which never passed the new confirmation step, stays and the command says why; `--dry-run`
 *     commits nothing; another agent's runs are not touched;
 *   - the moved runs go on on the new version, the one that stayed on its own, on a server of the new build;
 *   - a migration (the CLI, its own process) racing conversations' calls on the same runs: every call and the
 *     migration are each committed once, in one order per run (audit sequence unbroken, one migrate entry), and
 *     every run ends on the new version;
 *   - `sop serve --migrate-runs` does the same on start, logs it, and serves the runs on their versions.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../contract/compiled-sop.js';
import { createAgentSource } from '../../runtime/agents/agent-source.js';
import { silentLogger } from '../../runtime/support/logger.js';
import { createSessionService, resultOf, type SessionService } from '../../runtime/service/session-service.js';
import { openRunStore } from '../../runtime/store/open-run-store.js';
import { pinnedVersion, type RunStore } from '../../runtime/store/run-store.js';
import { CLI, PROJECT_ROOT, runCli } from '../support/run-cli.js';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster.js';

let app: string;
let cluster: PostgresCluster;

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'sop-migrate-'));
  cluster = await startPostgresCluster();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(app, { recursive: true, force: true });
});

/** A fresh app with the golden SOPs (version 1), built. */
function buildVersion1(dir: string): SopBundle {
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(PROJECT_ROOT, 'test/fixtures/golden/compose/sops'), join(dir, 'sops'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'migrate-app', private: true }));
  return build(dir);
}

/** Version 2 of the retail SOP: IS_PENDING renamed (declared), a confirmation step before the cancellation. */
function buildVersion2(dir: string): SopBundle {
  const file = join(dir, 'sops/retail_orders.md');
  const text = readFileSync(file, 'utf8')
    .replaceAll('IS_PENDING', 'ORDER_PENDING')
    .replace('version: "2.0"', 'version: "2.1"\nrenames: { IS_PENDING: ORDER_PENDING }')
    .replace(
      'ORDER_PENDING -->|yes| DO_CANCEL["Confirm, then cancel"]',
      'ORDER_PENDING -->|yes| CONFIRM["Ask for an explicit yes"]\n    CONFIRM --> DO_CANCEL["Cancel"]',
    )
    .replace('passes: DO_CANCEL\n    confirmation: true', 'passes: CONFIRM\n    confirmation: true')
    .replace('every_path_to: { tools: [cancel_pending_order] }', 'every_path_to: { nodes: [DO_CANCEL], tools: [cancel_pending_order] }');
  writeFileSync(file, text);
  return build(dir);
}

function build(dir: string): SopBundle {
  const built = runCli(['build'], dir);
  expect(built.code, built.stdout + built.stderr).toBe(0);
  return JSON.parse(readFileSync(join(dir, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;
}

function serviceOn(bundle: SopBundle, store: RunStore, root: string): SessionService {
  return createSessionService({
    agents: createAgentSource({ origin: { bundle }, store, logger: silentLogger }),
    store,
    projectRoot: root,
    logger: silentLogger,
  });
}

const caller = { principal: 'local' };

async function start(service: SessionService, agent: string, moves: readonly string[]): Promise<string> {
  const loaded = resultOf(await service.callTool('load_graph', { agent }, caller)).structuredContent as { run_id: string };
  for (const node_id of moves) await expectMove(service, loaded.run_id, node_id, true);
  return loaded.run_id;
}

async function expectMove(service: SessionService, run_id: string, node_id: string, valid: boolean): Promise<void> {
  const answer = resultOf(await service.callTool('goto_node', { node_id, run_id }, caller)).structuredContent as { valid?: boolean };
  expect(answer.valid, `${node_id} on ${run_id}: ${JSON.stringify(answer)}`).toBe(valid);
}

const AUTHENTICATED = ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK', 'AUTHENTICATED', 'ROUTE'];

/** The CLI in its own process, not waited on synchronously (so calls can race it). */
function migrateInBackground(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'runs', 'migrate', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('sop serve --migrate-runs', () => {
  it('moves the runs to the version it serves on start, logs what became of each, and serves them on it', async () => {
    const dir = join(app, 'serve-migrates');
    const v1 = buildVersion1(dir);
    const url = `sqlite:${join(dir, 'runs.db')}`;
    const opened = await openRunStore(url, { root: dir });
    if (!opened.ok) throw new Error(opened.error);
    const before = serviceOn(v1, opened.store, dir);
    const atPending = await start(before, 'retail_orders', [...AUTHENTICATED, 'CHK_CANCEL', 'IS_PENDING']);
    const atCancel = await start(before, 'retail_orders', [...AUTHENTICATED, 'CHK_CANCEL', 'IS_PENDING', 'DO_CANCEL']);
    await before.close();
    await opened.store.close();
    buildVersion2(dir);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--store', url, '--migrate-runs'],
      cwd: dir,
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    const client = new Client({ name: 'migrate-on-deploy', version: '0.0.0' });
    await client.connect(transport);
    try {
      const moved = await client.callTool({ name: 'goto_node', arguments: { node_id: 'CONFIRM', run_id: atPending } });
      expect(moved.structuredContent).toMatchObject({ valid: true, node: { id: 'CONFIRM' } });
      const stayed = await client.callTool({ name: 'goto_node', arguments: { node_id: 'END_CANCELLED', run_id: atCancel } });
      expect(stayed.structuredContent).toMatchObject({ valid: true, node: { id: 'END_CANCELLED' } });
      expect(log).toMatch(/migrated retail_orders runs to sha256:[0-9a-f]{64}: 1 moved, 1 stay on their version/);
      expect(log).toContain(`run ${atCancel} of retail_orders stays at DO_CANCEL: the new version requires a confirmation step`);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe.each([
  ['SQLite', async (dir: string) => `sqlite:${join(dir, 'runs.db')}`],
  ['PostgreSQL', async () => (await cluster.createSchema()).url],
])('sop runs migrate on %s', (_kind, storeUrl) => {
  it('moves the runs the new version allows, keeps the others and says why, run by run', async () => {
    const dir = join(app, `${_kind}-moves`);
    const v1 = buildVersion1(dir);
    const url = await storeUrl(dir);
    const opened = await openRunStore(url, { root: dir });
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    try {
      const before = serviceOn(v1, store, dir);
      const atRoute = await start(before, 'retail_orders', AUTHENTICATED);
      const atPending = await start(before, 'retail_orders', [...AUTHENTICATED, 'CHK_CANCEL', 'IS_PENDING']);
      const atCancel = await start(before, 'retail_orders', [...AUTHENTICATED, 'CHK_CANCEL', 'IS_PENDING', 'DO_CANCEL']);
      const incident = await start(before, 'incident_triage', ['START', 'TRIAGE']);
      await before.close();
      const v2 = buildVersion2(dir);

      const dry = runCli(['runs', 'migrate', '--agent', 'retail_orders', '--store', url, '--dry-run', '--format', 'json'], dir);
      expect(dry.code, dry.stderr).toBe(0);
      const planned = JSON.parse(dry.stdout) as { runs: { runId: string; status: string }[] };
      expect(Object.fromEntries(planned.runs.map((run) => [run.runId, run.status]))).toEqual({
        [atRoute]: 'would-move',
        [atPending]: 'would-move',
        [atCancel]: 'stays',
      });
      const unchanged = await store.read(atRoute, 0);
      expect(unchanged.status === 'found' && unchanged.run.version).toBe(AUTHENTICATED.length + 1);

      const moved = runCli(['runs', 'migrate', '--agent', 'retail_orders', '--store', url], dir);
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stdout).toContain(`${atRoute}  moved at ROUTE → ROUTE`);
      expect(moved.stdout).toContain(`${atPending}  moved at IS_PENDING → ORDER_PENDING (renamed IS_PENDING → ORDER_PENDING)`);
      expect(moved.stdout).toContain(
        `${atCancel}  stays at DO_CANCEL: the new version requires a confirmation step (CONFIRM, policy confirm_before_changes) before DO_CANCEL, which its path never passed: it keeps its version`,
      );
      expect(moved.stdout).toContain('3 runs: 2 moved, 1 stays, 0 already on it');
      const audit = await store.audit(atPending);
      expect(audit.at(-1)).toMatchObject({
        tool: 'migrate',
        outcome: 'ok',
        from: 'IS_PENDING',
        to: 'ORDER_PENDING',
        input: { renamed: { IS_PENDING: 'ORDER_PENDING' } },
      });
      const read = await store.read(incident, 0);
      expect(read.status === 'found' && read.run.state.pinned).toBe(undefined);
      const again = runCli(['runs', 'migrate', '--agent', 'retail_orders', '--store', url], dir);
      expect(again.stdout).toContain('3 runs: 0 moved, 1 stays, 2 already on it');

      // A server of the new build: moved runs go on on it, the run that stayed on its own version.
      const after = serviceOn(v2, store, dir);
      await expectMove(after, atPending, 'CONFIRM', true);
      await expectMove(after, atPending, 'DO_CANCEL', true);
      await expectMove(after, atRoute, 'CHK_CANCEL', true);
      await expectMove(after, atRoute, 'ORDER_PENDING', true);
      await expectMove(after, atCancel, 'END_CANCELLED', true);
      const stayed = await store.read(atCancel, 0);
      expect(stayed.status === 'found' && pinnedVersion(stayed.run)).toBe(stayed.status === 'found' && stayed.run.sourceHash);
      const shown = runCli(['runs', 'show', atPending, '--store', url], dir);
      expect(shown.stdout).toMatch(/agent +retail_orders \(sha256:[0-9a-f]{64}, moved from sha256:[0-9a-f]{64}\)/);
      expect(shown.stdout).toContain('migrate');
      await after.close();
    } finally {
      await store.close();
    }
  }, 120_000);

  it('a migration racing conversations on the same runs: each call and each move committed once, every run moved', async () => {
    const dir = join(app, `${_kind}-race`);
    const v1 = buildVersion1(dir);
    const url = await storeUrl(dir);
    const opened = await openRunStore(url, { root: dir });
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    try {
      const service = serviceOn(v1, store, dir);
      const runs = await Promise.all(Array.from({ length: 6 }, () => start(service, 'retail_orders', AUTHENTICATED)));
      const v2 = buildVersion2(dir);
      const migrating = migrateInBackground(['--agent', 'retail_orders', '--store', url, '--format', 'json'], dir);
      let finished = false;
      void migrating.then(() => (finished = true));
      // Conversations go on meanwhile, on the server of the old build: ROUTE (a hub) and CHK_CANCEL are in both versions.
      let calls = 0;
      while ((!finished || calls < 60) && calls < 5000) {
        // Let the event loop hear from the migration's process (the SQLite store answers without waiting for I/O).
        await new Promise((resolve) => setImmediate(resolve));
        await Promise.all(
          runs.map(async (run_id) => {
            const answer = resultOf(
              await service.callTool('goto_node', { node_id: calls % 2 === 0 ? 'CHK_CANCEL' : 'ROUTE', run_id }, caller),
            );
            expect(answer.isError, JSON.stringify(answer.structuredContent)).not.toBe(true);
          }),
        );
        calls += 1;
      }
      const result = await migrating;
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as { to: string; runs: { runId: string; status: string; reason?: string }[] };
      for (const run of report.runs) expect([run.status, run.reason]).toEqual(['moved', undefined]);
      let interleaved = 0;
      for (const runId of runs) {
        const read = await store.read(runId, 0);
        if (read.status !== 'found') throw new Error(`${runId} is gone`);
        expect(pinnedVersion(read.run)).toBe(report.to);
        const audit = await store.audit(runId, { limit: 10_000 });
        expect(audit.map((entry) => entry.seq)).toEqual(Array.from({ length: read.run.version }, (_, i) => i + 1));
        expect(audit.filter((entry) => entry.tool === 'migrate')).toHaveLength(1);
        expect(audit.filter((entry) => entry.tool === 'goto_node')).toHaveLength(AUTHENTICATED.length + calls);
        const moved = audit.find((entry) => entry.tool === 'migrate')!.seq;
        // Calls of the conversation were committed both before and after the move.
        if (moved > AUTHENTICATED.length + 2 && moved < read.run.version) interleaved += 1;
      }
      expect(interleaved).toBeGreaterThan(0);
      await service.close();
      // The old build's server knew only the old version; a server of the new one serves the moved runs.
      const after = serviceOn(v2, store, dir);
      for (const runId of runs) await expectMove(after, runId, 'ROUTE', true);
      await after.close();
    } finally {
      await store.close();
    }
  }, 180_000);
});
