/**
 * The SQLite store on real files, once per driver (node:sqlite, better-sqlite3 12 and 13): the contract (two instances =
 * two connections on one file, as two processes on one host have), then what is SQLite's own: the settings it
 * opens with, the schema and its migrations, files it must refuse, and two real processes committing to one file
 * at once. A driver this Node cannot run says why (`sqlite-drivers.ts`); which one a store picks is tested last.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../../../runtime/store/run-store-schema.js';
import { MIGRATIONS_TABLE_DDL } from '../../../runtime/store/schema-migrations.js';
import { crashesOnThisNode } from '../../../runtime/store/sqlite-driver-better.js';
import { loadSqliteDriver, type SqliteDriver, type SqliteDriverName } from '../../../runtime/store/sqlite-driver.js';
import { openSqliteRunStore, type SqliteRunStore, type SqliteRunStoreOptions } from '../../../runtime/store/sqlite-run-store.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { type DriverCase, nodeHasSqlite, sqliteDriversHere } from '../../support/sqlite-drivers.js';
import { aRun, anAudit, T0 } from '../../support/stored-runs.js';
import { describeRunStoreContract } from './run-store-contract.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A path in a fresh temp folder, under a data folder that does not exist yet. */
function freshPath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'sop-sqlite-'));
  folders.push(folder);
  return join(folder, 'data', 'runs.db');
}

async function opened(options: SqliteRunStoreOptions): Promise<SqliteRunStore> {
  const result = await openSqliteRunStore(options);
  if (!result.ok) throw new Error(result.error);
  return result.store;
}

/**
 * How many transactions the write-ahead log holds: its commit frames, read off the file as SQLite writes it (a
 * frame's header says the database size after a commit in bytes 4-7, and 0 in the other frames).
 */
function walCommits(path: string): number {
  const wal = readFileSync(`${path}-wal`);
  const pageSize = wal.readUInt32BE(8);
  let commits = 0;
  for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) if (wal.readUInt32BE(offset + 4) !== 0) commits++;
  return commits;
}

/** Runs one statement on the file through `driver` itself, as another program would. */
function outside<T>(driver: SqliteDriver, path: string, use: (db: ReturnType<SqliteDriver['open']>) => T): T {
  const db = driver.open(path);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

for (const here of await sqliteDriversHere()) {
  if (!here.runs) {
    describe(`sqlite run store (${here.label})`, () => {
      it.skip(`cannot run on Node ${process.version}: ${here.reason}`, () => {});
    });
    continue;
  }
  const { driver, label } = here;
  const name = driver.name;
  const options = (path: string, more: Partial<SqliteRunStoreOptions> = {}): SqliteRunStoreOptions => ({ path, driver, ...more });

  describeRunStoreContract(`sqlite (${label})`, {
    async open(onError) {
      const path = freshPath();
      return {
        store: await opened(options(path, { onError })),
        peer: () => opened(options(path, { onError })),
        async breakAuditInserts() {
          outside(driver, path, (db) =>
            db.exec("CREATE TRIGGER sop_test_break BEFORE INSERT ON sop_run_audit BEGIN SELECT RAISE(ABORT, 'injected failure'); END"),
          );
        },
      };
    },
    shared: { changesHeardAcrossInstances: false },
    faults: true,
    nulInText: driver.keepsNulInText ? 'kept' : 'replaced',
  });

  describe(`sqlite run store (${label}): engine`, () => {
    it('group-commits the commits that arrive together: one transaction in the WAL, each its own compare-and-set', async () => {
      const path = freshPath();
      const store = await opened(options(path));
      const runs = [];
      for (let i = 0; i < 40; i++) {
        const run = aRun();
        await store.create(run, anAudit());
        runs.push(run);
      }
      const moved = (n: number) => ({ path: [`N${n}`], todos: [], visits: {} });
      const before = walCommits(path);
      // Forty calls reaching the store in one turn of the event loop, as a busy HTTP server's do.
      const together = await Promise.all(
        runs.map((run, n) => store.commit(run.runId, 1, moved(n), anAudit({ tool: 'goto_node' }), T0 + 1)),
      );
      expect(together.every((result) => result.ok)).toBe(true);
      expect(walCommits(path) - before).toBe(1);
      // One after another, each waits for its own transaction.
      const after = walCommits(path);
      for (const [n, run] of runs.slice(0, 5).entries())
        expect((await store.commit(run.runId, 2, moved(n), anAudit(), T0 + 2)).ok).toBe(true);
      expect(walCommits(path) - after).toBe(5);
      // Two commits of one run in the same batch: the second sees the first's version, a conflict with the run as it is.
      const [first, second] = await Promise.all([
        store.commit(runs[0]!.runId, 3, moved(100), anAudit(), T0 + 3),
        store.commit(runs[0]!.runId, 3, moved(200), anAudit(), T0 + 3),
      ]);
      expect(first).toMatchObject({ ok: true, run: { version: 4 } });
      expect(second).toMatchObject({ ok: false, reason: 'conflict', current: { version: 4, state: { path: ['N100'] } } });
      // A commit that throws in the batch fails alone: its savepoint is rolled back, the others are stored.
      const unserialisable = { path: ['X'], todos: [], visits: {}, bad: 1n } as unknown as ReturnType<typeof moved>;
      const mixed = await Promise.allSettled([
        store.commit(runs[1]!.runId, 3, moved(1), anAudit(), T0 + 4),
        store.commit(runs[2]!.runId, 3, unserialisable, anAudit(), T0 + 4),
        store.commit(runs[3]!.runId, 3, moved(3), anAudit(), T0 + 4),
      ]);
      expect(mixed.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await store.read(runs[2]!.runId, 0)).toMatchObject({ status: 'found', run: { version: 3, state: { path: ['N2'] } } });
      expect((await store.audit(runs[2]!.runId)).map((entry) => entry.seq)).toEqual([1, 2, 3]);
      expect(await store.read(runs[3]!.runId, 0)).toMatchObject({ status: 'found', run: { version: 4, state: { path: ['N3'] } } });
      await store.close();
    });

    it('opens in WAL mode with synchronous=NORMAL and a busy timeout, FULL when asked, as the engine reports', async () => {
      const path = freshPath();
      const store = await opened(options(path));
      expect(store.settings).toEqual({ driver: name, journalMode: 'wal', synchronous: 'NORMAL', busyTimeoutMs: 5000 });
      await store.create(aRun(), anAudit());
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(outside(driver, path, (db) => db.prepare('PRAGMA journal_mode').get())).toEqual({ journal_mode: 'wal' });
      await store.close();
      const full = await opened(options(path, { synchronous: 'FULL', busyTimeoutMs: 250 }));
      expect(full.settings).toEqual({ driver: name, journalMode: 'wal', synchronous: 'FULL', busyTimeoutMs: 250 });
      await full.close();
    });

    it('creates its folder and schema on first open, and applies each migration once however often opened', async () => {
      const path = freshPath();
      const stores = [await opened(options(path)), await opened(options(path))];
      await Promise.all(stores.map((store) => store.close()));
      outside(driver, path, (db) => {
        expect(db.prepare('SELECT version, name FROM sop_schema_migrations').all()).toEqual([
          { version: 1, name: 'runs, audit log, pinned agent versions, sessions' },
          { version: 2, name: 'domain calls in the audit log: outcomes pending and unknown, and the detail of what decided' },
        ]);
        const tables = db.prepare<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all();
        expect(tables.map((table) => table.name)).toEqual([
          'sop_agent_versions',
          'sop_run_audit',
          'sop_runs',
          'sop_schema_migrations',
          'sop_sessions',
        ]);
      });
    });

    it('upgrades a database of schema 1 in place: its runs and audit entries stay, and domain entries fit after', async () => {
      const path = freshPath();
      mkdirSync(dirname(path), { recursive: true });
      outside(driver, path, (db) => {
        db.exec(MIGRATIONS_TABLE_DDL);
        for (const statement of SQLITE_MIGRATIONS[0]!.statements) db.exec(statement);
        db.prepare('INSERT INTO sop_schema_migrations (version, name) VALUES (?, ?)').run(1, SQLITE_MIGRATIONS[0]!.name);
        db.exec(
          "INSERT INTO sop_runs (run_id, principal, agent, source_hash, version, created_at, updated_at, state, current_node) VALUES ('r1', 'local', 'a', 'sha256:x', 1, 1, 1, '{\"path\":[],\"todos\":[],\"visits\":{}}', NULL)",
        );
        db.exec(
          "INSERT INTO sop_run_audit (run_id, seq, tool, input, outcome, from_node, to_node, error, at, duration_ms) VALUES ('r1', 1, 'load_graph', '{\"agent\":\"a\"}', 'ok', NULL, NULL, NULL, 1, 0.5)",
        );
      });
      const store = await opened(options(path));
      expect(await store.audit('r1')).toEqual([
        { seq: 1, tool: 'load_graph', input: { agent: 'a' }, outcome: 'ok', from: null, to: null, at: 1, durationMs: 0.5 },
      ]);
      const detail = { kind: 'domain', server: 's', rule: 'node-tools', sop: 'sha256:x', phase: 'forwarding' } as const;
      const committed = await store.commit('r1', 1, { path: [], todos: [], visits: {} }, anAudit({ outcome: 'pending', detail }), 2);
      expect(committed.ok).toBe(true);
      expect((await store.audit('r1'))[1]).toMatchObject({ seq: 2, outcome: 'pending', detail });
      await store.close();
    });

    it('refuses a database migrated by a newer sop-toolkit, naming what to do, and leaves it as it was', async () => {
      const path = freshPath();
      await (await opened(options(path))).close();
      outside(driver, path, (db) => db.exec("INSERT INTO sop_schema_migrations (version, name) VALUES (3, 'from the future')"));
      const result = await openSqliteRunStore(options(path));
      expect(result).toEqual({
        ok: false,
        error: expect.stringMatching(/schema is at version 3, newer than this sop-toolkit knows \(2\): upgrade/),
      });
      expect(!result.ok && result.error).toContain(path);
    });

    it('refuses a file that is not a SQLite database without touching it', async () => {
      const path = freshPath();
      mkdirSync(dirname(path));
      writeFileSync(path, 'a text file, long enough to have what would be a header. '.repeat(20));
      const result = await openSqliteRunStore(options(path));
      expect(result).toEqual({
        ok: false,
        error: expect.stringMatching(/^cannot open the SQLite run store .*runs\.db: file is not a database$/),
      });
    });

    it('refuses a path whose folder cannot be made, saying which', async () => {
      const path = freshPath();
      const blocker = join(dirname(path), 'blocker');
      mkdirSync(dirname(path));
      writeFileSync(blocker, 'a file where a folder should be');
      const result = await openSqliteRunStore(options(join(blocker, 'runs.db')));
      expect(result).toEqual({
        ok: false,
        error: expect.stringMatching(/^cannot create the folder of the SQLite run store .*blocker\/runs\.db: /),
      });
    });

    it('lets two processes commit to one file at once: every call lands once, none is lost or refused as busy', async () => {
      const path = freshPath();
      const store = await opened(options(path));
      await store.create(aRun({ runId: 'shared' }), anAudit());
      const calls = 400;
      const children = ['left', 'right'].map((side) => committer(path, here, side, calls));
      await Promise.all(children.map((child) => child.ready));
      for (const child of children) child.go();
      const results = await Promise.all(children.map((child) => child.done));
      expect(results.map((result) => result.stderr)).toEqual(['', '']);
      const counts = results.map((result) => JSON.parse(result.stdout) as { commits: number; conflicts: number; reads: number });
      expect(counts.map((count) => count.commits)).toEqual([calls, calls]);
      // They did overlap: some calls lost a race and were re-decided (else this test would prove nothing), each
      // on the run the failed commit returned: one read per process, the first.
      expect(counts[0]!.conflicts + counts[1]!.conflicts).toBeGreaterThan(0);
      expect(counts.map((count) => count.reads)).toEqual([1, 1]);
      const read = await store.read('shared', 0);
      expect(read.status === 'found' && read.run.version).toBe(2 * calls + 1);
      const audit = await store.audit('shared', { limit: 10_000 });
      expect(audit.map((entry) => entry.seq)).toEqual(Array.from({ length: 2 * calls + 1 }, (_, i) => i + 1));
      expect(audit.filter((entry) => entry.tool === 'left')).toHaveLength(calls);
      await store.close();
    });
  });
}

describe('sqlite run store: which driver', () => {
  it('uses node:sqlite where this Node has it, better-sqlite3 where not, and the one asked for', async () => {
    const auto = await opened({ path: freshPath() });
    expect(auto.settings.driver).toBe<SqliteDriverName>(nodeHasSqlite() ? 'node:sqlite' : 'better-sqlite3');
    await auto.close();
    // The repository's better-sqlite3 is 12.x: it runs on Node 20 and 22 (when built for it), and is refused on 24.19+.
    const asked = await openSqliteRunStore({ path: freshPath(), driver: 'better-sqlite3' });
    expect(asked.ok ? asked.store.settings.driver : asked.error).toMatch(
      /^better-sqlite3$|npm rebuild better-sqlite3|^better-sqlite3 12\.\d+\.\d+ aborts the process on Node/,
    );
    if (asked.ok) await asked.store.close();
  });

  it('names the way out when node:sqlite is asked for on a Node without it', async () => {
    const loaded = await loadSqliteDriver('node:sqlite');
    if (nodeHasSqlite()) expect(loaded.ok).toBe(true);
    else
      expect(loaded).toEqual({
        ok: false,
        error: `node:sqlite is not available on Node ${process.version} (it is built into Node 22.13 and later): upgrade Node, or use sqlite:PATH?driver=better-sqlite3 (after \`npm install better-sqlite3@12\`), or choose another store (--store memory, or --store postgres://…)`,
      });
  });

  it.each([
    ['12.11.1', '20.20.2', undefined],
    ['12.11.1', '22.23.3', undefined],
    ['12.11.1', '24.18.1', undefined],
    ['12.11.1', '24.19.0', /^aborts the process on Node 24\.19\.0 .*install better-sqlite3@13/],
    ['12.4.0', '26.0.0', /^aborts the process on Node 26\.0\.0/],
    ['13.2.0', '20.20.2', /^needs Node 22 or later \(on Node 20\.20\.2 it crashes the process when loaded\): install better-sqlite3@12/],
    ['13.2.0', '22.5.0', undefined],
    ['13.2.0', '24.21.0', undefined],
  ])('better-sqlite3 %s on Node %s: %s', (version, node, refusal) => {
    const answer = crashesOnThisNode(version, node);
    if (refusal === undefined) expect(answer).toBeUndefined();
    else expect(answer).toMatch(refusal);
  });
});

interface Committer {
  /** Resolves once the process has opened the store. */
  readonly ready: Promise<void>;
  go(): void;
  readonly done: Promise<{ readonly stdout: string; readonly stderr: string }>;
}

/**
 * A separate Node process that opens the store, waits for "go" on stdin (so that two of them start together),
 * then makes `calls` successful commits on run `shared`. It reads the run once; after a conflict it decides again
 * on the run the commit returned, as the session service does with what it holds. Prints its counts as JSON.
 */
function committer(path: string, driver: DriverCase, name: string, calls: number): Committer {
  const dist = (file: string) => JSON.stringify(join(PROJECT_ROOT, 'dist/runtime/store', file));
  const load =
    driver.packageName === undefined
      ? `(await import(${dist('sqlite-driver-node.js')})).loadNodeSqlite()`
      : `(await (await import(${dist('sqlite-driver-better.js')})).loadBetterSqlite3('', ${JSON.stringify(driver.packageName)})).driver`;
  const script = `
    const { openSqliteRunStore } = await import(${dist('sqlite-run-store.js')});
    const opened = await openSqliteRunStore({ path: ${JSON.stringify(path)}, driver: ${load} });
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    process.stdout.write('ready\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    let commits = 0, conflicts = 0, reads = 1;
    let run = (await store.read('shared', 0)).run;
    while (commits < ${calls}) {
      const next = { path: [...run.state.path.slice(-3), ${JSON.stringify(name)}], todos: [], visits: {} };
      const audit = { tool: ${JSON.stringify(name)}, input: { n: commits }, outcome: 'ok', from: null, to: null, at: ${T0}, durationMs: 0 };
      const result = await store.commit('shared', run.version, next, audit, ${T0} + commits);
      if (result.ok) { commits += 1; run = result.run; }
      else if (result.reason === 'conflict') { conflicts += 1; run = result.current; }
      else throw new Error('the shared run went missing');
    }
    await store.close();
    process.stdout.write(JSON.stringify({ commits, conflicts, reads }));
    process.stdin.destroy();
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    if (stdout.startsWith('ready\n')) {
      stdout = stdout.slice('ready\n'.length);
      markReady();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const done = new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => {
      markReady();
      resolve({ stdout, stderr });
    });
  });
  return { ready, go: () => child.stdin.write('go\n'), done };
}
