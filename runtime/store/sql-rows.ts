/**
 * How runs, audit entries, sessions and pinned SOP versions look as rows, and back: one mapping for SQLite and
 * PostgreSQL, so the two engines cannot drift apart. Both drivers hand rows over the same way (column names in
 * snake_case, numbers as numbers, JSON columns as text: the PostgreSQL store asks `pg` not to parse them), and
 * JSON is kept as text so a value reads back exactly as it was written, key order included.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { AuditEntry, AuditOutcome, DomainCallDetail, RunState, RunSummary, SessionRecord, StoredRun } from './run-store.js';

export interface RunRow {
  readonly run_id: string;
  readonly principal: string;
  readonly agent: string;
  readonly source_hash: string;
  readonly version: number;
  readonly created_at: number;
  readonly updated_at: number;
}

export interface RunRowWithState extends RunRow {
  readonly state: string;
}

export interface RunSummaryRow extends RunRow {
  readonly current_node: string | null;
}

export interface AuditRow {
  readonly seq: number;
  readonly tool: string;
  readonly input: string | null;
  readonly outcome: AuditOutcome;
  readonly from_node: string | null;
  readonly to_node: string | null;
  readonly error: string | null;
  readonly at: number;
  readonly duration_ms: number;
  /** JSON text, or null. */
  readonly detail: string | null;
}

export interface SessionRow {
  readonly session_id: string;
  readonly principal: string;
  readonly run_id: string | null;
  readonly created_at: number;
  readonly updated_at: number;
}

/** The column list of a run without its state, in `RunRow`'s order (for SELECT and RETURNING). */
export const RUN_COLUMNS = 'run_id, principal, agent, source_hash, version, created_at, updated_at';
export const AUDIT_COLUMNS = 'seq, tool, input, outcome, from_node, to_node, error, at, duration_ms, detail';
export const SESSION_COLUMNS = 'session_id, principal, run_id, created_at, updated_at';

/** The run's current node, kept in its own column so that listing never parses a state. */
export function currentNodeOf(state: RunState): string | null {
  return state.path.at(-1) ?? null;
}

/** `state` is given when the caller already holds it (a commit), so it is not parsed back. */
export function runFromRow(row: RunRow, state: RunState): StoredRun {
  return {
    runId: row.run_id,
    principal: row.principal,
    agent: row.agent,
    sourceHash: row.source_hash,
    state,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function storedRunFromRow(row: RunRowWithState): StoredRun {
  return runFromRow(row, JSON.parse(row.state) as RunState);
}

export function summaryFromRow(row: RunSummaryRow): RunSummary {
  return {
    runId: row.run_id,
    principal: row.principal,
    agent: row.agent,
    sourceHash: row.source_hash,
    version: row.version,
    currentNode: row.current_node,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The audit columns after `run_id` and `seq`, in `AUDIT_COLUMNS` order. */
export function auditValues(
  audit: Omit<AuditEntry, 'seq'>,
): [string, string | null, AuditOutcome, string | null, string | null, string | null, number, number, string | null] {
  return [
    audit.tool,
    encodeInput(audit.input),
    audit.outcome,
    audit.from,
    audit.to,
    audit.error ?? null,
    audit.at,
    audit.durationMs,
    audit.detail === undefined ? null : JSON.stringify(audit.detail),
  ];
}

export function auditFromRow(row: AuditRow): AuditEntry {
  const entry: AuditEntry = {
    seq: row.seq,
    tool: row.tool,
    input: decodeInput(row.input),
    outcome: row.outcome,
    from: row.from_node,
    to: row.to_node,
    at: row.at,
    durationMs: row.duration_ms,
  };
  const withError = row.error === null ? entry : { ...entry, error: row.error };
  if (row.detail === null) return withError;
  return { ...withError, detail: JSON.parse(row.detail) as DomainCallDetail };
}

export function sessionFromRow(row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    principal: row.principal,
    runId: row.run_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function sopFromText(text: string): CompiledSop {
  return JSON.parse(text) as CompiledSop;
}

// A call without arguments has `input` undefined, which JSON cannot hold: it is stored as SQL NULL and read
// back as undefined, so it round-trips like in the memory store (JSON `null` stays `null`).
function encodeInput(input: unknown): string | null {
  return input === undefined ? null : JSON.stringify(input);
}

function decodeInput(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}
