/**
 * The SQL schema of the durable stores, written once for both engines: only the column types differ, so each
 * engine is a dialect of the same tables rather than a second copy of them.
 *
 *   sop_runs            one row per live run: owner, agent, pinned SOP hash, state (JSON), version, times;
 *                       `current_node` repeats the last node of the state's path so that listing never parses JSON
 *   sop_run_audit       one row per tool call, keyed (run_id, seq); seq = the run's version after the call;
 *                       deleted with its run; `detail` (JSON) says what decided a domain call (gateway mode)
 *   sop_agent_versions  compiled SOPs (JSON) by source hash, for runs pinned to an older build
 *   sop_sessions        legacy HTTP session id → its principal and current run
 *   sop_run_listeners   (PostgreSQL) instances that listen for other instances' commits, with a lease
 *
 * Times are milliseconds since the epoch as floating point (exact for every integer millisecond, and accepting
 * whatever number the caller passes, as the memory store does). JSON is kept as text (`json`, not `jsonb`, on
 * PostgreSQL) so that it reads back exactly as written. Names carry a `sop_` prefix: a PostgreSQL database is
 * often shared with the app's own tables.
 */
import type { Migration } from './schema-migrations.js';

interface Dialect {
  /** A run or session id: compared bytewise on both engines, so list order and paging agree. */
  readonly id: string;
  readonly text: string;
  readonly json: string;
  readonly integer: string;
  /** Times (ms since the epoch) and durations. */
  readonly number: string;
  /** Appended to every CREATE TABLE. */
  readonly table: string;
  /** Appended to the audit table's CREATE TABLE: rows are read by (run_id, seq), so cluster them by it. */
  readonly clustered: string;
}

const SQLITE: Dialect = {
  id: 'TEXT',
  text: 'TEXT',
  json: 'TEXT',
  integer: 'INTEGER',
  number: 'REAL',
  table: ' STRICT',
  clustered: ' STRICT, WITHOUT ROWID',
};

const POSTGRES: Dialect = {
  id: 'text COLLATE "C"',
  text: 'text',
  json: 'json',
  integer: 'integer',
  number: 'double precision',
  table: '',
  clustered: '',
};

function firstSchema(d: Dialect): Migration {
  return {
    version: 1,
    name: 'runs, audit log, pinned agent versions, sessions',
    statements: [
      `CREATE TABLE sop_runs (
        run_id ${d.id} PRIMARY KEY,
        principal ${d.text} NOT NULL,
        agent ${d.text} NOT NULL,
        source_hash ${d.text} NOT NULL,
        state ${d.json} NOT NULL,
        current_node ${d.text},
        version ${d.integer} NOT NULL CHECK (version >= 1),
        created_at ${d.number} NOT NULL,
        updated_at ${d.number} NOT NULL
      )${d.table}`,
      'CREATE INDEX sop_runs_by_activity ON sop_runs (updated_at DESC, run_id)',
      'CREATE INDEX sop_runs_by_principal ON sop_runs (principal, updated_at DESC, run_id)',
      `CREATE TABLE sop_run_audit (
        run_id ${d.id} NOT NULL REFERENCES sop_runs (run_id) ON DELETE CASCADE,
        seq ${d.integer} NOT NULL CHECK (seq >= 1),
        tool ${d.text} NOT NULL,
        input ${d.json},
        outcome ${d.text} NOT NULL CHECK (outcome IN ('ok', 'refused', 'error')),
        from_node ${d.text},
        to_node ${d.text},
        error ${d.text},
        at ${d.number} NOT NULL,
        duration_ms ${d.number} NOT NULL,
        PRIMARY KEY (run_id, seq)
      )${d.clustered}`,
      `CREATE TABLE sop_agent_versions (
        source_hash ${d.text} PRIMARY KEY,
        agent ${d.text} NOT NULL,
        sop ${d.json} NOT NULL
      )${d.table}`,
      `CREATE TABLE sop_sessions (
        session_id ${d.id} PRIMARY KEY,
        principal ${d.text} NOT NULL,
        run_id ${d.id},
        created_at ${d.number} NOT NULL,
        updated_at ${d.number} NOT NULL
      )${d.table}`,
      'CREATE INDEX sop_sessions_by_activity ON sop_sessions (updated_at)',
    ],
  };
}

const AUDIT_DETAIL = 'domain calls in the audit log: outcomes pending and unknown, and the detail of what decided';
const OUTCOMES = "'ok', 'refused', 'error', 'pending', 'unknown'";

/**
 * Version 2 (the gateway): an audit entry may be `pending` or `unknown` and carries the `detail` of a domain call.
 * SQLite cannot change a CHECK constraint in place, so the table is rebuilt (copied, then renamed); PostgreSQL
 * swaps the constraint and adds the column.
 */
function auditDetailSqlite(d: Dialect): Migration {
  return {
    version: 2,
    name: AUDIT_DETAIL,
    statements: [
      `CREATE TABLE sop_run_audit_v2 (
        run_id ${d.id} NOT NULL REFERENCES sop_runs (run_id) ON DELETE CASCADE,
        seq ${d.integer} NOT NULL CHECK (seq >= 1),
        tool ${d.text} NOT NULL,
        input ${d.json},
        outcome ${d.text} NOT NULL CHECK (outcome IN (${OUTCOMES})),
        from_node ${d.text},
        to_node ${d.text},
        error ${d.text},
        at ${d.number} NOT NULL,
        duration_ms ${d.number} NOT NULL,
        detail ${d.json},
        PRIMARY KEY (run_id, seq)
      )${d.clustered}`,
      'INSERT INTO sop_run_audit_v2 (run_id, seq, tool, input, outcome, from_node, to_node, error, at, duration_ms) ' +
        'SELECT run_id, seq, tool, input, outcome, from_node, to_node, error, at, duration_ms FROM sop_run_audit',
      'DROP TABLE sop_run_audit',
      'ALTER TABLE sop_run_audit_v2 RENAME TO sop_run_audit',
    ],
  };
}

function auditDetailPostgres(d: Dialect): Migration {
  return {
    version: 2,
    name: AUDIT_DETAIL,
    statements: [
      'ALTER TABLE sop_run_audit DROP CONSTRAINT sop_run_audit_outcome_check',
      `ALTER TABLE sop_run_audit ADD CONSTRAINT sop_run_audit_outcome_check CHECK (outcome IN (${OUTCOMES}))`,
      `ALTER TABLE sop_run_audit ADD COLUMN detail ${d.json}`,
    ],
  };
}

/**
 * PostgreSQL only: which instances want to hear other instances' commits (a runs page is open on them). A commit
 * sends its NOTIFY only while another instance holds an unexpired lease here, so nobody pays for notifications
 * nobody listens to. Unlogged: leases are renewed every few seconds and mean nothing after a crash or failover.
 */
const postgresListeners: Migration = {
  version: 3,
  name: 'listeners of run changes: commits notify only while another instance listens',
  statements: ['CREATE UNLOGGED TABLE sop_run_listeners (listener_id text PRIMARY KEY, expires_at timestamptz NOT NULL)'],
};

export const SQLITE_MIGRATIONS: readonly Migration[] = [firstSchema(SQLITE), auditDetailSqlite(SQLITE)];
export const POSTGRES_MIGRATIONS: readonly Migration[] = [firstSchema(POSTGRES), auditDetailPostgres(POSTGRES), postgresListeners];
