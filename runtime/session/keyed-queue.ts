/**
 * Runs asynchronous tasks one at a time per key. A tool call reads a conversation's state, computes, and
 * writes it back; two calls of the same conversation in flight at once (a client may pipeline requests)
 * must not interleave those steps and lose an update. Different keys never wait for each other.
 *
 * This sits on every tool call, so it allocates little: a task of an idle key starts at once, and each task
 * adds one settled-either-way promise, which also drops the key once nothing is queued behind it (so idle
 * keys cost nothing).
 */

export interface KeyedQueue {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<void>>();
  return {
    run(key, task) {
      const previous = tails.get(key);
      const result = previous === undefined ? start(task) : previous.then(task);
      const settled = (): void => {
        if (tails.get(key) === tail) tails.delete(key);
      };
      const tail: Promise<void> = result.then(settled, settled);
      tails.set(key, tail);
      return result;
    },
  };
}

/** `task()`, with a synchronous throw turned into a rejection like any other failure of the task. */
function start<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (error) {
    return Promise.reject(error);
  }
}
