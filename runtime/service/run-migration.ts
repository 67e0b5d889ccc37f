/**
 * Moves the runs of an agent to a new version of its SOP (`sop runs migrate`, `sop serve --migrate-runs`): every run of
 * the agent in the store that is on another version is read, decided (`tools/migrate-run.ts`) and, when it may move,
 * committed with its audit entry (`migrate`: the versions and the renames used) as one compare-and-set commit, like
 * any tool call: a run that a conversation moved meanwhile is read again and decided again, and a conversation's call
 * that loses the race to the migration is decided again by its server on the new version. The new version is kept in
 * the store first, so every instance can serve the runs moved to it. Each run's outcome is reported, with its reason.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { type AuditEntry, pinnedVersion, type RunStore, type StoredRun } from '../store/run-store.js';
import { decideMigration } from '../tools/migrate-run.js';

export const MIGRATE_TOOL = 'migrate';

export type MigrationStatus =
  /** Moved to the new version. */
  | 'moved'
  /** Would move (a dry run). */
  | 'would-move'
  /** Stays on its version (`reason` says why). */
  | 'stays'
  /** Already on the new version. */
  | 'current';

export interface RunMigration {
  readonly runId: string;
  readonly principal: string;
  /** The version it was on. */
  readonly from: string;
  readonly status: MigrationStatus;
  /** Its current node, before and after. */
  readonly node: string | null;
  readonly movedTo?: string | null;
  readonly reason?: string;
  readonly renamed?: readonly (readonly [string, string])[];
}

export interface MigrationOptions {
  readonly store: RunStore;
  readonly agent: string;
  /** The version to move to, expanded with the SOPs it calls (as the server serves it). */
  readonly target: CompiledSop;
  readonly dryRun?: boolean;
  readonly now?: () => number;
  /** Compare-and-set attempts per run (default 5). */
  readonly attempts?: number;
}

const PAGE = 500;

export async function migrateRuns(options: MigrationOptions): Promise<RunMigration[]> {
  const { store, agent, target } = options;
  const now = options.now ?? (() => Date.now());
  if (options.dryRun !== true) await store.putAgentVersion(target);
  const ids: string[] = [];
  let cursor: { before: number; beforeRunId: string } | undefined;
  for (;;) {
    const page = await store.list({ limit: PAGE, ...(cursor ?? {}) });
    for (const run of page) if (run.agent === agent) ids.push(run.runId);
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) break;
    cursor = { before: last.updatedAt, beforeRunId: last.runId };
  }
  const results: RunMigration[] = [];
  for (const runId of ids) {
    const result = await migrateOne(store, runId, target, options.dryRun === true, now, options.attempts ?? 5);
    if (result !== null) results.push(result);
  }
  return results;
}

async function migrateOne(
  store: RunStore,
  runId: string,
  target: CompiledSop,
  dryRun: boolean,
  now: () => number,
  attempts: number,
): Promise<RunMigration | null> {
  let last: StoredRun | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const read = await store.read(runId, Number.NEGATIVE_INFINITY);
    if (read.status !== 'found') return null; // expired and swept meanwhile
    const run = read.run;
    last = run;
    const from = pinnedVersion(run);
    const facts = { runId, principal: run.principal, from, node: run.state.path.at(-1) ?? null };
    if (from === target.sourceHash) return { ...facts, status: 'current' };
    const decision = decideMigration(run.state, run.sourceHash, target);
    if (!decision.ok) return { ...facts, status: 'stays', reason: decision.reason };
    const movedTo = decision.state.path.at(-1) ?? null;
    const moved = { ...facts, movedTo, ...(decision.renamed.length === 0 ? {} : { renamed: decision.renamed }) };
    if (dryRun) return { ...moved, status: 'would-move' };
    const at = now();
    const audit: Omit<AuditEntry, 'seq'> = {
      tool: MIGRATE_TOOL,
      input: { from, to: target.sourceHash, version: target.meta.version, renamed: Object.fromEntries(decision.renamed) },
      outcome: 'ok',
      from: facts.node,
      to: movedTo,
      at,
      durationMs: 0,
    };
    const committed = await store.commit(runId, run.version, decision.state, audit, at);
    if (committed.ok) return { ...moved, status: 'moved' };
    if (committed.reason === 'missing') return null;
  }
  return {
    runId,
    principal: last?.principal ?? '',
    from: last === undefined ? '' : pinnedVersion(last),
    node: last?.state.path.at(-1) ?? null,
    status: 'stays',
    reason: `it kept changing while it was being moved (${attempts} attempts): a conversation is using it; run the migration again`,
  };
}
