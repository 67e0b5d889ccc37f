/**
 * Runs asynchronous tasks one at a time per key (a run). A tool call reads a run, computes, and commits; two
 * calls of the same run in flight at once in this process (a client may pipeline requests) would otherwise
 * both read one version and one of them would have to retry its compare-and-set. Serialising them here keeps
 * conflicts for what only the store can see: another instance moving the same run. Different keys never wait
 * for each other.
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
