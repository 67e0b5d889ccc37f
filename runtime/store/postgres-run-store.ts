/**
 * The PostgreSQL `RunStore` (node-postgres): for several instances of `sop serve --http` behind a load
 * balancer. Every instance opens its own pool on the same database; the database is the only place a run lives.
 *
 *   - Schema created and migrated on open, under a transaction-scoped advisory lock: instances starting at
 *     once apply each migration once, the others wait and find it done (DDL is transactional here).
 *   - A commit is one statement, so one round trip: a data-modifying CTE does the compare-and-set
 *     `UPDATE … WHERE run_id = $ AND version = $ RETURNING …` and inserts the audit entry from its row; the row
 *     it returns notifies, only while another instance listens, with the run as committed, so that the other
 *     instances' copies stay fresh. When the compare-and-set updated nothing, the same statement reads the run as
 *     its snapshot shows it, without a lock: a caller holding a stale copy (a copy that missed its notification)
 *     decides again on it without another read, and the failed commit writes nothing (no row lock, no WAL, no
 *     flush). No row back at all: the run is gone. (Without that branch every commit is about 0.05 of bench row
 *     11's ratio cheaper, but a retry under contention waits a round trip longer for the run it decides on: a
 *     migration racing conversations on the same runs lost its compare-and-set five times in a row.)
 *     Only a commit that lost a race in flight (under READ COMMITTED it waited on the row lock, re-checked
 *     `version` against the winner's row and updated nothing, while its snapshot still shows the version it
 *     expected) reads the winner's row in a second statement.
 *   - `create` is one statement the same way (run row, first audit entry, notification while listened to).
 *   - The expiry sweep deletes in batches, skipping rows another instance holds (`FOR UPDATE SKIP LOCKED`): two
 *     instances sweeping at once do not wait for each other, and a run being committed right now is not idle.
 *   - Changes: this instance's listeners hear its own commits in process, as soon as they are durable; other
 *     instances' commits arrive through LISTEN/NOTIFY while this instance has listeners
 *     (`postgres-change-feed.ts`).
 *
 * JSON columns come back as text (a per-pool type parser; the driver's global parsers are left alone) so that
 * the row mapping is the same as SQLite's.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { stderrLogger } from '../support/logger.js';
import { type ChangeListeners, createChangeListeners, type StoreErrorReporter } from './change-listeners.js';
import { loadDriver } from './load-driver.js';
import { auditLimit } from './page-limits.js';
import { type ChangeFeed, createChangeFeed, OTHERS_LISTEN, RUN_CHANGES_CHANNEL } from './postgres-change-feed.js';
import { redactUrl } from './redact-url.js';
import { POSTGRES_MIGRATIONS } from './run-store-schema.js';
import { EXPIRY_BATCH, listRunsStatement, numberPlaceholders, RUN_SQL } from './run-store-sql.js';
import type { CommitResult, RunRead, RunStore } from './run-store.js';
import { CURRENT_SCHEMA_VERSION_SQL, MIGRATIONS_TABLE_DDL, planMigrations, RECORD_MIGRATION_SQL } from './schema-migrations.js';
import {
  AUDIT_COLUMNS,
  auditFromRow,
  auditValues,
  currentNodeOf,
  RUN_COLUMNS,
  runFromRow,
  sessionFromRow,
  sopFromText,
  storedRunFromRow,
  summaryFromRow,
  type AuditRow,
  type RunRow,
  type RunRowWithState,
  type RunSummaryRow,
  type SessionRow,
} from './sql-rows.js';

export interface PostgresRunStoreOptions {
  /** `postgres://user:password@host:port/database?…` (anything node-postgres accepts). */
  readonly url: string;
  /** Connections per instance (default 10). */
  readonly poolSize?: number;
  /** Where background failures go: idle connections lost, LISTEN reconnects, failing listeners. */
  readonly onError?: StoreErrorReporter;
  /** How long this instance's listener lease lasts unless renewed (default 30 s; tests shorten it). */
  readonly listenerLeaseMs?: number;
}

export interface PostgresRunStore extends RunStore {
  readonly kind: 'postgres';
  /**
   * Resolves once the last subscribe or unsubscribe has taken effect in the database (this instance listens
   * and holds its lease, or has released it): from then on, other instances' commits are heard, or no longer
   * notified for this instance.
   */
  settled(): Promise<void>;
}

export type PostgresOpen = { readonly ok: true; readonly store: PostgresRunStore } | { readonly ok: false; readonly error: string };

const JSON_TYPE_OID = 114;
const CONNECT_TIMEOUT_MS = 10_000;

/** The audit columns after run_id and seq, typed: in `INSERT … SELECT` a parameter's type is not inferred. */
const AUDIT_PARAMETERS = (first: number) =>
  ['text', 'json', 'text', 'text', 'text', 'text', 'float8', 'float8', 'json'].map((type, i) => `$${first + i}::${type}`).join(', ');
/**
 * The `told` column of a write's row: a notification of the change of the row, sent (at commit, like any NOTIFY)
 * only while another instance listens. An expression in the row, not a CTE of its own: fewer plan nodes to
 * start and stop on every commit. `$1` is this instance's id.
 */
const TOLD_WHILE_LISTENED =
  `CASE WHEN ${OTHERS_LISTEN} THEN ` +
  `pg_notify('${RUN_CHANGES_CHANNEL}', json_build_object('runId', run_id, 'version', version, 'from', $1::text)::text) END AS told`;
/**
 * A commit's `told`: the notification carries the run as committed, its state included, so that an instance holding
 * an older copy (a load balancer sent it the conversation's previous call) gets the new one without a round trip of
 * its own, and its next commit on the run is its only statement. A run too large for a notification (8,000 bytes)
 * is told as a bare change: that instance's next commit fails once and returns the run, as without notifications.
 * `$2` is the state written.
 */
const COMMIT_TOLD_WHILE_LISTENED =
  `CASE WHEN ${OTHERS_LISTEN} THEN pg_notify('${RUN_CHANGES_CHANNEL}', (` +
  'SELECT CASE WHEN octet_length(told.run) < 8000 THEN told.run ELSE told.change END FROM (SELECT ' +
  "json_build_object('runId', run_id, 'version', version, 'from', $1::text, 'principal', principal, 'agent', agent, " +
  "'sourceHash', source_hash, 'createdAt', created_at, 'updatedAt', updated_at, 'state', $2::json)::text AS run, " +
  "json_build_object('runId', run_id, 'version', version, 'from', $1::text)::text AS change) AS told)) END AS told";

const SQL = {
  /**
   * $1 instance, $2 state, $3 current node, $4 now, $5 run id, $6 expected version, $7… the audit entry.
   * One row: the run written (`state` null: the caller holds it), or the run as this statement's snapshot shows
   * it; none when the run is gone.
   */
  commit: {
    name: 'sop_commit',
    text: `WITH moved AS (
        UPDATE sop_runs SET state = $2, current_node = $3, version = version + 1, updated_at = $4
        WHERE run_id = $5 AND version = $6 RETURNING ${RUN_COLUMNS}
      ), logged AS (
        INSERT INTO sop_run_audit (run_id, ${AUDIT_COLUMNS}) SELECT run_id, version, ${AUDIT_PARAMETERS(7)} FROM moved
      )
      SELECT ${RUN_COLUMNS}, NULL::json AS state, ${COMMIT_TOLD_WHILE_LISTENED} FROM moved
      UNION ALL
      SELECT ${RUN_COLUMNS}, state, NULL FROM sop_runs WHERE run_id = $5 AND NOT EXISTS (SELECT 1 FROM moved)`,
  },
  /** $1 instance, $2… the run, then its first audit entry. */
  create: {
    name: 'sop_create',
    text: `WITH created AS (
        ${numberPlaceholders(RUN_SQL.insert, 1)} RETURNING run_id, version
      ), logged AS (
        INSERT INTO sop_run_audit (run_id, ${AUDIT_COLUMNS}) SELECT run_id, version, ${AUDIT_PARAMETERS(10)} FROM created
      )
      SELECT ${TOLD_WHILE_LISTENED} FROM created`,
  },
  read: { name: 'sop_read', text: numberPlaceholders(RUN_SQL.read) },
  auditPage: { name: 'sop_audit_page', text: numberPlaceholders(RUN_SQL.auditPage) },
  deleteIdleRuns:
    'DELETE FROM sop_runs WHERE run_id IN ' +
    '(SELECT run_id FROM sop_runs WHERE updated_at < $1 ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)',
  deleteIdleSessions: numberPlaceholders(RUN_SQL.deleteIdleSessions),
  putAgentVersion: numberPlaceholders(RUN_SQL.putAgentVersion),
  getAgentVersion: numberPlaceholders(RUN_SQL.getAgentVersion),
  openSession: numberPlaceholders(RUN_SQL.openSession),
  getSession: numberPlaceholders(RUN_SQL.getSession),
  setSessionRun: numberPlaceholders(RUN_SQL.setSessionRun),
  closeSession: numberPlaceholders(RUN_SQL.closeSession),
  /** One key for every sop-toolkit instance on the database: migrations run one instance at a time. */
  migrationLock: "SELECT pg_advisory_xact_lock(hashtext('sop-toolkit run store migrations'))",
} as const;

export async function openPostgresRunStore(options: PostgresRunStoreOptions): Promise<PostgresOpen> {
  const loaded = await loadDriver('pg', async () => (await import('pg')).default, '--store memory, or --store sqlite:PATH');
  if (!loaded.ok) return loaded;
  const driver = loaded.driver;
  const onError = options.onError ?? stderrLogger().error;
  const where = redactUrl(options.url);
  const types = new driver.TypeOverrides();
  types.setTypeParser(JSON_TYPE_OID, (text: string) => text);
  const connection = { connectionString: options.url, types, connectionTimeoutMillis: CONNECT_TIMEOUT_MS };

  const pool = new driver.Pool({ ...connection, max: options.poolSize ?? 10, application_name: 'sop-toolkit' });
  pool.on('error', (error) => onError(`an idle PostgreSQL connection of the run store (${where}) failed`, error));
  const listeners = createChangeListeners(onError);
  const instanceId = randomUUID();
  const feed = createChangeFeed({
    instanceId,
    newClient: () => new driver.Client({ ...connection, application_name: 'sop-toolkit listen', keepAlive: true }),
    onChange: listeners.emit,
    onError,
    ...(options.listenerLeaseMs === undefined ? {} : { leaseMs: options.listenerLeaseMs }),
  });
  try {
    const migrated = await migrate(pool);
    if (!migrated.ok) {
      await pool.end();
      return { ok: false, error: `${migrated.error} (${where})` };
    }
  } catch (error) {
    await pool.end().catch(() => {});
    return { ok: false, error: `cannot open the PostgreSQL run store at ${where}: ${describeError(error)}` };
  }
  return { ok: true, store: createStore(pool, instanceId, listeners, feed) };
}

async function migrate(pool: pg.Pool): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: string }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(SQL.migrationLock);
    await client.query(MIGRATIONS_TABLE_DDL);
    const current = (await client.query<{ version: number }>(CURRENT_SCHEMA_VERSION_SQL)).rows[0]?.version ?? 0;
    const plan = planMigrations('PostgreSQL', POSTGRES_MIGRATIONS, current);
    if (!plan.ok) {
      await client.query('ROLLBACK');
      return plan;
    }
    for (const migration of plan.pending) {
      for (const statement of migration.statements) await client.query(statement);
      await client.query(RECORD_MIGRATION_SQL.postgres, [migration.version, migration.name]);
    }
    await client.query('COMMIT');
    return { ok: true };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function createStore(pool: pg.Pool, instanceId: string, listeners: ChangeListeners, feed: ChangeFeed): PostgresRunStore {
  const query = <R extends pg.QueryResultRow>(statement: Statement, values: readonly unknown[]) =>
    pool.query<R>({ ...(typeof statement === 'string' ? { text: statement } : statement), values: values.map(storable) });
  const deleteInBatches = async (statement: string, idleBefore: number): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = (await query(statement, [idleBefore, EXPIRY_BATCH])).rowCount ?? 0;
      total += deleted;
      if (deleted < EXPIRY_BATCH) return total;
    }
  };
  let subscribers = 0;
  let closed = false;
  return {
    kind: 'postgres',
    async create(run, first) {
      const { runId, principal, agent, sourceHash, createdAt, updatedAt, state } = run;
      const values = [
        instanceId,
        runId,
        principal,
        agent,
        sourceHash,
        createdAt,
        updatedAt,
        JSON.stringify(state),
        currentNodeOf(state),
        ...auditValues(first),
      ];
      try {
        await query(SQL.create, values);
      } catch (error) {
        if ((error as { code?: string }).code === '23505') throw new Error(`run ${runId} already exists`);
        throw error;
      }
      listeners.emit({ runId, version: 1 });
      return { ...run, version: 1 };
    },
    async read(runId, idleBefore): Promise<RunRead> {
      const row = (await query<RunRowWithState>(SQL.read, [runId])).rows[0];
      if (row === undefined) return { status: 'unknown' };
      if (row.updated_at < idleBefore) return { status: 'expired', runId, principal: row.principal, updatedAt: row.updated_at };
      return { status: 'found', run: storedRunFromRow(row) };
    },
    async commit(runId, expectedVersion, state, audit, now): Promise<CommitResult> {
      const values = [instanceId, JSON.stringify(state), currentNodeOf(state), now, runId, expectedVersion, ...auditValues(audit)];
      const row = (await query<CommitRow>(SQL.commit, values)).rows[0];
      if (row === undefined) return { ok: false, reason: 'missing' };
      if (row.state === null) {
        const run = runFromRow(row, state);
        listeners.emit({ runId, version: row.version, run });
        return { ok: true, run };
      }
      if (row.version !== expectedVersion) return { ok: false, reason: 'conflict', current: storedRunFromRow(row as RunRowWithState) };
      // The snapshot still shows the expected version, so a commit in flight won the row while this one waited for
      // it: a new statement sees what it committed (or that the run is gone).
      const winner = (await query<RunRowWithState>(SQL.read, [runId])).rows[0];
      return winner === undefined ? { ok: false, reason: 'missing' } : { ok: false, reason: 'conflict', current: storedRunFromRow(winner) };
    },
    async expire(idleBefore) {
      const runs = await deleteInBatches(SQL.deleteIdleRuns, idleBefore);
      await deleteInBatches(SQL.deleteIdleSessions, idleBefore);
      return runs;
    },
    async list(listQuery) {
      const { sql, values } = listRunsStatement(listQuery);
      return (await query<RunSummaryRow>(numberPlaceholders(sql), values)).rows.map(summaryFromRow);
    },
    async audit(runId, options = {}) {
      const values = [runId, options.afterSeq ?? 0, auditLimit(options.limit)];
      return (await query<AuditRow>(SQL.auditPage, values)).rows.map(auditFromRow);
    },
    async putAgentVersion(sop) {
      await query(SQL.putAgentVersion, [sop.sourceHash, sop.meta.agent, JSON.stringify(sop)]);
    },
    async getAgentVersion(sourceHash) {
      const row = (await query<{ sop: string }>(SQL.getAgentVersion, [sourceHash])).rows[0];
      return row === undefined ? undefined : sopFromText(row.sop);
    },
    async openSession(session) {
      await query(SQL.openSession, [session.sessionId, session.principal, session.runId, session.createdAt, session.updatedAt]);
    },
    async getSession(sessionId) {
      const row = (await query<SessionRow>(SQL.getSession, [sessionId])).rows[0];
      return row === undefined ? undefined : sessionFromRow(row);
    },
    async setSessionRun(sessionId, runId, now) {
      await query(SQL.setSessionRun, [runId, now, sessionId]);
    },
    async closeSession(sessionId) {
      await query(SQL.closeSession, [sessionId]);
    },
    subscribe(listener) {
      const unsubscribe = listeners.add(listener);
      subscribers += 1;
      if (subscribers === 1 && !closed) feed.listen(true);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        unsubscribe();
        subscribers -= 1;
        if (subscribers === 0 && !closed) feed.listen(false);
      };
    },
    settled: () => feed.settled(),
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await Promise.all([feed.close(), pool.end()]);
    },
  };
}

type Statement = string | { readonly name: string; readonly text: string };

/** A commit's one row: the run it wrote (no state: the caller holds it), or the run as it was, with its state. */
interface CommitRow extends RunRow {
  readonly state: string | null;
}

/**
 * PostgreSQL text cannot hold U+0000 (the driver's error would fail the call), so every text this store writes
 * or looks up has it replaced by U+FFFD: a run id, an error message echoing a model's input, a node name. JSON
 * parameters never contain it raw (JSON.stringify escapes it), so they are unchanged.
 */
function storable(value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
}

/** A connection error is often an AggregateError with an empty message (one error per address tried). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message !== '') return error.message;
  const inner = (error as { errors?: unknown[] }).errors?.[0];
  if (inner instanceof Error && inner.message !== '') return inner.message;
  return (error as NodeJS.ErrnoException).code ?? error.name;
}
