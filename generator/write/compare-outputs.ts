/**
 * Compares planned output with what is on disk: which files are stale (different content), missing, orphaned
 * (on disk, not planned), or unchanged. `--check` reports this; the writer acts on it. Files of agents whose
 * SOP failed are never orphans: they are the previous good output and stay.
 *
 * A file that differs only by CRLF line endings is unchanged: that is what git's `core.autocrlf=true` (the Windows
 * default) makes of committed output when the app has no `.gitattributes` rule for it, and its content is the same
 * (JavaScript reads CRLF in source and template literals as LF; JSON ignores it).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { GeneratedFile } from '../emit/emit-project.js';

export interface OutputComparison {
  readonly stale: readonly string[];
  readonly missing: readonly string[];
  readonly orphaned: readonly string[];
  readonly unchanged: readonly string[];
}

export function compareOutputs(
  outDir: string,
  planned: readonly GeneratedFile[],
  options: { complete: boolean; keepAgents: readonly string[] },
): OutputComparison {
  const stale: string[] = [];
  const missing: string[] = [];
  const unchanged: string[] = [];
  for (const f of planned) {
    const target = join(outDir, f.path);
    if (!existsSync(target)) missing.push(f.path);
    else if (sameContent(target, f.content)) unchanged.push(f.path);
    else stale.push(f.path);
  }
  const plannedPaths = new Set(planned.map((f) => f.path));
  const orphaned = options.complete
    ? listFiles(outDir).filter((p) => !plannedPaths.has(p) && !options.keepAgents.some((a) => p.startsWith(`${a}/`)))
    : [];
  return { stale, missing, orphaned, unchanged };
}

/** Whether the file at `path` holds `planned`, up to CRLF line endings. Sizes rule most files out unread. */
function sameContent(path: string, planned: string): boolean {
  const size = statSync(path).size;
  const bytes = Buffer.byteLength(planned);
  if (size < bytes || size > 2 * bytes) return false;
  const onDisk = readFileSync(path, 'utf8');
  return onDisk === planned || (size > bytes && onDisk.replace(/\r\n/g, '\n') === planned);
}

/** Every file under `dir`, as sorted `/`-separated relative paths. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}
