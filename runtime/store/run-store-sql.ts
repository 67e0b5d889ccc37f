/**
 * The statements both SQL stores run, written once with `?` placeholders (SQLite's; the PostgreSQL store
 * numbers them, `numberPlaceholders`). Only what the engines do differently lives in their own modules: the
 * commit and the create (one transaction on SQLite, one statement on PostgreSQL) and the expiry sweep (which
 * PostgreSQL lets skip rows another instance is committing).
 */
import { AUDIT_COLUMNS, RUN_COLUMNS, SESSION_COLUMNS } from './sql-rows.js';
import { listLimit } from './page-limits.js';
import type { RunListQuery } from './run-store.js';

export const RUN_SQL = {
  read: `SELECT ${RUN_COLUMNS}, state FROM sop_runs WHERE run_id = ?`,
  insert: `INSERT INTO sop_runs (${RUN_COLUMNS}, state, current_node) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)`,
  /** Compare-and-set: no row when the run is gone or another call moved it first. */
  update:
    'UPDATE sop_runs SET state = ?, current_node = ?, version = version + 1, updated_at = ? ' +
    `WHERE run_id = ? AND version = ? RETURNING ${RUN_COLUMNS}`,
  insertAudit: `INSERT INTO sop_run_audit (run_id, ${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  auditPage: `SELECT ${AUDIT_COLUMNS} FROM sop_run_audit WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
  /** Sessions idle since before the cutoff whose current run is gone (or was never set), at most a batch. */
  deleteIdleSessions:
    'DELETE FROM sop_sessions WHERE session_id IN (SELECT s.session_id FROM sop_sessions s WHERE s.updated_at < ? ' +
    'AND (s.run_id IS NULL OR NOT EXISTS (SELECT 1 FROM sop_runs r WHERE r.run_id = s.run_id)) LIMIT ?)',
  putAgentVersion: 'INSERT INTO sop_agent_versions (source_hash, agent, sop) VALUES (?, ?, ?) ON CONFLICT (source_hash) DO NOTHING',
  getAgentVersion: 'SELECT sop FROM sop_agent_versions WHERE source_hash = ?',
  openSession:
    `INSERT INTO sop_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET ` +
    'principal = excluded.principal, run_id = excluded.run_id, created_at = excluded.created_at, updated_at = excluded.updated_at',
  getSession: `SELECT ${SESSION_COLUMNS} FROM sop_sessions WHERE session_id = ?`,
  setSessionRun: 'UPDATE sop_sessions SET run_id = ?, updated_at = ? WHERE session_id = ?',
  closeSession: 'DELETE FROM sop_sessions WHERE session_id = ?',
} as const;

/**
 * How many runs (with their audit) or sessions one expiry statement deletes: short transactions and short locks.
 * On SQLite the statement also blocks the event loop: 20,000 runs of 5 calls each went in 0.6 s, in batches
 * that blocked it for at most 18 ms (at 200 per batch: 66 ms).
 */
export const EXPIRY_BATCH = 50;

export interface ListStatement {
  /** The same for every query with the same filters, so a store can keep one prepared statement per shape. */
  readonly sql: string;
  readonly values: readonly (string | number)[];
}

/** `list`: newest activity first, ties by run id; optional principal filter and (before, beforeRunId) cursor. */
export function listRunsStatement(query: RunListQuery): ListStatement {
  const where: string[] = [];
  const values: (string | number)[] = [];
  if (query.principal !== undefined) {
    where.push('principal = ?');
    values.push(query.principal);
  }
  if (query.before !== undefined && query.beforeRunId !== undefined) {
    where.push('(updated_at < ? OR (updated_at = ? AND run_id > ?))');
    values.push(query.before, query.before, query.beforeRunId);
  } else if (query.before !== undefined) {
    where.push('updated_at < ?');
    values.push(query.before);
  }
  values.push(listLimit(query));
  const filter = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  return {
    sql: `SELECT ${RUN_COLUMNS}, current_node FROM sop_runs${filter} ORDER BY updated_at DESC, run_id LIMIT ?`,
    values,
  };
}

/** `?, ?, ?` → `$1, $2, $3`, or from `$(after + 1)` (none of these statements has a `?` inside a literal). */
export function numberPlaceholders(sql: string, after = 0): string {
  let n = after;
  return sql.replace(/\?/g, () => `$${++n}`);
}
