/**
 * How a call changes a run: read the run (this process's copy when it has one), check its owner, decide on it with its
 * pinned agent, and commit the next state with the call's audit entry if the run is still at the version read
 * (compare-and-set): one round trip to the store when this process's copy is fresh. Another instance may have moved
 * the run meanwhile: the failed commit returns the run as it is now, in the same round trip, and the call is decided
 * again on it, a few times at most. A run someone else owns reads exactly like an unknown run.
 *
 * The run tools and the gateway's domain calls commit through it; what to decide is theirs (`decide`). Behind a load
 * balancer it follows the store's changes, which on PostgreSQL carry other instances' commits: its copies stay fresh
 * without a read.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AgentSource, PinnedAgent } from '../agents/agent-source.js';
import { type AuditEntry, pinnedVersion, type RunStore, type StoredRun } from '../store/run-store.js';
import { createLruMap } from '../support/lru-map.js';
import type { RunFacts } from '../tools/tool-definitions.js';
import { errorAnswer, storeFailure, unknownRun } from './calls.js';
import type { Caller } from './calls.js';
import type { Clock, ServiceLimits } from './limits.js';
import type { Logger } from '../support/logger.js';
import type { ToolCallSpan } from './tracing.js';

/** What a call decides on a run: the next state, its audit entry, and what the caller wants back. */
export interface Decided<T> {
  readonly state: StoredRun['state'];
  readonly audit: Omit<AuditEntry, 'seq' | 'durationMs'>;
  readonly value: T;
}

export type Decide<T> = (run: StoredRun, pinned: PinnedAgent, facts: RunFacts) => Decided<T>;

/** What a call is answered instead of its own answer: an unknown or expired run, the store down, a run that kept changing. */
export interface Refused {
  readonly error: CallToolResult;
}

export interface RunCommits {
  /**
   * Decides on the run (`decide`, with its pinned agent) and commits the result: what `decide` returned with the run
   * committed, or the answer to give instead.
   */
  commit<T>(
    runId: string,
    caller: Caller,
    tool: string,
    span: ToolCallSpan,
    decide: Decide<T>,
  ): Promise<{ readonly value: T; readonly run: StoredRun } | Refused>;
  /** The run and its pinned agent, read and not committed (a read's decision, which may need no commit). */
  peek(runId: string, caller: Caller, tool: string): Promise<{ readonly run: StoredRun; readonly pinned: PinnedAgent } | Refused>;
  /** A run this process just created (`load_graph`): its copy, kept for the calls that follow. */
  keep(run: StoredRun): void;
  /** Stops following the store's changes. */
  close(): void;
}

export interface RunCommitsOptions {
  readonly store: RunStore;
  readonly agents: AgentSource;
  readonly clock: Clock;
  readonly limits: ServiceLimits;
  readonly logger: Logger;
  /** Keep the copies fresh from the store's changes (other instances' commits): see `SessionServiceOptions`. */
  readonly follow?: boolean;
}

export function createRunCommits({ store, agents, clock, limits, logger, follow }: RunCommitsOptions): RunCommits {
  const runs = createLruMap<string, StoredRun>(limits.runCacheSize);
  // Another instance committed on a run this process holds a copy of (a load balancer sends a conversation's calls
  // to either): the change brings the run as committed where the store can, so the next call here decides on the
  // run as it is and commits in one statement, instead of failing its compare-and-set once on the old copy.
  const stopFollowing =
    follow === true
      ? store.subscribe((change) => {
          if (change.run === undefined) return;
          const held = runs.get(change.runId);
          if (held !== undefined && held.version < change.version) runs.set(change.runId, change.run);
        })
      : () => {};

  /** The run, from this process's copy when it has one; any problem as the error message the caller gets. */
  async function readRun(runId: string, caller: Caller): Promise<StoredRun | { readonly error: string }> {
    const cutoff = clock.now() - limits.runIdleMs;
    const cached = runs.get(runId);
    let run: StoredRun;
    if (cached !== undefined && cached.updatedAt >= cutoff) run = cached;
    else {
      const read = await store.read(runId, cutoff);
      if (read.status === 'unknown') return { error: unknownRun(runId) };
      if (read.status === 'expired') {
        runs.delete(runId);
        if (read.principal !== caller.principal) return { error: unknownRun(runId) };
        return { error: `Run ${runId} expired: it was idle for more than ${duration(limits.runIdleMs)}. Start a new run with load_graph.` };
      }
      run = read.run;
      runs.set(runId, run);
    }
    if (run.principal !== caller.principal) return { error: unknownRun(runId) };
    return run;
  }

  /** The run read for `tool`, or the answer to give instead. */
  async function readFor(runId: string, caller: Caller, tool: string): Promise<StoredRun | Refused> {
    let run: StoredRun | { readonly error: string };
    try {
      run = await readRun(runId, caller);
    } catch (error) {
      return { error: storeFailure(logger, tool, error) };
    }
    return 'error' in run ? { error: errorAnswer(run.error) } : run;
  }

  return {
    async commit(runId, caller, tool, span, decide) {
      for (let attempt = 0; attempt < limits.commitAttempts; attempt += 1) {
        const run = await readFor(runId, caller, tool);
        if ('error' in run) return run;
        const pinned = await agents.pinned(run.agent, pinnedVersion(run));
        const decided = decide(run, pinned, { runId, version: run.version });
        const now = clock.now();
        const audit: Omit<AuditEntry, 'seq'> = { ...decided.audit, durationMs: now - decided.audit.at };
        let committed: Awaited<ReturnType<RunStore['commit']>>;
        try {
          committed = await store.commit(runId, run.version, decided.state, audit, now);
        } catch (error) {
          runs.delete(runId);
          return { error: storeFailure(logger, tool, error) };
        }
        if (committed.ok) {
          runs.set(runId, committed.run);
          span.committed({ runId, agent: run.agent, step: committed.run.version, from: audit.from, to: audit.to, outcome: audit.outcome });
          return { value: decided.value, run: committed.run };
        }
        if (committed.reason === 'missing') {
          runs.delete(runId);
          return { error: errorAnswer(unknownRun(runId)) };
        }
        runs.set(runId, committed.current);
      }
      return {
        error: errorAnswer(
          `Run ${runId} kept changing while this call was decided (${limits.commitAttempts} attempts): another client is using it at the same time. Nothing was applied; call ${tool} again.`,
        ),
      };
    },
    async peek(runId, caller, tool) {
      const run = await readFor(runId, caller, tool);
      if ('error' in run) return run;
      return { run, pinned: await agents.pinned(run.agent, pinnedVersion(run)) };
    },
    keep(run) {
      runs.set(run.runId, run);
    },
    close: stopFollowing,
  };
}

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
