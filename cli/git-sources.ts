/**
 * The SOP sources of a git revision, read with the real `git` (spawned, never a library): the `*.md` files directly in
 * the SOP folder as that revision has them (`git ls-tree`, `git show REV:PATH`), named by their project path as the
 * build names them. Also the revision `sop diff` compares with by default: the merge base of HEAD with the main
 * branch (the first of `main`, `master`, `origin/main`, `origin/master` that exists, or the one named). Every failure
 * is a value with git's own message: not a repository, an unknown revision, git not installed.
 */
import { spawnSync } from 'node:child_process';
import { posix, relative, sep } from 'node:path';
import type { SourceFile } from '../generator/project/plan-build.js';

export type GitResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function git(cwd: string, args: readonly string[]): GitResult<string> {
  const run = spawnSync('git', [...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.error !== undefined) return { ok: false, error: `cannot run git: ${run.error.message}` };
  if (run.status !== 0) return { ok: false, error: `git ${args.join(' ')}: ${run.stderr.trim() || `exit ${run.status}`}` };
  return { ok: true, value: run.stdout };
}

/** The repository's top folder. */
export function gitTop(cwd: string): GitResult<string> {
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  return top.ok ? { ok: true, value: top.value.trim() } : top;
}

/** The commit a revision names, abbreviated, for labels. */
export function shortRevision(cwd: string, revision: string): GitResult<string> {
  const sha = git(cwd, ['rev-parse', '--short', `${revision}^{commit}`]);
  return sha.ok ? { ok: true, value: sha.value.trim() } : sha;
}

/** The merge base of HEAD with the main branch (`branch`, else the first of main, master, origin/main, origin/master). */
export function mergeBaseWithMain(cwd: string, branch?: string): GitResult<{ readonly branch: string; readonly commit: string }> {
  const candidates = branch === undefined ? ['main', 'master', 'origin/main', 'origin/master'] : [branch];
  const found = candidates.find((name) => git(cwd, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]).ok);
  if (found === undefined) {
    return { ok: false, error: `no main branch to compare with (tried ${candidates.join(', ')}): name BASE, or --base-branch NAME` };
  }
  const base = git(cwd, ['merge-base', 'HEAD', found]);
  return base.ok ? { ok: true, value: { branch: found, commit: base.value.trim() } } : base;
}

/**
 * The SOP sources `revision` has in `sopsDir` (absolute), named relative to `root` (the app root) with `/`: the files
 * directly in the folder whose name ends in `.md`, as `readSources` takes them from disk.
 */
export function sourcesAt(cwd: string, revision: string, root: string, sopsDir: string): GitResult<SourceFile[]> {
  const top = gitTop(cwd);
  if (!top.ok) return top;
  const folder = relative(top.value, sopsDir).split(sep).join('/');
  if (folder.startsWith('..')) return { ok: false, error: `the SOP folder ${sopsDir} is outside the git repository ${top.value}` };
  const listed = git(top.value, ['ls-tree', '-z', '--name-only', `${revision}^{tree}`, '--', folder === '' ? '.' : `${folder}/`]);
  if (!listed.ok) return listed;
  const files = listed.value
    .split('\0')
    .filter((path) => path.endsWith('.md') && posix.dirname(path) === (folder === '' ? '.' : folder))
    .sort();
  const sources: SourceFile[] = [];
  for (const path of files) {
    const shown = git(top.value, ['show', `${revision}:${path}`]);
    if (!shown.ok) return shown;
    sources.push({ file: relative(root, `${top.value}/${path}`).split(sep).join('/'), raw: shown.value });
  }
  return { ok: true, value: sources };
}
