/**
 * The first line of every generated file: which source it came from, the source's content hash, and how to
 * regenerate it. No dates, versions or absolute paths, so the bytes change only when the input does.
 */
import { createHash } from 'node:crypto';
import { compareCodeUnits } from './naming.js';

export const TOOL_NAME = 'sop-toolkit';
export const REGENERATE_COMMAND = 'npm run build:sops';

/** `// @generated from sops/x.md (sha256:0123456789ab) by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops` */
export function headerComment(source: string, sourceHash: string): string {
  return `// @generated from ${commentSafe(source)} (${shortHash(sourceHash)}) by ${TOOL_NAME}. DO NOT EDIT. Regenerate: ${REGENERATE_COMMAND}`;
}

/** `sha256:<64 hex>` → `sha256:<first 12 hex>`. */
export function shortHash(sourceHash: string): string {
  const match = /^([a-z0-9]+):([0-9a-f]+)$/.exec(sourceHash);
  if (!match) throw new Error(`Expected a source hash like "sha256:<hex>", got ${JSON.stringify(sourceHash)}.`);
  return `${match[1]}:${match[2]?.slice(0, 12)}`;
}

export interface HashedSource {
  readonly agent: string;
  readonly file: string;
  readonly sourceHash: string;
}

/**
 * One hash for files built from every SOP (index, registry): sha256 over `agent file hash` lines sorted by
 * agent, so it changes when any SOP is added, removed, renamed or edited, and not with the input order.
 */
export function combinedHash(sources: readonly HashedSource[]): string {
  const lines = sources.map((s) => `${s.agent} ${s.file} ${s.sourceHash}\n`).sort(compareCodeUnits);
  return `sha256:${createHash('sha256').update(lines.join('')).digest('hex')}`;
}

/** `sops/a.md` + `sops/b.md` → `sops/*.md`; sources in several folders → `*.md`. */
export function sourceGlob(files: readonly string[]): string {
  const dirs = new Set(files.map((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/') + 1) : '')));
  const [only] = dirs;
  return dirs.size === 1 ? `${only}*.md` : dirs.size === 0 ? 'sops/*.md' : '*.md';
}

// A source path is project-relative and ordinary, but it lands in a line comment: keep line breaks and other
// control characters out.
function commentSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
}
