/**
 * The listeners of one store's `subscribe`. A change is told after it is durable, so a listener's failure must
 * not turn a committed call into a failed one, nor keep the other listeners from hearing of it: each listener
 * runs on its own, and what it throws goes to the store's error reporter.
 */
import type { RunChange } from './run-store.js';

/** Where a store reports what goes wrong outside any caller's request (a listener, a lost connection). */
export type StoreErrorReporter = (message: string, error?: unknown) => void;

export interface ChangeListeners {
  add(listener: (change: RunChange) => void): () => void;
  emit(change: RunChange): void;
  /** Drops every listener (the store is closing). */
  clear(): void;
}

export function createChangeListeners(onError: StoreErrorReporter): ChangeListeners {
  const listeners = new Set<(change: RunChange) => void>();
  return {
    add(listener) {
      // A wrapper per subscription: subscribing the same function twice gives two independent subscriptions.
      const entry = (change: RunChange) => listener(change);
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    emit(change) {
      for (const listener of listeners) {
        try {
          listener(change);
        } catch (error) {
          onError(`a run change listener failed on ${change.runId} v${change.version}`, error);
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
}
