/**
 * Runs asynchronous tasks one at a time per key. A tool call reads a conversation's state, computes, and
 * writes it back; two calls of the same conversation in flight at once (a client may pipeline requests)
 * must not interleave those steps and lose an update. Different keys never wait for each other.
 */

export interface KeyedQueue {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      // Drop the entry once nothing is queued behind this task, so idle keys cost nothing.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
