/**
 * A project's SOP sources as the build reads them: every `*.md` directly in the SOP folder, sorted, named by their
 * project path (`sops/x.md`, `/`-separated, as diagnostics and generated headers name them), hashed as the runtime
 * hashes them. An editor's unsaved buffers can stand in for files on disk (and for files not saved yet), so what an
 * editor shows is what the next build reports.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { hashSource } from '../../contract/source-hash.js';
import type { SourceFile } from './plan-build.js';
import { LIMITS } from '../limits.js';

/** Where a project's SOPs are and where its build writes (absolute folders), and whether it writes path fixtures. */
export interface ProjectLayout {
  /** The app root (the nearest folder with a package.json): project paths are relative to it. */
  readonly root: string;
  readonly sopsDir: string;
  readonly outDir: string;
  /** Also write each agent's golden paths (`<out>/<agent>/paths.json`). */
  readonly paths: boolean;
}

/** A source with its hash (always known once read). */
export interface ProjectSource extends SourceFile {
  readonly sourceHash: string;
}

/** The project path of an absolute path: relative to the root, `/`-separated. */
export function projectFileOf(layout: ProjectLayout, path: string): string {
  return relative(layout.root, resolve(path)).split(sep).join('/');
}

/** The absolute path of a project path. */
export function projectPathOf(layout: ProjectLayout, file: string): string {
  return resolve(layout.root, file);
}

/** Whether an absolute path is one of the project's SOPs: a `.md` file directly in its SOP folder. */
export function isProjectSource(layout: ProjectLayout, path: string): boolean {
  const abs = resolve(path);
  return abs.endsWith('.md') && dirname(abs) === resolve(layout.sopsDir);
}

/**
 * The project's sources, sorted by project path. `open` (project path → text) replaces a file's text on disk, and
 * adds a SOP that is not saved yet. A missing SOP folder is no SOP.
 */
export function readSources(layout: ProjectLayout, open: ReadonlyMap<string, string> = new Map()): ProjectSource[] {
  const texts = new Map<string, string>();
  if (existsSync(layout.sopsDir) && statSync(layout.sopsDir).isDirectory()) {
    for (const name of readdirSync(layout.sopsDir)) {
      const path = join(layout.sopsDir, name);
      const file = projectFileOf(layout, path);
      if (!name.endsWith('.md') || open.has(file)) continue;
      const bytes = readIfStillThere(path);
      // The hash of the decoded text is the hash of the bytes (`hashSource` decodes them the same way): decode once.
      if (bytes !== null) texts.set(file, bytes.toString('utf8'));
    }
  }
  for (const [file, text] of open) if (isProjectSource(layout, projectPathOf(layout, file))) texts.set(file, text);
  return [...texts.keys()].sort().map((file) => {
    const raw = texts.get(file)!;
    return { file, raw, sourceHash: hashSource(raw) };
  });
}

/** A file's bytes, or null when it went away after the folder was listed (an editor saving by rename, a checkout). */
function readIfStillThere(path: string): Buffer | null {
  try {
    return statSync(path).isFile() ? readSourceBytes(path) : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A SOP's bytes; of a file far over the compiler's size limit only enough to exceed it (the compiler refuses it
 * with SOP092), so that a stray multi-gigabyte file cannot exhaust memory or Node's buffer limit.
 */
export function readSourceBytes(path: string): Buffer {
  const enough = LIMITS.fileCharacters * 4 + 4; // UTF-8: at most 4 bytes per character
  if (statSync(path).size <= enough) return readFileSync(path);
  const buffer = Buffer.alloc(enough);
  const fd = openSync(path, 'r');
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, enough, 0));
  } finally {
    closeSync(fd);
  }
}
