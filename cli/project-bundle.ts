/**
 * The compiled agents of the app a command runs in: `sop-bundle.json` in its output folder (sop.config.json's
 * `out`, or `--out`). For the commands that read compiled SOPs without serving them (`paths`, `replay`).
 */
import type { SopBundle } from '../contract/compiled-sop.js';
import { readBundle } from '../contract/read-bundle.js';
import { bundleFile, locateProject } from './config.js';
import { displayPath } from './project-root.js';

export type ProjectBundle =
  | { readonly ok: true; readonly bundle: SopBundle; readonly root: string }
  | { readonly ok: false; readonly error: string };

export function readProjectBundle(cwd: string, out: string | undefined): ProjectBundle {
  const located = locateProject(cwd, { out });
  if (!located.ok) return located;
  const file = bundleFile(located.paths);
  const read = readBundle(file);
  if (!read.ok) return { ok: false, error: read.error.replace(file, displayPath(located.paths.root, file)) };
  return { ok: true, bundle: read.bundle, root: located.paths.root };
}
