/**
 * Where things are: the toolkit's root (the bench runs from `dist/bench/`), its transpiled parts, and which of
 * them exist yet. A row whose part is missing reports `null` with a note instead of inventing a number.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root: `dist/bench/project.js` → `../..`. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Absolute path of a file under `dist/`. */
export function distPath(...parts: string[]): string {
  return join(ROOT, 'dist', ...parts);
}

export const CLI = distPath('cli', 'main.js');
export const NOOP_FLOOR = distPath('bench', 'floors', 'noop-server.js');

/** The parts rows depend on, by the transpiled file that proves they exist. */
export const PARTS = {
  buildCommand: distPath('cli', 'commands', 'build.js'),
  serveCommand: distPath('cli', 'commands', 'serve.js'),
  compileSop: distPath('generator', 'compile-sop.js'),
  sopTools: distPath('runtime', 'mcp', 'sop-tools.js'),
} as const;

export type Part = keyof typeof PARTS;

/** The parts (of `needed`) that are not there yet, as a note for an unmeasured row; null when all are. */
export function missing(...needed: Part[]): string | null {
  const absent = needed.filter((p) => !existsSync(PARTS[p]));
  return absent.length === 0 ? null : `not wired: ${absent.map((p) => PARTS[p].slice(ROOT.length)).join(', ')} does not exist yet`;
}

/** Imports a transpiled module by absolute path (for parts written by others, typed by the caller). */
export async function importDist<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(file).href)) as T;
}
