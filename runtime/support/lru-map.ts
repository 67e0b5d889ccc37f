/**
 * A Map that keeps at most `capacity` entries, dropping the least recently used. For what a process may keep
 * of unbounded sets (runs it has seen, SOP versions it has prepared): memory stays bounded however many runs
 * or rebuilds a long-lived server sees, and anything dropped is read again from where it lives.
 */
export interface LruMap<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  /** Deletes every entry `drop` says to. */
  prune(drop: (key: K, value: V) => boolean): void;
  readonly size: number;
}

export function createLruMap<K, V>(capacity: number): LruMap<K, V> {
  const entries = new Map<K, V>();
  /** The most recently used key, last in `entries`: using it again moves nothing. */
  let newest: K | undefined;
  return {
    get(key) {
      const value = entries.get(key);
      // The most recent key (a conversation's run, call after call) is already where a get would move it.
      if (value !== undefined && key !== newest) {
        // Re-inserting moves the key to the end: Map iteration order is insertion order.
        entries.delete(key);
        entries.set(key, value);
        newest = key;
      }
      return value;
    },
    set(key, value) {
      if (key !== newest) entries.delete(key);
      entries.set(key, value);
      newest = key;
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
    delete(key) {
      entries.delete(key);
      if (key === newest) newest = undefined;
    },
    prune(drop) {
      for (const [key, value] of entries) if (drop(key, value)) entries.delete(key);
      if (newest !== undefined && !entries.has(newest)) newest = undefined;
    },
    get size() {
      return entries.size;
    },
  };
}
