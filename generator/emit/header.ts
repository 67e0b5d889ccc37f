/**
 * The first line of every generated file: which source it came from, and how to regenerate it. No dates,
 * versions, hashes or absolute paths, so a file's bytes change only when its own content does: editing one
 * prompt rewrites the agent's graph module and the bundle, and leaves its ids and machine modules, the index
 * and the registry alone. (The source hash is data: `SOURCE_HASH` in the graph module and in the bundle.)
 */
export const TOOL_NAME = 'sop-toolkit';
export const REGENERATE_COMMAND = 'npm run build:sops';

/**
 * Where generated modules import the shared types (and the machines `enterPath`) from: the toolkit's package
 * name, never a path into wherever the toolkit happens to be installed, so output is byte-identical everywhere.
 */
export const CONTRACT_MODULE = 'sop-toolkit/contract';

/** `// @generated from sops/x.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops` */
export function headerComment(source: string): string {
  return `// @generated from ${commentSafe(source)} by ${TOOL_NAME}. DO NOT EDIT. Regenerate: ${REGENERATE_COMMAND}`;
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
