/**
 * Applies a comparison to disk: writes stale and missing files (each through a temporary file and a rename,
 * so a reader never sees half a file), deletes orphans and the folders they leave empty. Unchanged files are
 * not touched, so their mtimes stay and watchers downstream are not woken for nothing.
 */
import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GeneratedFile } from '../emit/emit-project.js';
import type { OutputComparison } from './compare-outputs.js';

export function writeOutputs(outDir: string, planned: readonly GeneratedFile[], comparison: OutputComparison): void {
  const toWrite = new Set([...comparison.stale, ...comparison.missing]);
  for (const f of planned) {
    if (!toWrite.has(f.path)) continue;
    const target = join(outDir, f.path);
    mkdirSync(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, f.content);
    renameSync(temp, target);
  }
  for (const orphan of comparison.orphaned) {
    const target = join(outDir, orphan);
    rmSync(target, { force: true });
    removeEmptyParents(dirname(target), outDir);
  }
}

function removeEmptyParents(dir: string, stopAt: string): void {
  let d = dir;
  while (d.startsWith(stopAt) && d !== stopAt && readdirSync(d).length === 0) {
    rmdirSync(d);
    d = dirname(d);
  }
}
