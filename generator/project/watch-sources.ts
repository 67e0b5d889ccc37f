/**
 * Calls back when a project's SOP files change on disk: `sop build --watch` rebuilds, the preview redraws, the
 * language server re-reads the files no editor has open. Editors save a file in several steps (a temporary file
 * and a rename, or truncate and write), so changes are gathered for a moment before the callback runs, and a
 * callback still running is never started again: the changes that arrive meanwhile run it once more after it.
 * A failure of the callback goes to `onError`; the watch goes on.
 */
import { type FSWatcher, watch } from 'node:fs';

export interface SourceWatch {
  close(): void;
}

export interface WatchOptions {
  /** How long changes are gathered before the callback runs, in ms (default 100). */
  readonly settleMs?: number;
  readonly onError?: (error: unknown) => void;
}

/** Watches the `.md` files of `dir`; `onChange` gets the names that changed since it last ran. */
export function watchSources(
  dir: string,
  onChange: (names: readonly string[]) => Promise<void> | void,
  options: WatchOptions = {},
): SourceWatch {
  const settleMs = options.settleMs ?? 100;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let closed = false;

  const run = (): void => {
    if (closed || running !== null || changed.size === 0) return;
    const names = [...changed].sort();
    changed.clear();
    running = Promise.resolve()
      .then(() => onChange(names))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
        run();
      });
  };
  const watcher: FSWatcher = watch(dir, (_event, name) => {
    // Some platforms do not say which file changed: then any file may have.
    const file = name === null ? '' : String(name);
    if (file !== '' && !file.endsWith('.md')) return;
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(run, settleMs);
  });
  watcher.on('error', (error) => options.onError?.(error));
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
    },
  };
}
