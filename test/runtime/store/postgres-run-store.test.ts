/**
 * The PostgreSQL store on a real cluster this file starts (one per file: `initdb` into a temp folder, its own
 * port; each test gets its own database). The contract runs with two pools per database, as two instances of
 * `sop serve` have; then what is PostgreSQL's own: migrations when instances start together, a commit being one
 * statement whatever its outcome, notifications sent only while another instance listens (and its lease lasts),
 * changes heard across instances and after the listening connection is lost, two instances sweeping at once,
 * and the errors a user sees.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRunStore } from '../../../runtime/store/open-run-store.js';
import { openPostgresRunStore, type PostgresRunStore } from '../../../runtime/store/postgres-run-store.js';
import type { RunChange, RunStore } from '../../../runtime/store/run-store.js';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { aRun, anAudit, T0, walked } from '../../support/stored-runs.js';
import { describeRunStoreContract } from './run-store-contract.js';
import { createAgentSource } from '../../../runtime/agents/agent-source.js';
import { createSessionService, resultOf, type SessionService } from '../../../runtime/service/session-service.js';
import { silentLogger } from '../../../runtime/support/logger.js';
import { FIXTURE_BUNDLE, SUPPORT_DESK } from '../../fixtures/runtime/agents.js';
import { FIXTURE_ROOT } from '../helpers/mcp-client.js';

let cluster: PostgresCluster;
beforeAll(async () => {
  // pg_stat_statements shows how many statements a commit takes.
  cluster = await startPostgresCluster({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
});
afterAll(async () => {
  await cluster?.stop();
});

async function opened(
  url: string,
  onError?: (message: string, error?: unknown) => void,
  more: { listenerLeaseMs?: number } = {},
): Promise<PostgresRunStore> {
  const result = await openPostgresRunStore({ url, ...(onError === undefined ? {} : { onError }), ...more });
  if (!result.ok) throw new Error(result.error);
  return result.store;
}

describeRunStoreContract('postgres', {
  async open(onError) {
    // A schema per test: as isolated as a database per test, at a fraction of the cost.
    const { url, schema } = await cluster.createSchema();
    return {
      store: await opened(url, onError),
      peer: () => opened(url, onError),
      async breakAuditInserts() {
        const failing = `${schema}.sop_test_break`;
        await cluster.query(
          `CREATE FUNCTION ${failing}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
        );
        await cluster.query(
          `CREATE TRIGGER sop_test_break BEFORE INSERT ON ${schema}.sop_run_audit FOR EACH ROW EXECUTE FUNCTION ${failing}()`,
        );
      },
    };
  },
  shared: { changesHeardAcrossInstances: true },
  faults: true,
  nulInText: 'replaced',
  settled: (store) => (store as PostgresRunStore).settled(),
});

const MIGRATIONS = [
  { version: 1, name: 'runs, audit log, pinned agent versions, sessions' },
  { version: 2, name: 'domain calls in the audit log: outcomes pending and unknown, and the detail of what decided' },
  { version: 3, name: 'listeners of run changes: commits notify only while another instance listens' },
];

describe('postgres run store: engine', () => {
  const stores: RunStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  const keep = <S extends RunStore>(store: S): S => {
    stores.push(store);
    return store;
  };

  it('migrates once when several instances start on an empty database at the same moment', async () => {
    const url = await cluster.createDatabase();
    const results = await Promise.all(Array.from({ length: 4 }, () => openPostgresRunStore({ url })));
    for (const result of results) {
      expect(result.ok, result.ok ? '' : result.error).toBe(true);
      if (result.ok) keep(result.store);
    }
    expect(await cluster.query('SELECT version, name FROM sop_schema_migrations ORDER BY version', [], databaseOf(url))).toEqual(
      MIGRATIONS,
    );
  });

  it('refuses a database migrated by a newer sop-toolkit, naming what to do', async () => {
    const url = await cluster.createDatabase();
    await keep(await opened(url)).close();
    await cluster.query("INSERT INTO sop_schema_migrations (version, name) VALUES (7, 'from the future')", [], databaseOf(url));
    const result = await openPostgresRunStore({ url });
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/schema is at version 7, newer than this sop-toolkit knows \(3\): upgrade sop-toolkit/),
    });
  });

  it('commits in one statement, whatever the outcome: a stale commit gets the current run back in it, no BEGIN/COMMIT', async () => {
    const url = await cluster.createDatabase();
    const database = databaseOf(url);
    await cluster.query('CREATE EXTENSION pg_stat_statements', [], database);
    const store = keep(await opened(url));
    const run = aRun();
    await store.create(run, anAudit());
    await cluster.query('SELECT pg_stat_statements_reset()', [], database);
    for (let version = 1; version <= 10; version += 1) {
      expect((await store.commit(run.runId, version, walked('START'), anAudit(), T0 + version)).ok).toBe(true);
    }
    for (let stale = 1; stale <= 5; stale += 1) {
      const lost = await store.commit(run.runId, stale, walked('AUTH'), anAudit(), T0 + 20);
      expect(lost).toEqual({ ok: false, reason: 'conflict', current: { ...run, state: walked('START'), version: 11, updatedAt: T0 + 10 } });
    }
    expect(await store.commit('no-such-run', 1, walked('START'), anAudit(), T0)).toEqual({ ok: false, reason: 'missing' });
    const statements = await cluster.query<{ query: string; calls: string }>(
      `SELECT query, calls::text FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1 AND s.query NOT LIKE '%pg_stat_statements%'`,
      [database],
      database,
    );
    expect(statements).toHaveLength(1);
    expect(statements[0]?.calls).toBe('16');
    expect(statements[0]?.query).toMatch(
      /^WITH moved AS \(\s*UPDATE sop_runs .* INSERT INTO sop_run_audit .* pg_notify.* FROM sop_runs WHERE run_id/s,
    );
  });

  it('answers a stale commit from its snapshot without locking the run: the failed compare-and-set writes nothing', async () => {
    const url = await cluster.createDatabase();
    const store = keep(await opened(url));
    const run = aRun();
    await store.create(run, anAudit());
    await store.commit(run.runId, 1, walked('START'), anAudit(), T0 + 1);
    const row = () =>
      cluster.query<{ xmax: string; wal: string }>(
        'SELECT xmax::text AS xmax, pg_current_wal_insert_lsn()::text AS wal FROM sop_runs WHERE run_id = $1',
        [run.runId],
        databaseOf(url),
      );
    const [before] = await row();
    const lost = await store.commit(run.runId, 1, walked('AUTH'), anAudit(), T0 + 2);
    expect(lost).toEqual({ ok: false, reason: 'conflict', current: { ...run, state: walked('START'), version: 2, updatedAt: T0 + 1 } });
    // A row lock (FOR SHARE) would have put the stale committer's transaction id in xmax, and written WAL.
    expect(await row()).toEqual([before]);
  });

  it('gives a commit that lost a race in flight the run as the winner left it', async () => {
    const url = await cluster.createDatabase();
    const store = keep(await opened(url));
    const run = aRun({ state: walked('START') });
    await store.create(run, anAudit());
    // The winner: a transaction that moved the run and has not committed yet.
    const winner = new pg.Client({ connectionString: url });
    await winner.connect();
    try {
      await winner.query('BEGIN');
      await winner.query('UPDATE sop_runs SET state = $1, version = 2, updated_at = $2 WHERE run_id = $3', [
        JSON.stringify(walked('START', 'AUTH')),
        T0 + 1,
        run.runId,
      ]);
      await winner.query(
        "INSERT INTO sop_run_audit (run_id, seq, tool, input, outcome, at, duration_ms) VALUES ($1, 2, 'winner', NULL, 'ok', $2, 0)",
        [run.runId, T0 + 1],
      );
      // The loser read version 1 too; its compare-and-set waits on the winner's row lock.
      const losing = store.commit(run.runId, 1, walked('START', 'INFO'), anAudit({ tool: 'loser' }), T0 + 2);
      await until(
        async () =>
          (
            await cluster.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
              [databaseOf(url)],
            )
          )[0]?.n === 1,
      );
      await winner.query('COMMIT');
      expect(await losing).toEqual({
        ok: false,
        reason: 'conflict',
        current: { ...run, state: walked('START', 'AUTH'), version: 2, updatedAt: T0 + 1 },
      });
    } finally {
      await winner.end();
    }
    expect((await store.audit(run.runId)).map((entry) => entry.tool)).toEqual(['load_graph', 'winner']);
  });

  it('notifies only while another instance listens: not for itself, not after it stops, not after its lease ran out', async () => {
    const url = await cluster.createDatabase();
    // The watcher hears the eavesdropper's markers too, and reports each as not a run change.
    const reported: string[] = [];
    const watcher = keep(await opened(url, (message) => reported.push(message), { listenerLeaseMs: 600 }));
    const writer = keep(await opened(url));
    const wire = await eavesdrop(url);
    try {
      const run = aRun();
      let version = 1;
      const move = async (store: PostgresRunStore) => {
        const result = await store.commit(run.runId, version, walked('START'), anAudit(), T0 + version);
        if (!result.ok) throw new Error(result.reason);
        version = result.run.version;
      };
      // Nobody listens: the create and the commits send nothing.
      await writer.create(run, anAudit());
      await move(writer);
      expect(await wire.sentSinceLastLook()).toEqual([]);

      // The watcher's page opens: the writer's commits notify (once each); the watcher's own do not (it hears
      // them in process), and neither do the writer's own listeners cause any while the watcher is the only other.
      const heard: RunChange[] = [];
      const stop = watcher.subscribe((change) => heard.push(change));
      await watcher.settled();
      await move(writer);
      await until(() => heard.length === 1);
      await move(watcher);
      await move(writer);
      expect((await wire.sentSinceLastLook()).map((sent) => sent.version)).toEqual([3, 5]);
      await until(() => heard.length === 3);
      expect(heard.map((change) => change.version)).toEqual([3, 4, 5]);

      // Its lease (600 ms) is renewed while it listens.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await move(writer);
      expect((await wire.sentSinceLastLook()).map((sent) => sent.version)).toEqual([6]);

      // The page closes: nothing is sent any more.
      stop();
      await watcher.settled();
      expect(await cluster.query('SELECT count(*)::int AS n FROM sop_run_listeners', [], databaseOf(url))).toEqual([{ n: 0 }]);
      await move(writer);
      expect(await wire.sentSinceLastLook()).toEqual([]);

      // An instance that died holding a lease costs notifications until the lease runs out, not after.
      await cluster.query("INSERT INTO sop_run_listeners VALUES ('died', now() + interval '300 milliseconds')", [], databaseOf(url));
      await move(writer);
      expect((await wire.sentSinceLastLook()).map((sent) => sent.version)).toEqual([8]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await move(writer);
      expect(await wire.sentSinceLastLook()).toEqual([]);
      expect(reported.every((message) => /that is not a run change: marker-\d$/.test(message))).toBe(true);
    } finally {
      await wire.close();
    }
  });

  it('hears other instances again after its listening connection is killed', async () => {
    const url = await cluster.createDatabase();
    const reported: string[] = [];
    const listener = keep(await opened(url, (message) => reported.push(message)));
    const writer = keep(await opened(url));
    const heard: RunChange[] = [];
    listener.subscribe((change) => heard.push(change));
    await listener.settled();
    const run = aRun();
    await writer.create(run, anAudit());
    await until(() => heard.length === 1);
    const killed = await cluster.query<{ killed: boolean }>(
      "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = 'sop-toolkit listen' AND datname = $1",
      [databaseOf(url)],
    );
    expect(killed).toEqual([{ killed: true }]); // only an instance with listeners has a listening connection
    // Until it is back, commits may go unheard; it comes back on its own, and then every commit is heard.
    let version = 1;
    await until(async () => {
      const result = await writer.commit(run.runId, version, walked('START'), anAudit(), T0 + version);
      if (result.ok) version = result.run.version;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return heard.some((change) => change.version > 1);
    });
    expect(reported.some((message) => /lost its PostgreSQL LISTEN connection; reconnecting/.test(message))).toBe(true);
    const before = heard.length;
    await writer.commit(run.runId, version, walked('START'), anAudit(), T0 + 100);
    await until(() => heard.length === before + 1);
    expect({ runId: heard.at(-1)?.runId, version: heard.at(-1)?.version }).toEqual({ runId: run.runId, version: version + 1 });
  });

  it('lets two instances sweep at once: every idle run goes exactly once, the active ones stay', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = [keep(await opened(url)), keep(await opened(url))];
    for (let i = 0; i < 700; i += 1) await a.create(aRun({ updatedAt: T0 + i }), anAudit());
    const active = aRun({ updatedAt: T0 + 10_000 });
    await a.create(active, anAudit());
    const [left, right] = await Promise.all([a.expire(T0 + 5000), b.expire(T0 + 5000)]);
    expect((left ?? 0) + (right ?? 0)).toBe(700);
    expect((await b.list({})).map((row) => row.runId)).toEqual([active.runId]);
    expect(await cluster.query('SELECT count(*)::int AS n FROM sop_run_audit', [], databaseOf(url))).toEqual([{ n: 1 }]);
  });

  it('names the server it cannot reach, without the password', async () => {
    const result = await openPostgresRunStore({ url: 'postgres://sop:hunter2@127.0.0.1:1/runs' });
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^cannot open the PostgreSQL run store at postgres:\/\/sop:\*\*\*@127\.0\.0\.1:1\/runs: .*ECONNREFUSED/),
    });
    expect(!result.ok && result.error).not.toContain('hunter2');
  });

  it('tells the run as committed to the other instances, state included, and a run too large for a notification as a bare change', async () => {
    const url = await cluster.createDatabase();
    const watcher = keep(await opened(url));
    const writer = keep(await opened(url));
    const heard: RunChange[] = [];
    watcher.subscribe((change) => heard.push(change));
    await watcher.settled();
    const run = aRun();
    await writer.create(run, anAudit());
    const moved = await writer.commit(run.runId, 1, walked('START', 'AUTH'), anAudit(), T0 + 5);
    if (!moved.ok) throw new Error(moved.reason);
    await until(() => heard.length === 2);
    // The create is a bare change (no instance holds a copy of a run it never served); the commit carries the run.
    expect(heard[0]).toEqual({ runId: run.runId, version: 1 });
    expect(heard[1]).toEqual({ runId: run.runId, version: 2, run: moved.run });

    const huge = walked(...Array.from({ length: 400 }, (_, i) => `NODE_${i}_WITH_A_LONG_NAME`));
    const big = await writer.commit(run.runId, 2, huge, anAudit(), T0 + 6);
    expect(big.ok).toBe(true);
    await until(() => heard.length === 3);
    expect(heard[2]).toEqual({ runId: run.runId, version: 3 });
  });

  it('keeps the copies of two instances behind a load balancer fresh: a call on a run the other instance moved is one commit, no read', async () => {
    const url = await cluster.createDatabase();
    const [storeA, storeB] = [keep(await opened(url)), keep(await opened(url))];
    const counted = countingCommits(storeB);
    const [a, b] = [storeA, counted.store].map((store) =>
      createSessionService({
        agents: createAgentSource({ origin: { bundle: FIXTURE_BUNDLE }, store, logger: silentLogger }),
        store,
        projectRoot: FIXTURE_ROOT,
        logger: silentLogger,
        followOtherInstances: true,
      }),
    ) as [SessionService, SessionService];
    try {
      await Promise.all([storeA.settled(), storeB.settled()]);
      const caller = { principal: 'local' };
      const started = resultOf(await a.callTool('load_graph', { agent: SUPPORT_DESK.meta.agent }, caller));
      const runId = (started.structuredContent as { run_id: string }).run_id;
      const move = async (service: SessionService, node: string) => {
        const answer = resultOf(await service.callTool('goto_node', { node_id: node, run_id: runId }, caller));
        expect(answer.isError ?? false, JSON.stringify(answer.structuredContent)).toBe(false);
      };
      // Round robin: B serves the second call (its first sight of the run: one read), A the third, B the fourth.
      await move(a, 'START');
      await move(b, 'AUTH');
      const heard: RunChange[] = [];
      const stop = storeB.subscribe((change) => heard.push(change));
      await move(a, 'ROUTE');
      await until(() => heard.some((change) => change.version === 4));
      stop();
      counted.reset();
      await move(b, 'CHK_REFUND');
      expect(counted.calls()).toEqual({ reads: 0, commits: ['ok'] });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('is what --store postgres://… and postgresql://… open', async () => {
    const url = await cluster.createDatabase();
    for (const form of [url, url.replace(/^postgres:/, 'postgresql:')]) {
      const result = await openRunStore(form, { root: '/nowhere' });
      expect(result.ok && result.store.kind).toBe('postgres');
      if (result.ok) keep(result.store);
    }
  });
});

/** The store, with the reads and the commits' outcomes of the calls made through it counted. */
function countingCommits(store: RunStore) {
  let reads = 0;
  let commits: string[] = [];
  const counted: RunStore = {
    ...store,
    kind: store.kind,
    read: (...args) => {
      reads += 1;
      return store.read(...args);
    },
    commit: async (...args) => {
      const result = await store.commit(...args);
      commits.push(result.ok ? 'ok' : result.reason);
      return result;
    },
  };
  return {
    store: counted,
    calls: () => ({ reads, commits }),
    reset() {
      reads = 0;
      commits = [];
    },
  };
}

interface Eavesdropper {
  /** The notifications sent on the run changes channel since the last look, in commit order. */
  sentSinceLastLook(): Promise<{ runId: string; version: number }[]>;
  close(): Promise<void>;
}

/**
 * A plain connection listening on the run store's channel, as no instance does (it holds no lease): it sees
 * what the instances send. A look sends a marker notification and waits for it: everything committed before
 * the look arrives before the marker, so nothing sent is missed and no waiting is guessed.
 */
async function eavesdrop(url: string): Promise<Eavesdropper> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('LISTEN sop_run_changes');
  let received: string[] = [];
  client.on('notification', (message) => received.push(message.payload ?? ''));
  let looks = 0;
  return {
    async sentSinceLastLook() {
      const marker = `marker-${++looks}`;
      await cluster.query(`SELECT pg_notify('sop_run_changes', $1)`, [marker], databaseOf(url));
      await until(() => received.includes(marker));
      const sent = received.slice(0, received.indexOf(marker)).map((payload) => JSON.parse(payload) as { runId: string; version: number });
      received = received.slice(received.indexOf(marker) + 1);
      return sent;
    },
    close: () => client.end(),
  };
}

function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
