/**
 * The toolkit's own root (the folder with its package.json), found from a module's location. Commands run
 * both from source (`cli/commands/x.ts` under vitest) and transpiled (`dist/cli/commands/x.js`), so the
 * depth differs: walk up instead of counting `..`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The toolkit root as seen from the calling module (`import.meta.url`). */
export function toolkitRoot(moduleUrl: string): string {
  return findProjectRoot(dirname(fileURLToPath(moduleUrl)));
}
