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
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        // Re-inserting moves the key to the end: Map iteration order is insertion order.
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K);
    },
    delete(key) {
      entries.delete(key);
    },
    prune(drop) {
      for (const [key, value] of entries) if (drop(key, value)) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
