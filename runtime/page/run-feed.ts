/**
 * Live changes of runs for the page's event streams, from the run store's `subscribe`: in-process events on the
 * memory and SQLite stores, LISTEN/NOTIFY on PostgreSQL, so a call served by any instance sharing the store
 * shows on a page served by this one. One store subscription per page, held only while some stream is open;
 * changes that arrive together are read once per run (the latest version), then delivered as a row to the
 * streams of the run's principal only.
 */
import type { Logger } from '../support/logger.js';
import type { RunChange, RunStore } from '../store/run-store.js';
import type { RunRows } from './run-rows.js';
import type { RunRow } from './run-shapes.js';

export interface RunFeed {
  /** Delivers a row for every change of `principal`'s runs until the returned function is called. */
  follow(principal: string, deliver: (row: RunRow) => void): () => void;
  /** Streams open now. */
  readonly followers: number;
}

export function createRunFeed(store: RunStore, rows: RunRows, logger: Logger): RunFeed {
  const followers = new Map<string, Set<(row: RunRow) => void>>();
  let count = 0;
  let unsubscribe: (() => void) | undefined;
  const pending = new Set<string>();
  let draining = false;

  const onChange = (change: RunChange): void => {
    pending.add(change.runId);
    if (draining) return;
    draining = true;
    setImmediate(() => void drain());
  };

  async function drain(): Promise<void> {
    while (pending.size > 0) {
      const batch = [...pending];
      pending.clear();
      for (const runId of batch) {
        try {
          await deliver(runId);
        } catch (error) {
          logger.error(`the runs page could not read run ${runId} after it changed`, error);
        }
      }
    }
    draining = false;
  }

  async function deliver(runId: string): Promise<void> {
    const read = await store.read(runId, 0);
    if (read.status !== 'found') return;
    const listeners = followers.get(read.run.principal);
    if (listeners === undefined) return;
    const row = await rows.row(read.run);
    for (const listener of listeners) listener(row);
  }

  return {
    follow(principal, deliver) {
      let listeners = followers.get(principal);
      if (listeners === undefined) followers.set(principal, (listeners = new Set()));
      listeners.add(deliver);
      count += 1;
      unsubscribe ??= store.subscribe(onChange);
      let followed = true;
      return () => {
        if (!followed) return;
        followed = false;
        listeners.delete(deliver);
        if (listeners.size === 0) followers.delete(principal);
        count -= 1;
        if (count === 0) {
          unsubscribe?.();
          unsubscribe = undefined;
        }
      };
    },
    get followers() {
      return count;
    },
  };
}
