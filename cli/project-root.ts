/**
 * The app's root: the nearest folder at or above the working directory that has a `package.json`. Every path a
 * command reads or writes (`sops/`, `generated/`, `sop.config.json`) resolves from it, never from where the
 * toolkit is installed, so `npx sop build` and `npx sop serve` act on the app they are run in, from any of its
 * subfolders. Paths shown to the user are relative to it, with `/` separators, as they appear in generated files.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** The nearest folder at or above `from` with a `package.json`; `from` itself when there is none. */
export function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/** `abs` relative to the app root, `/`-separated (`.` for the root itself). */
export function displayPath(root: string, abs: string): string {
  const rel = relative(root, abs);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}
