/**
 * The run store contract: where conversations ("runs") live between tool calls, so that they survive a
 * restart, a `kill -9`, and a load balancer that sends the next call to another instance. One small
 * interface, three implementations (memory, SQLite, PostgreSQL), one contract test suite run against all three.
 *
 * The rules every implementation keeps:
 *   - A run is complete data (`StoredRun`): owner, agent, the SOP version it is pinned to, its state, a version
 *     number and timestamps. Nothing about a run lives anywhere else.
 *   - Every tool call on a run is one `commit`: the next state (possibly unchanged) together with its audit
 *     entry, applied only if the run's version is still the one the caller read (compare-and-set), in one
 *     transaction. The version then goes up by one, so `version` = number of calls committed = number of
 *     audit entries. A lost race (or a caller's stale copy of the run) is `{ ok: false, reason: 'conflict',
 *     current }`, where `current` is the run as committed now, read in the same statement or transaction as
 *     the failed compare-and-set (on PostgreSQL, a race lost to a commit in flight reads the winner's row in a
 *     second statement): the caller decides again on `current` and commits again, without reading first.
 *     Nothing is ever overwritten. The tool's answer is sent only after `commit` resolved `ok`.
 *   - One round trip per call on a run the caller holds fresh: `commit` is one statement (PostgreSQL) or one
 *     transaction in process (SQLite), whatever its outcome; a stale copy costs the caller one more commit.
 *     Instances behind a load balancer keep their copies fresh from the changes a commit tells (`subscribe`).
 *   - Expiry is by idleness: a run whose `updatedAt` is older than the cutoff reads as `expired` until a sweep
 *     (`expire`) deletes it; after that it is unknown.
 *   - The store never reads the clock: callers pass times (ms since the epoch), so tests control time.
 *   - Compiled SOP versions that runs are pinned to are kept by hash (`putAgentVersion`), so a run started on
 *     an older build continues on that build on any instance, after any restart.
 *   - Legacy HTTP sessions (`Mcp-Session-Id`) map to their current run here, not in a process's memory, so any
 *     instance can serve any session.
 *   - What is written reads back exactly (JSON included, key order kept), with one exception: PostgreSQL text
 *     cannot hold U+0000 (and Node 22's node:sqlite cannot read it back), so outside JSON (ids, names, errors)
 *     those stores turn it into U+FFFD, on writes and look-ups alike.
 */
import type { RecordedResult } from '../../contract/run/call-results.js';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { CallRule } from '../../contract/run/call.js';
import type { MoveRule } from '../../contract/run/move.js';
import type { RunState } from '../../contract/run/state.js';

// What a run is, declared once in the contract (the step function decides on it); re-exported for the stores' users.
export type {
  ConfirmationPass,
  EvidenceRecord,
  Narrowing,
  PendingConfirmation,
  RunState,
  TodoItem,
  Unsettled,
} from '../../contract/run/state.js';
export { EMPTY_RUN_STATE } from '../../contract/run/state.js';

/** The SOP version a run is on: the one it was moved to, else the one it started on. */
export function pinnedVersion(run: Pick<StoredRun, 'sourceHash' | 'state'>): string {
  return run.state.pinned ?? run.sourceHash;
}

export interface StoredRun {
  /** At least 128 random bits; a capability: who holds it (and is its principal) may use the run. */
  readonly runId: string;
  /** Who started the run; only they may read or write it. */
  readonly principal: string;
  readonly agent: string;
  /** The compiled SOP version (`sha256:…` of its source) the run started on (`pinnedVersion`: the one it is on). */
  readonly sourceHash: string;
  readonly state: RunState;
  /** Calls committed so far; the compare-and-set token. */
  readonly version: number;
  readonly createdAt: number;
  /** Last call; idleness (and so expiry) is measured from here. */
  readonly updatedAt: number;
}

/**
 * `ok`, `refused` (the SOP turned the call down), `error` (a wrong call, or a domain call that failed); in gateway
 * mode also `pending` (a domain call sent on and not answered yet, or a question put to the user) and `unknown`
 * (a domain call whose outcome cannot be known: the server died or went silent after it may have received it).
 * A `pending` entry that no later entry answers was cut short by a crash: its outcome is unknown too.
 */
export type AuditOutcome = 'ok' | 'refused' | 'error' | 'pending' | 'unknown';

/** The rule that decided a domain call (gateway mode): the step function's (`contract/run/call.ts`). */
export type DomainRule = CallRule;

/** What decided a domain call and what came of it: one entry when it is refused or asked about, two when it is sent on (`forwarding`, then `answered`). */
export interface DomainCallDetail {
  readonly kind: 'domain';
  readonly server: string;
  readonly rule: DomainRule;
  /** The policy whose rule it was, for confirmations. */
  readonly policy?: string;
  /** The SOP version (`sha256:…`) the decision was made on. */
  readonly sop: string;
  readonly phase: 'decided' | 'forwarding' | 'answered';
  /** How the user's confirmation went: asked now, answered yes or no, or a confirmation step of the flowchart used instead. */
  readonly confirmation?: 'asked' | 'yes' | 'no' | 'step';
  /** How long the domain server took (answered entries). */
  readonly upstreamMs?: number;
  /** For a failed call: whether it may have reached the server. */
  readonly reached?: 'no' | 'maybe' | 'yes';
  /** A read (its server marks the tool `readOnlyHint`): recorded once, with its outcome, not before it was sent. */
  readonly read?: true;
  /** Answered entries: what the server answered (structured content and text), as the run read it for evidence and data. */
  readonly result?: RecordedResult;
  /**
   * Observe mode (`sop serve --gateway --observe`): the call was sent, and enforcement would have held it back (or
   * asked the user first): the rule and what it would have told the model.
   */
  readonly would?: WouldHaveDecided;
}

/** What enforcement would have decided of a call or a move that observe mode let through. */
export interface WouldHaveDecided {
  readonly decision: 'refuse' | 'ask';
  readonly rule: string;
  readonly reason: string;
  readonly policy?: string;
}

/**
 * What decided a move (`goto_node`) that was held back (the rule), or, in observe mode, that enforcement would have
 * held back (`would`), and the SOP version it was decided on. Accepted moves of enforce mode carry none.
 */
export interface MoveDetail {
  readonly kind: 'move';
  readonly rule?: MoveRule;
  readonly would?: WouldHaveDecided;
  readonly sop: string;
}

/** How a run started: in gateway mode, where the run sees every domain call. */
export interface StartDetail {
  readonly kind: 'start';
  readonly gateway: true;
  /** Observe mode: the run was started by the session's first domain call (the agent never called load_graph). */
  readonly implicit?: true;
}

/** The entry's domain call detail (gateway mode), or undefined for a toolkit call. */
export function domainDetailOf(entry: Pick<AuditEntry, 'detail'>): DomainCallDetail | undefined {
  return entry.detail?.kind === 'domain' ? entry.detail : undefined;
}

/** One tool call on a run, appended in the same transaction as the state it produced. */
export interface AuditEntry {
  /** 1-based; equals the run's version after this call. */
  readonly seq: number;
  readonly tool: string;
  /** The call's arguments, as received. */
  readonly input: unknown;
  readonly outcome: AuditOutcome;
  /** Current node before and after the call (null before the first move). */
  readonly from: string | null;
  readonly to: string | null;
  /** Why the call was refused or failed. */
  readonly error?: string;
  /** Gateway mode: what decided a domain call, and what came of it; a refused move: the rule that refused it. */
  readonly detail?: DomainCallDetail | MoveDetail | StartDetail;
  /** When the call started (ms since the epoch) and how long it took until its commit was issued. */
  readonly at: number;
  readonly durationMs: number;
}

export type RunRead =
  | { readonly status: 'found'; readonly run: StoredRun }
  /** `principal` so that another principal is told "unknown", exactly as for a run that never existed. */
  | { readonly status: 'expired'; readonly runId: string; readonly principal: string; readonly updatedAt: number }
  | { readonly status: 'unknown' };

export type CommitResult =
  | { readonly ok: true; readonly run: StoredRun }
  /**
   * The run is no longer at the version the caller read: `current` is the run as committed now, whatever its
   * idleness (the caller applies its own expiry rule to `current.updatedAt`, as it does to a run it holds).
   */
  | { readonly ok: false; readonly reason: 'conflict'; readonly current: StoredRun }
  /** No such run (never created, or expired and swept). */
  | { readonly ok: false; readonly reason: 'missing' };

/** A row of `sop runs list` and of the live page. */
export interface RunSummary {
  readonly runId: string;
  readonly principal: string;
  readonly agent: string;
  readonly sourceHash: string;
  readonly version: number;
  /** The last node of the path, or null before the first move. */
  readonly currentNode: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface RunListQuery {
  /** Only runs of this principal (omit for all: operators and the CLI). */
  readonly principal?: string;
  /** Most recently active first; at most this many (default 50, at most 500). */
  readonly limit?: number;
  /** Paging: only runs active before this `updatedAt` (the last row's value of the previous page). */
  readonly before?: number;
  /**
   * Paging, with `before`: the last row's `runId`. Runs active at exactly `before` that sort after it (rows of
   * one `updatedAt` are ordered by `runId`) are included too, so a page boundary inside one millisecond loses
   * no run. Without it, the page starts strictly before `before`.
   */
  readonly beforeRunId?: string;
}

export interface SessionRecord {
  readonly sessionId: string;
  readonly principal: string;
  /** The session's current run: the last `load_graph` of the session; null before it. */
  readonly runId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Something changed in a run (a commit, on this instance or another): what the live page listens to. */
export interface RunChange {
  readonly runId: string;
  readonly version: number;
  /**
   * The run as committed, when the change carries it: a commit told in process, and on PostgreSQL another
   * instance's commit of a run small enough for a notification. Instances keep their copies of runs fresh with it.
   */
  readonly run?: StoredRun;
}

export interface RunStore {
  /** `memory`, `sqlite` or `postgres`: for logs and the page. */
  readonly kind: string;

  /** Creates a run with its first audit entry (`load_graph`, seq 1): the run starts at version 1. */
  create(run: Omit<StoredRun, 'version'>, first: Omit<AuditEntry, 'seq'>): Promise<StoredRun>;
  /** The run, or why not; `expired` when its last call is older than `idleBefore`. */
  read(runId: string, idleBefore: number): Promise<RunRead>;
  /**
   * Applies `state` and appends `audit` (its seq is `expectedVersion + 1`) only if the run is still at
   * `expectedVersion`, in one transaction; `updatedAt` becomes `now`. Otherwise changes nothing and answers
   * `conflict` with the run as it is now, or `missing`.
   */
  commit(runId: string, expectedVersion: number, state: RunState, audit: Omit<AuditEntry, 'seq'>, now: number): Promise<CommitResult>;
  /**
   * Deletes runs (with their audit) idle since before `idleBefore`, then sessions opened or repointed before it
   * whose current run is gone (a session lives as long as its run is active); returns how many runs went.
   */
  expire(idleBefore: number): Promise<number>;
  list(query: RunListQuery): Promise<readonly RunSummary[]>;
  /** The run's audit entries in order, from `afterSeq` + 1 (default: all), at most `limit` (default 1000). */
  audit(runId: string, options?: { readonly afterSeq?: number; readonly limit?: number }): Promise<readonly AuditEntry[]>;

  /** Keeps a compiled SOP version for runs pinned to it (idempotent; the hash is its identity). */
  putAgentVersion(sop: CompiledSop): Promise<void>;
  getAgentVersion(sourceHash: string): Promise<CompiledSop | undefined>;

  openSession(session: SessionRecord): Promise<void>;
  getSession(sessionId: string): Promise<SessionRecord | undefined>;
  /** Points the session at its new current run (after `load_graph`). */
  setSessionRun(sessionId: string, runId: string, now: number): Promise<void>;
  closeSession(sessionId: string): Promise<void>;

  /**
   * Calls `listener` after every commit and create of any instance sharing this store; returns unsubscribe.
   * Changes arrive after they are durable, never for a failed commit. A listener that throws affects neither
   * the commit nor the other listeners (its error goes to the store's error reporter). Delivery is best-effort
   * for live views: every store tells the listeners of its own process of its own commits synchronously,
   * before the commit's promise resolves; memory and SQLite tell no one else. PostgreSQL also tells listeners
   * of every other instance's commits (LISTEN/NOTIFY, sent only while some instance has listeners), once this
   * subscription is in place in the database (a few milliseconds after the first `subscribe`), and misses what
   * was committed while its listening connection was being re-established.
   */
  subscribe(listener: (change: RunChange) => void): () => void;
  /** Releases the engine (connections, file handles); no listener is called afterwards. Idempotent. */
  close(): Promise<void>;
}
