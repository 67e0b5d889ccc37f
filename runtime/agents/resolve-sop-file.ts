/**
 * Maps `load_graph`'s `sop_file` argument to a compiled agent, and proves the build is current.
 *
 * Security rule: the only files this module ever reads are registered `sourceFile`s. The caller's string is
 * resolved against the project root and compared with the registered paths; a URL, a path outside the
 * project or any unregistered path is refused without touching the filesystem. Only after a match is the
 * registered source read, to compare its sha256 (line endings normalised) with the `sourceHash` recorded at compile time.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { hashSource } from '../../contract/source-hash.js';
import type { AgentCatalog } from './agent-catalog.js';

export type SopFileResolution = { readonly ok: true; readonly entry: CompiledSop } | { readonly ok: false; readonly error: string };

const REBUILD = 'Run `npm run build:sops` to compile it, then call load_graph again.';

export async function resolveSopFile(catalog: AgentCatalog, projectRoot: string, sopFile: string): Promise<SopFileResolution> {
  const compiled = `Compiled SOPs: [${catalog.entries.map((entry) => entry.sourceFile).join(', ')}].`;
  // A scheme of two letters or more (`https:`, `file:`, `data:`); one letter is a Windows drive.
  if (/^[a-z][a-z0-9+.-]+:/i.test(sopFile) || sopFile.startsWith('//')) {
    return {
      ok: false,
      error: `sop_file must be a path inside this project, not a URL: ${sopFile}. SOPs are compiled at build time; give its path (or the agent name). ${compiled}`,
    };
  }
  const rel = relative(projectRoot, resolve(projectRoot, sopFile));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { ok: false, error: `sop_file ${sopFile} is outside the project: only the project's compiled SOPs are served. ${compiled}` };
  }
  const sourceFile = rel.split(sep).join('/');
  const entry = catalog.bySourceFile(sourceFile);
  if (entry === undefined) {
    return { ok: false, error: `${sourceFile} is not a compiled SOP of this project. ${REBUILD} ${compiled}` };
  }

  let bytes: Buffer;
  try {
    bytes = await readFile(join(projectRoot, entry.sourceFile));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'no longer exists' : `cannot be read (${code ?? String(error)})`;
    return { ok: false, error: `${entry.sourceFile} was compiled but ${what}, so the build cannot be checked. ${REBUILD}` };
  }
  if (hashSource(bytes) !== entry.sourceHash) {
    return { ok: false, error: `${entry.sourceFile} changed since it was compiled (its sha256 differs from the build's). ${REBUILD}` };
  }
  return { ok: true, entry };
}
