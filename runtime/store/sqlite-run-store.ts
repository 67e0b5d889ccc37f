/**
 * The SQLite `RunStore`: the default of `sop serve --http`, one file in the app's data folder. The engine comes
 * through `sqlite-driver.ts`: Node's built-in node:sqlite where it exists (22.13+), better-sqlite3 otherwise
 * or when chosen; the store is the same SQL on either.
 *
 * Settings, read back from the engine after open:
 *   - `journal_mode=WAL`: readers never block the writer, and the CLI can read while the server writes.
 *   - `synchronous=NORMAL` (default) survives a crash of the process (`kill -9`) with nothing lost; only a power
 *     loss or an OS crash can drop the last commits (the database stays consistent). `FULL` fsyncs the WAL at
 *     every commit and survives those too, at the cost of one fsync per tool call.
 *   - `busy_timeout` (5 s): two processes on one host can share the file; a writer waits for the other's short
 *     transaction instead of failing. Never put the file on a network filesystem (WAL needs shared memory).
 *   - `foreign_keys=ON`: deleting a run deletes its audit entries.
 *
 * Both drivers are synchronous, so every call here is one small prepared statement or one short transaction;
 * a commit is `BEGIN IMMEDIATE` (the write lock is taken up front, so two writers queue on the busy timeout
 * rather than deadlock), the compare-and-set `UPDATE … WHERE version = ?`, the audit `INSERT`, `COMMIT`; when
 * the compare-and-set finds another version, the same transaction reads the run as it is now, for the caller
 * to decide again on. The expiry sweep deletes in batches and yields to the event loop between them. Changes
 * are told to listeners of this process only: another process sharing the file does not hear of them.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { stderrLogger } from '../support/logger.js';
import { createChangeListeners, type StoreErrorReporter } from './change-listeners.js';
import { auditLimit } from './page-limits.js';
import {
  CURRENT_SCHEMA_VERSION_SQL,
  MIGRATIONS_TABLE_DDL,
  planMigrations,
  RECORD_MIGRATION_SQL,
  type MigrationPlan,
} from './schema-migrations.js';
import { SQLITE_MIGRATIONS } from './run-store-schema.js';
import { EXPIRY_BATCH, listRunsStatement, RUN_SQL } from './run-store-sql.js';
import type { AuditEntry, CommitResult, RunRead, RunState, RunStore, StoredRun } from './run-store.js';
import {
  loadSqliteDriver,
  openSqliteDatabase,
  type SqliteDatabase,
  type SqliteDriver,
  type SqliteDriverChoice,
  type SqliteDriverName,
  type SqliteStatement,
} from './sqlite-driver.js';
import {
  auditFromRow,
  auditValues,
  currentNodeOf,
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

export type SqliteSynchronous = 'NORMAL' | 'FULL';

export interface SqliteRunStoreOptions {
  /** The database file; its folder is created when missing. */
  readonly path: string;
  /**
   * Which engine (default `auto`: node:sqlite where this Node has it, else better-sqlite3), or one already
   * loaded (an app or a test choosing the module itself).
   */
  readonly driver?: SqliteDriverChoice | SqliteDriver;
  readonly synchronous?: SqliteSynchronous;
  readonly busyTimeoutMs?: number;
  /** Where a failing change listener is reported (default: the runtime's stderr logger). */
  readonly onError?: StoreErrorReporter;
}

export interface SqliteSettings {
  readonly driver: SqliteDriverName;
  readonly journalMode: string;
  readonly synchronous: SqliteSynchronous | `other (${number})`;
  readonly busyTimeoutMs: number;
}

export interface SqliteRunStore extends RunStore {
  readonly kind: 'sqlite';
  readonly path: string;
  /** The settings as the engine reports them after open. */
  readonly settings: SqliteSettings;
}

export type SqliteOpen = { readonly ok: true; readonly store: SqliteRunStore } | { readonly ok: false; readonly error: string };

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export async function openSqliteRunStore(options: SqliteRunStoreOptions): Promise<SqliteOpen> {
  const chosen = options.driver ?? 'auto';
  const loaded = typeof chosen === 'string' ? await loadSqliteDriver(chosen) : { ok: true as const, driver: chosen };
  if (!loaded.ok) return loaded;
  const { path } = options;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    return { ok: false, error: `cannot create the folder of the SQLite run store ${path}: ${(error as Error).message}` };
  }
  let db: SqliteDatabase;
  try {
    const opened = openSqliteDatabase(loaded.driver, path);
    if (!opened.ok) return opened;
    db = opened.db;
  } catch (error) {
    return { ok: false, error: `cannot open the SQLite run store ${path}: ${(error as Error).message}` };
  }
  try {
    const settings = configure(db, loaded.driver.name, options.synchronous ?? 'NORMAL', busyTimeoutMs);
    const plan = migrate(db);
    if (!plan.ok) {
      db.close();
      return { ok: false, error: `${plan.error} (${path})` };
    }
    return { ok: true, store: createStore(db, loaded.driver, path, settings, options.onError ?? stderrLogger().error) };
  } catch (error) {
    db.close();
    return { ok: false, error: `cannot open the SQLite run store ${path}: ${(error as Error).message}` };
  }
}

function configure(db: SqliteDatabase, driver: SqliteDriverName, synchronous: SqliteSynchronous, busyTimeoutMs: number): SqliteSettings {
  const pragma = <T>(name: string): T => Object.values(db.prepare<Record<string, T>>(`PRAGMA ${name}`).get() ?? {})[0] as T;
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const journalMode = String(pragma('journal_mode = WAL'));
  db.exec(`PRAGMA synchronous = ${synchronous}`);
  db.exec('PRAGMA foreign_keys = ON');
  const level = Number(pragma('synchronous'));
  return {
    driver,
    journalMode,
    synchronous: level === 1 ? 'NORMAL' : level === 2 ? 'FULL' : `other (${level})`,
    busyTimeoutMs: Number(pragma('busy_timeout')),
  };
}

/**
 * Runs `work` in one write transaction, taken up front (`BEGIN IMMEDIATE`): committed when it returns, rolled
 * back when it throws. Both drivers are synchronous, so nothing else runs on this connection meanwhile.
 */
function writeTransaction(db: SqliteDatabase): <T>(work: () => T) => T {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  return (work) => {
    begin.run();
    let result: ReturnType<typeof work>;
    try {
      result = work();
    } catch (error) {
      try {
        rollback.run();
      } catch {
        // SQLite already rolled back (some errors end the transaction themselves): nothing is left to undo.
      }
      throw error;
    }
    commit.run();
    return result;
  };
}

/**
 * Group commit: the commits that reach the store while one turn of the event loop handles its I/O go to SQLite
 * together at the end of that turn (`setImmediate`), in one write transaction, so a busy server pays a
 * transaction's page writes once for many calls rather than once per call. Each commit is still its own
 * compare-and-set, inside a savepoint, so one that throws takes nothing of the others with it; each caller's
 * promise settles only after the transaction's COMMIT, so an answer still follows its stored state change. A lone
 * commit (a stdio conversation) waits one event-loop turn and takes no savepoint.
 */
function groupCommits(db: SqliteDatabase, inWriteTransaction: <T>(work: () => T) => T) {
  const savepoint = db.prepare('SAVEPOINT sop_commit');
  const release = db.prepare('RELEASE sop_commit');
  const rollbackTo = db.prepare('ROLLBACK TO sop_commit');
  type Pending = {
    readonly work: () => CommitResult;
    readonly resolve: (value: CommitResult) => void;
    readonly reject: (error: unknown) => void;
  };
  type Outcome = { readonly ok: true; readonly value: CommitResult } | { readonly ok: false; readonly error: unknown };
  let pending: Pending[] = [];
  let scheduled: NodeJS.Immediate | undefined;

  const flush = (): void => {
    scheduled = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    if (batch.length === 1) {
      const only = batch[0]!;
      let result: CommitResult;
      try {
        result = inWriteTransaction(only.work);
      } catch (error) {
        only.reject(error);
        return;
      }
      only.resolve(result);
      return;
    }
    const outcomes: Outcome[] = [];
    try {
      inWriteTransaction(() => {
        for (const item of batch) {
          savepoint.run();
          try {
            outcomes.push({ ok: true, value: item.work() });
            release.run();
          } catch (error) {
            rollbackTo.run();
            release.run();
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  return {
    commit(work: () => CommitResult): Promise<CommitResult> {
      return new Promise<CommitResult>((resolve, reject) => {
        pending.push({ work, resolve, reject });
        scheduled ??= setImmediate(flush);
      });
    },
    /** Commits what is waiting now (before the connection closes). */
    flushNow(): void {
      if (scheduled !== undefined) clearImmediate(scheduled);
      flush();
    },
  };
}

/** Applies what is missing, all in one write transaction: two processes opening the file at once apply it once. */
function migrate(db: SqliteDatabase): MigrationPlan {
  return writeTransaction(db)((): MigrationPlan => {
    db.exec(MIGRATIONS_TABLE_DDL);
    const current = (db.prepare<{ version: number }>(CURRENT_SCHEMA_VERSION_SQL).get() as { version: number }).version;
    const plan = planMigrations('SQLite', SQLITE_MIGRATIONS, current);
    if (!plan.ok) return plan;
    const record = db.prepare(RECORD_MIGRATION_SQL.sqlite);
    for (const migration of plan.pending) {
      for (const statement of migration.statements) db.exec(statement);
      record.run(migration.version, migration.name);
    }
    return plan;
  });
}

function createStore(
  db: SqliteDatabase,
  driver: SqliteDriver,
  path: string,
  settings: SqliteSettings,
  onError: StoreErrorReporter,
): SqliteRunStore {
  const statement = {
    read: db.prepare<RunRowWithState>(RUN_SQL.read),
    insert: db.prepare(RUN_SQL.insert),
    update: db.prepare<RunRow>(RUN_SQL.update),
    insertAudit: db.prepare(RUN_SQL.insertAudit),
    auditPage: db.prepare<AuditRow>(RUN_SQL.auditPage),
    deleteIdleRuns: db.prepare(
      'DELETE FROM sop_runs WHERE run_id IN (SELECT run_id FROM sop_runs WHERE updated_at < ? ORDER BY updated_at LIMIT ?)',
    ),
    deleteIdleSessions: db.prepare(RUN_SQL.deleteIdleSessions),
    putAgentVersion: db.prepare(RUN_SQL.putAgentVersion),
    getAgentVersion: db.prepare<{ sop: string }>(RUN_SQL.getAgentVersion),
    openSession: db.prepare(RUN_SQL.openSession),
    getSession: db.prepare<SessionRow>(RUN_SQL.getSession),
    setSessionRun: db.prepare(RUN_SQL.setSessionRun),
    closeSession: db.prepare(RUN_SQL.closeSession),
  };
  // One prepared statement per shape of list query (filters present or not): four at most.
  const listStatements = new Map<string, SqliteStatement<RunSummaryRow>>();
  const listeners = createChangeListeners(onError);
  const inWriteTransaction = writeTransaction(db);
  const commits = groupCommits(db, inWriteTransaction);

  const create = (run: Omit<StoredRun, 'version'>, first: Omit<AuditEntry, 'seq'>): void => {
    statement.insert.run(
      run.runId,
      run.principal,
      run.agent,
      run.sourceHash,
      run.createdAt,
      run.updatedAt,
      JSON.stringify(run.state),
      currentNodeOf(run.state),
    );
    statement.insertAudit.run(run.runId, 1, ...auditValues(first));
  };

  const commit = (runId: string, expectedVersion: number, state: RunState, audit: Omit<AuditEntry, 'seq'>, now: number): CommitResult => {
    const row = statement.update.get(JSON.stringify(state), currentNodeOf(state), now, runId, expectedVersion);
    if (row === undefined) {
      // Same transaction: the run as it is now, so the caller decides again without reading it.
      const current = statement.read.get(runId);
      return current === undefined
        ? { ok: false, reason: 'missing' }
        : { ok: false, reason: 'conflict', current: storedRunFromRow(current) };
    }
    statement.insertAudit.run(runId, row.version, ...auditValues(audit));
    return { ok: true, run: runFromRow(row, state) };
  };

  async function deleteInBatches(remove: SqliteStatement<unknown>, idleBefore: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { changes } = remove.run(idleBefore, EXPIRY_BATCH);
      total += changes;
      if (changes < EXPIRY_BATCH) return total;
      await yieldToEventLoop();
    }
  }

  let closed = false;
  return {
    kind: 'sqlite',
    path,
    settings,
    async create(run, first) {
      try {
        inWriteTransaction(() => create(run, first));
      } catch (error) {
        if (driver.isUniqueViolation(error)) throw new Error(`run ${run.runId} already exists`);
        throw error;
      }
      const stored: StoredRun = { ...run, version: 1 };
      listeners.emit({ runId: run.runId, version: 1 });
      return stored;
    },
    async read(runId, idleBefore): Promise<RunRead> {
      const row = statement.read.get(runId);
      if (row === undefined) return { status: 'unknown' };
      if (row.updated_at < idleBefore) return { status: 'expired', runId, principal: row.principal, updatedAt: row.updated_at };
      return { status: 'found', run: storedRunFromRow(row) };
    },
    async commit(runId, expectedVersion, state, audit, now) {
      const result = await commits.commit(() => commit(runId, expectedVersion, state, audit, now));
      if (result.ok) listeners.emit({ runId, version: result.run.version, run: result.run });
      return result;
    },
    async expire(idleBefore) {
      const runs = await deleteInBatches(statement.deleteIdleRuns, idleBefore);
      await deleteInBatches(statement.deleteIdleSessions, idleBefore);
      return runs;
    },
    async list(query) {
      const { sql, values } = listRunsStatement(query);
      let prepared = listStatements.get(sql);
      if (prepared === undefined) {
        prepared = db.prepare<RunSummaryRow>(sql);
        listStatements.set(sql, prepared);
      }
      return prepared.all(...values).map(summaryFromRow);
    },
    async audit(runId, options = {}) {
      return statement.auditPage.all(runId, options.afterSeq ?? 0, auditLimit(options.limit)).map(auditFromRow);
    },
    async putAgentVersion(sop) {
      statement.putAgentVersion.run(sop.sourceHash, sop.meta.agent, JSON.stringify(sop));
    },
    async getAgentVersion(sourceHash) {
      const row = statement.getAgentVersion.get(sourceHash);
      return row === undefined ? undefined : sopFromText(row.sop);
    },
    async openSession(session) {
      statement.openSession.run(session.sessionId, session.principal, session.runId, session.createdAt, session.updatedAt);
    },
    async getSession(sessionId) {
      const row = statement.getSession.get(sessionId);
      return row === undefined ? undefined : sessionFromRow(row);
    },
    async setSessionRun(sessionId, runId, now) {
      statement.setSessionRun.run(runId, now, sessionId);
    },
    async closeSession(sessionId) {
      statement.closeSession.run(sessionId);
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      commits.flushNow();
      listeners.clear();
      db.close();
    },
  };
}
