/**
 * The no-op fast path: a manifest of the last build (generator fingerprint, source hashes, output hashes and
 * the diagnostics it printed) under `node_modules/.cache/`. When nothing changed, `build` replays the
 * diagnostics without parsing markdown or importing ts-morph, so it costs about a Node start-up.
 * Keyed on content hashes, never mtimes (fresh CI clones have fresh mtimes). `--check` never uses it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { GeneratedFile } from '../emit/emit-project.js';
import { listFiles } from './compare-outputs.js';

export interface BuildManifest {
  readonly fingerprint: string;
  readonly sources: Readonly<Record<string, string>>;
  readonly outputs: Readonly<Record<string, string>>;
  readonly diagnostics: readonly Diagnostic[];
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function manifestPath(projectRoot: string, sopsDir: string, outDir: string): string {
  return join(projectRoot, 'node_modules', '.cache', 'sop-toolkit', `build-${sha(`${sopsDir}\0${outDir}`).slice(0, 16)}.json`);
}

/** Hash of the generator's own code: a changed compiler invalidates every cached build. Compute it once per build. */
export function generatorFingerprint(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(js|ts)$/.test(entry.name)) hash.update(entry.name).update(readFileSync(p));
    }
  };
  walk(root);
  return hash.digest('hex');
}

export function readManifest(path: string): BuildManifest | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as BuildManifest;
  } catch {
    return null;
  }
}

export function writeManifest(path: string, manifest: BuildManifest): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(manifest));
}

/**
 * sha256 of each file in `paths` (relative to `outDir`). Files in `written` were just written from these
 * contents (UTF-8), so they are hashed from memory instead of read back; the rest are read from disk.
 */
export function hashOutputs(outDir: string, paths: readonly string[], written: readonly GeneratedFile[] = []): Record<string, string> {
  const contents = new Map(written.map((f) => [f.path, f.content]));
  const out: Record<string, string> = {};
  for (const p of paths) out[p] = sha(contents.get(p) ?? readFileSync(join(outDir, p)));
  return out;
}

/** True when the manifest describes this compiler (`fingerprint`), exactly these sources, and what is on disk now. */
export function manifestMatches(
  manifest: BuildManifest | null,
  fingerprint: string,
  sources: Readonly<Record<string, string>>,
  outDir: string,
): boolean {
  if (!manifest || manifest.fingerprint !== fingerprint) return false;
  const a = Object.keys(manifest.sources);
  const b = Object.keys(sources);
  if (a.length !== b.length || b.some((k) => manifest.sources[k] !== sources[k])) return false;
  const onDisk = listFiles(outDir);
  const expected = Object.keys(manifest.outputs).sort();
  if (onDisk.length !== expected.length || onDisk.some((p, i) => p !== expected[i])) return false;
  return expected.every((p) => existsSync(join(outDir, p)) && sha(readFileSync(join(outDir, p))) === manifest.outputs[p]);
}
