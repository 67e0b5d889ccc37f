/**
 * The sessions a service serves (stdio's one, HTTP's `Mcp-Session-Id`): opened, checked on each request, closed, and
 * the run each one is on. The store keeps them; this process counts the live ones against its cap and remembers who
 * owns each, so that a 2025-era HTTP request, which names its session on every call, costs no read of the store.
 */
import { newSessionId } from '../support/ids.js';
import { createLruMap } from '../support/lru-map.js';
import type { RunStore } from '../store/run-store.js';
import type { Caller } from './calls.js';
import type { Clock, ServiceLimits } from './limits.js';

export type SessionOpening = { readonly ok: true; readonly sessionId: string } | { readonly ok: false; readonly error: string };

export interface Sessions {
  /** Whether this process holds as many live sessions as it may. */
  full(): boolean;
  /** A new session of `principal`, unless this process is full. */
  open(principal: string): Promise<SessionOpening>;
  /** Whether the session exists and belongs to `principal`. */
  has(sessionId: string, principal: string): Promise<boolean>;
  close(sessionId: string, principal: string): Promise<boolean>;
  /** A call came in the session: it is live until it has been idle for the runs' idle time. */
  touch(sessionId: string): void;
  /** The run the caller's session is on: a connection's as set here, another's from the store (any instance may set it). */
  currentRun(caller: Caller): Promise<string | undefined>;
  /** The caller's session, if any, is on `runId` from now on (a run it started). */
  follow(caller: Caller, runId: string, now: number): Promise<void>;
  /** Forgets the sessions idle since `cutoff`, and the owners read too long ago to be trusted. */
  forgetIdle(cutoff: number): void;
}

/** How long a session's owner, once read, is trusted without reading it again (see `owners`). */
const SESSION_RECHECK_MS = 5_000;

export function createSessions(store: RunStore, clock: Clock, limits: ServiceLimits): Sessions {
  /** Sessions this process opened or served, by last use: the live-session cap counts them. */
  const live = new Map<string, number>();
  /**
   * Who owns a session, as last read from the store: the owner never changes, so it is read again only after
   * `SESSION_RECHECK_MS` (a session another instance ended is still served here for at most that long; one ended here
   * is gone at once).
   */
  const owners = createLruMap<string, { readonly principal: string; readonly readAt: number }>(limits.maxLiveSessions);
  /**
   * The current run of each session held on a long-lived connection (stdio), as `load_graph` set it here: no other
   * process can call in such a session, so a call in it that names no `run_id` is not a read of the store.
   */
  const connectionRuns = createLruMap<string, string>(limits.maxLiveSessions);
  const full = () => live.size >= limits.maxLiveSessions;

  return {
    full,
    async open(principal) {
      if (full()) {
        return {
          ok: false,
          error: `This server holds ${limits.maxLiveSessions} live sessions, its limit: end finished sessions (HTTP DELETE) or try again later.`,
        };
      }
      const sessionId = newSessionId();
      const now = clock.now();
      await store.openSession({ sessionId, principal, runId: null, createdAt: now, updatedAt: now });
      live.set(sessionId, now);
      owners.set(sessionId, { principal, readAt: now });
      return { ok: true, sessionId };
    },
    async has(sessionId, principal) {
      const now = clock.now();
      const known = owners.get(sessionId);
      if (known !== undefined && now - known.readAt < SESSION_RECHECK_MS) return known.principal === principal;
      const session = await store.getSession(sessionId);
      if (session === undefined) {
        owners.delete(sessionId);
        return false;
      }
      owners.set(sessionId, { principal: session.principal, readAt: now });
      return session.principal === principal;
    },
    async close(sessionId, principal) {
      const session = await store.getSession(sessionId);
      if (session === undefined || session.principal !== principal) return false;
      await store.closeSession(sessionId);
      live.delete(sessionId);
      owners.delete(sessionId);
      connectionRuns.delete(sessionId);
      return true;
    },
    touch(sessionId) {
      live.set(sessionId, clock.now());
    },
    async currentRun(caller) {
      if (caller.sessionId === undefined) return undefined;
      const known = caller.channel === 'connection' ? connectionRuns.get(caller.sessionId) : undefined;
      return known ?? (await store.getSession(caller.sessionId))?.runId ?? undefined;
    },
    async follow(caller, runId, now) {
      if (caller.sessionId === undefined) return;
      await store.setSessionRun(caller.sessionId, runId, now);
      if (caller.channel === 'connection') connectionRuns.set(caller.sessionId, runId);
    },
    forgetIdle(cutoff) {
      for (const [sessionId, lastUsed] of live) if (lastUsed < cutoff) live.delete(sessionId);
      // An owner read long enough ago is read again anyway: keeping it would only hold memory for idle sessions.
      const stale = clock.now() - SESSION_RECHECK_MS;
      owners.prune((_, owner) => owner.readAt < stale);
    },
  };
}
