/**
 * Hears every instance's commits through PostgreSQL's LISTEN/NOTIFY. Each commit and create notifies
 * `RUN_CHANGES_CHANNEL` in its own statement, so a notification goes out exactly when (and only if) the change
 * is committed. One dedicated connection per store listens (a pooled connection would be handed to other
 * queries); when it is lost it is re-established with a growing delay (50 ms doubling up to 5 s), and what was
 * committed in between is not heard: listeners are live views, which re-read what they show.
 */
import type pg from 'pg';
import type { StoreErrorReporter } from './change-listeners.js';
import type { RunChange } from './run-store.js';

export const RUN_CHANGES_CHANNEL = 'sop_run_changes';

export interface ChangeFeedOptions {
  /** A new, unconnected client for the listening connection. */
  readonly newClient: () => pg.Client;
  readonly onChange: (change: RunChange) => void;
  readonly onError: StoreErrorReporter;
}

export interface ChangeFeed {
  /** Connects and listens; rejects when the first connection fails (the store then does not open). */
  start(): Promise<void>;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 50;
const LAST_RETRY_MS = 5000;

export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;
  let closed = false;

  async function listen(): Promise<void> {
    const candidate = options.newClient();
    candidate.on('notification', (message) => deliver(message.payload));
    // Both may fire for one failure; `lost` acts once per connection.
    candidate.on('error', (error) => lost(candidate, error));
    candidate.on('end', () => lost(candidate));
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
    } catch (error) {
      candidate.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await candidate.end();
      return;
    }
    client = candidate;
  }

  function deliver(payload: string | undefined): void {
    const change = parseChange(payload);
    if (change === undefined) options.onError(`ignored a notification on ${RUN_CHANGES_CHANNEL} that is not a run change: ${payload}`);
    else options.onChange(change);
  }

  function lost(connection: pg.Client, error?: unknown): void {
    if (connection !== client || closed) return;
    client = undefined;
    options.onError('the run store lost its PostgreSQL LISTEN connection; reconnecting', error);
    connection.end().catch(() => {});
    reconnectLater();
  }

  function reconnectLater(): void {
    retry = setTimeout(() => {
      retry = undefined;
      listen().then(
        () => {
          delay = FIRST_RETRY_MS;
        },
        (error: unknown) => {
          if (closed) return;
          options.onError(`the run store could not LISTEN again on PostgreSQL; retrying in ${delay} ms`, error);
          delay = Math.min(delay * 2, LAST_RETRY_MS);
          reconnectLater();
        },
      );
    }, delay);
    retry.unref();
  }

  return {
    start: listen,
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end();
    },
  };
}

function parseChange(payload: string | undefined): RunChange | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Partial<RunChange>;
    return typeof value.runId === 'string' && Number.isInteger(value.version)
      ? { runId: value.runId, version: value.version as number }
      : undefined;
  } catch {
    return undefined;
  }
}
