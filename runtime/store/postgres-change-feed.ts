/**
 * Hears the other instances' commits through PostgreSQL's LISTEN/NOTIFY, and only while someone here wants
 * them (a runs page is open): NOTIFY is not free (every notifying commit takes a cluster-wide lock on the
 * notification queue at commit), so a commit sends one only while another instance holds a lease in
 * `sop_run_listeners` (the commit checks in the same statement, `postgres-run-store.ts`).
 *
 * While listening is wanted, one dedicated connection (a pooled one would be handed to other queries) LISTENs,
 * then writes this instance's lease (`expires_at` = the database's now + `leaseMs`) and renews it every third
 * of that; when no longer wanted, it deletes the lease and closes. A lost connection is re-established with a
 * growing delay (50 ms doubling up to 5 s); an instance that dies stops costing its peers notifications when
 * its lease runs out. What was committed before the lease was in place, or while the connection was being
 * re-established, is not heard: listeners are live views, which re-read what they show.
 *
 * This instance's own commits are told to its listeners in process by the store, so a notification this
 * instance sent (its own id in `from`) is ignored here.
 */
import type pg from 'pg';
import type { StoreErrorReporter } from './change-listeners.js';
import type { RunChange, RunState, StoredRun } from './run-store.js';

export const RUN_CHANGES_CHANNEL = 'sop_run_changes';

/** Whether another instance than `$1` listens now: the condition of every notification. */
export const OTHERS_LISTEN = 'EXISTS (SELECT 1 FROM sop_run_listeners WHERE expires_at > now() AND listener_id <> $1)';

const LEASE = {
  hold:
    "INSERT INTO sop_run_listeners (listener_id, expires_at) VALUES ($1, now() + $2 * interval '1 millisecond') " +
    'ON CONFLICT (listener_id) DO UPDATE SET expires_at = excluded.expires_at',
  release: 'DELETE FROM sop_run_listeners WHERE listener_id = $1',
  /** Leases of instances that died: harmless once expired, removed so the table stays a handful of rows. */
  sweep: 'DELETE FROM sop_run_listeners WHERE expires_at < now()',
} as const;

export interface ChangeFeedOptions {
  /** This store instance: its lease, and the `from` of the notifications it sends. */
  readonly instanceId: string;
  /** A new, unconnected client for the listening connection. */
  readonly newClient: () => pg.Client;
  readonly onChange: (change: RunChange) => void;
  readonly onError: StoreErrorReporter;
  /** How long a lease lasts unless renewed (default 30 s). */
  readonly leaseMs?: number;
}

export interface ChangeFeed {
  /** Starts (true) or stops (false) hearing the other instances; takes effect in the background. */
  listen(wanted: boolean): void;
  /** Resolves once the last `listen` has taken effect, or is waiting to retry a lost connection. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 30_000;
const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 5000;

export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let wanted = false;
  let closed = false;
  let client: pg.Client | undefined;
  let renewal: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;
  let driving: Promise<void> | undefined;

  const shouldConnect = () => wanted && !closed && client === undefined;
  const shouldDisconnect = () => (!wanted || closed) && client !== undefined;

  /** Moves the connection towards what is wanted, one step at a time, until they agree (or a retry waits). */
  function drive(): void {
    if (driving !== undefined) return;
    driving = (async () => {
      while (retry === undefined) {
        if (shouldConnect()) {
          try {
            await connect();
            delay = FIRST_RETRY_MS;
          } catch (error) {
            if (closed) break;
            options.onError(`the run store could not LISTEN on PostgreSQL; retrying in ${delay} ms`, error);
            retryLater();
          }
        } else if (shouldDisconnect()) {
          await disconnect();
        } else break;
      }
    })().finally(() => {
      driving = undefined;
      // `listen` may have changed its mind between the loop's last look and here.
      if (retry === undefined && (shouldConnect() || shouldDisconnect())) drive();
    });
  }

  async function connect(): Promise<void> {
    const candidate = options.newClient();
    candidate.on('notification', (message) => deliver(message.payload));
    // Both may fire for one failure; `lost` acts once per connection.
    candidate.on('error', (error) => lost(candidate, error));
    candidate.on('end', () => lost(candidate));
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
      await candidate.query(LEASE.sweep);
      await candidate.query(LEASE.hold, [options.instanceId, leaseMs]);
    } catch (error) {
      candidate.end().catch(() => {});
      throw error;
    }
    client = candidate;
    renewal = setInterval(() => {
      candidate
        .query(LEASE.hold, [options.instanceId, leaseMs])
        .catch((error: unknown) => options.onError('the run store could not renew its PostgreSQL listener lease', error));
    }, leaseMs / 3);
    renewal.unref();
  }

  async function disconnect(): Promise<void> {
    const current = client as pg.Client;
    client = undefined;
    clearInterval(renewal);
    // A release that fails (the connection is gone) leaves a lease that expires on its own.
    await current.query(LEASE.release, [options.instanceId]).catch(() => {});
    await current.end().catch(() => {});
  }

  function deliver(payload: string | undefined): void {
    const parsed = parseChange(payload);
    if (parsed === undefined) options.onError(`ignored a notification on ${RUN_CHANGES_CHANNEL} that is not a run change: ${payload}`);
    else if (parsed.from !== options.instanceId) options.onChange(parsed.change);
  }

  function lost(connection: pg.Client, error?: unknown): void {
    if (connection !== client || closed) return;
    client = undefined;
    clearInterval(renewal);
    options.onError('the run store lost its PostgreSQL LISTEN connection; reconnecting', error);
    connection.end().catch(() => {});
    retryLater();
  }

  function retryLater(): void {
    retry = setTimeout(() => {
      retry = undefined;
      drive();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, LAST_RETRY_MS);
  }

  return {
    listen(on) {
      wanted = on;
      drive();
    },
    async settled() {
      while (driving !== undefined) await driving;
    },
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      retry = undefined;
      drive();
      while (driving !== undefined) await driving;
    },
  };
}

function parseChange(payload: string | undefined): { readonly change: RunChange; readonly from: unknown } | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(payload ?? '') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { runId, version, from } = value;
  if (typeof runId !== 'string' || typeof version !== 'number' || !Number.isInteger(version)) return undefined;
  const run = committedRun(value, runId, version);
  return { change: run === undefined ? { runId, version } : { runId, version, run }, from };
}

/** The run a commit's notification carries (`postgres-run-store.ts`), when it carries one whole. */
function committedRun(value: Record<string, unknown>, runId: string, version: number): StoredRun | undefined {
  const { principal, agent, sourceHash, createdAt, updatedAt, state } = value;
  if (typeof principal !== 'string' || typeof agent !== 'string' || typeof sourceHash !== 'string') return undefined;
  if (typeof createdAt !== 'number' || typeof updatedAt !== 'number') return undefined;
  if (typeof state !== 'object' || state === null || !Array.isArray((state as { path?: unknown }).path)) return undefined;
  return { runId, principal, agent, sourceHash, version, createdAt, updatedAt, state: state as RunState };
}
