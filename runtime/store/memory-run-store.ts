/**
 * The in-memory `RunStore`: the default for stdio (one conversation per process, nothing to keep after it) and
 * for tests. It keeps the contract exactly (compare-and-set, audit in step with the version, idle expiry), so
 * code that works on it works on SQLite and PostgreSQL. Values are immutable by contract (readonly types, and
 * the tool functions never mutate state), so they are kept as given, not copied.
 *
 * One difference, because a process's memory is not a database: a run keeps its latest
 * `maxAuditEntriesPerRun` audit entries (default 10,000), so one very long stdio conversation cannot grow the
 * server without bound. Its version still counts every call; `audit()` returns the entries kept. A durable
 * store (SQLite, PostgreSQL) keeps every entry.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { stderrLogger } from '../support/logger.js';
import { createChangeListeners, type StoreErrorReporter } from './change-listeners.js';
import { auditLimit, listLimit } from './page-limits.js';
import type { AuditEntry, CommitResult, RunListQuery, RunRead, RunStore, RunSummary, SessionRecord, StoredRun } from './run-store.js';

interface Entry {
  run: StoredRun;
  readonly audit: AuditEntry[];
}

export interface MemoryRunStoreOptions {
  /** Where a failing change listener is reported (default: the runtime's stderr logger). */
  readonly onError?: StoreErrorReporter;
  /** Audit entries kept per run, the latest (default 10,000). */
  readonly maxAuditEntriesPerRun?: number;
}

export const DEFAULT_MAX_AUDIT_ENTRIES = 10_000;

export function createMemoryRunStore(options: MemoryRunStoreOptions = {}): RunStore {
  const runs = new Map<string, Entry>();
  const sessions = new Map<string, SessionRecord>();
  const versions = new Map<string, CompiledSop>();
  const listeners = createChangeListeners(options.onError ?? stderrLogger().error);
  const notify = listeners.emit;
  const maxAudit = options.maxAuditEntriesPerRun ?? DEFAULT_MAX_AUDIT_ENTRIES;
  // Trimmed in batches (a tenth over the cap), so a long conversation costs an occasional splice, not one per call.
  const trimAt = maxAudit + Math.max(1, Math.floor(maxAudit / 10));

  return {
    kind: 'memory',
    async create(run, first) {
      if (runs.has(run.runId)) throw new Error(`run ${run.runId} already exists`);
      const stored: StoredRun = { ...run, version: 1 };
      runs.set(run.runId, { run: stored, audit: [{ ...first, seq: 1 }] });
      notify({ runId: run.runId, version: 1 });
      return stored;
    },
    async read(runId, idleBefore): Promise<RunRead> {
      const entry = runs.get(runId);
      if (entry === undefined) return { status: 'unknown' };
      if (entry.run.updatedAt < idleBefore)
        return { status: 'expired', runId, principal: entry.run.principal, updatedAt: entry.run.updatedAt };
      return { status: 'found', run: entry.run };
    },
    async commit(runId, expectedVersion, state, audit, now): Promise<CommitResult> {
      const entry = runs.get(runId);
      if (entry === undefined) return { ok: false, reason: 'missing' };
      if (entry.run.version !== expectedVersion) return { ok: false, reason: 'conflict', current: entry.run };
      const version = expectedVersion + 1;
      entry.run = { ...entry.run, state, version, updatedAt: now };
      entry.audit.push({ ...audit, seq: version });
      if (entry.audit.length > trimAt) entry.audit.splice(0, entry.audit.length - maxAudit);
      notify({ runId, version, run: entry.run });
      return { ok: true, run: entry.run };
    },
    async expire(idleBefore) {
      let expired = 0;
      for (const [runId, entry] of runs) {
        if (entry.run.updatedAt < idleBefore) {
          runs.delete(runId);
          expired += 1;
        }
      }
      for (const [sessionId, session] of sessions) {
        const live = session.runId !== null && runs.has(session.runId);
        if (session.updatedAt < idleBefore && !live) sessions.delete(sessionId);
      }
      return expired;
    },
    async list(query: RunListQuery) {
      const limit = listLimit(query);
      const rows: RunSummary[] = [];
      for (const { run } of runs.values()) {
        if (query.principal !== undefined && run.principal !== query.principal) continue;
        if (query.before !== undefined && !isBeforeCursor(run, query.before, query.beforeRunId)) continue;
        rows.push(summaryOf(run));
      }
      return rows.sort((a, b) => b.updatedAt - a.updatedAt || (a.runId < b.runId ? -1 : 1)).slice(0, limit);
    },
    async audit(runId, options = {}) {
      const after = options.afterSeq ?? 0;
      const limit = auditLimit(options.limit);
      return (runs.get(runId)?.audit ?? []).filter((entry) => entry.seq > after).slice(0, limit);
    },
    async putAgentVersion(sop) {
      if (!versions.has(sop.sourceHash)) versions.set(sop.sourceHash, sop);
    },
    async getAgentVersion(sourceHash) {
      return versions.get(sourceHash);
    },
    async openSession(session) {
      sessions.set(session.sessionId, session);
    },
    async getSession(sessionId) {
      return sessions.get(sessionId);
    },
    async setSessionRun(sessionId, runId, now) {
      const session = sessions.get(sessionId);
      if (session !== undefined) sessions.set(sessionId, { ...session, runId, updatedAt: now });
    },
    async closeSession(sessionId) {
      sessions.delete(sessionId);
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

/** Whether `run` comes after the cursor (`before`, `beforeRunId`) in list order (newest first, then by id). */
function isBeforeCursor(run: StoredRun, before: number, beforeRunId: string | undefined): boolean {
  return run.updatedAt < before || (run.updatedAt === before && beforeRunId !== undefined && run.runId > beforeRunId);
}

export function summaryOf(run: StoredRun): RunSummary {
  return {
    runId: run.runId,
    principal: run.principal,
    agent: run.agent,
    sourceHash: run.sourceHash,
    version: run.version,
    currentNode: run.state.path.at(-1) ?? null,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}
