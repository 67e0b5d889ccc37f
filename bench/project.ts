/**
 * Where things are: the toolkit's root (the bench runs from `dist/bench/`), the transpiled CLI and the floors'
 * scripts, and the transpiled parts a scratch project copies so that it runs the toolkit as built.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: `dist/bench/project.js` → `../..`. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Absolute path of a file under `dist/`. */
export function distPath(...parts: string[]): string {
  return join(ROOT, 'dist', ...parts);
}

export const NOOP_FLOOR = distPath('bench', 'floors', 'noop-server.js');
export const FORWARD_PROXY_FLOOR = distPath('bench', 'floors', 'forward-proxy.js');
export const PARSE_FLOOR = distPath('bench', 'floors', 'parse-and-write.js');
export const IDLE_RUNS_PROBE = distPath('bench', 'probes', 'idle-runs.js');
export const BUILD_PHASES_PROBE = distPath('bench', 'probes', 'build-phases.js');
export const REPLAY_MEMORY_PROBE = distPath('bench', 'probes', 'replay-memory.js');

/** The transpiled folders of `dist/` that the CLI needs at run time (copied into scratch projects). */
export const RUNTIME_PARTS = ['contract', 'cli', 'generator', 'runtime'] as const;
