/**
 * Once per test run: builds dist/ (tests that spawn the CLI or the server run the transpiled code), and keeps
 * the run hermetic. No test may read or write this checkout's data folder (`.sop/`, where a developer's
 * `sop serve --http` keeps its runs): a test that did would depend on what happened in the checkout before, or
 * change it. Opening the SQLite store there creates or removes its `-wal` and `-shm` files even to read, so the
 * folder's listing (names, sizes, times) before and after the run tells; a difference fails the run, naming it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './support/run-cli.js';

const DATA = join(PROJECT_ROOT, '.sop');

export default function setup(): () => void {
  execFileSync(process.execPath, ['scripts/build-dist.mjs'], { stdio: 'inherit' });
  const before = dataFolder();
  return () => {
    const after = dataFolder();
    if (after !== before) {
      // Vitest reports an error thrown here but still exits 0: the exit code is set as well.
      process.exitCode = 1;
      throw new Error(
        `a test read or wrote this checkout's data folder ${DATA} (tests must use a temp folder: test/support/served-app.ts)\n` +
          `before the run:\n${before}\nafter it:\n${after}`,
      );
    }
  };
}

/** The folder and every entry in it, with size and modification time; `absent` when there is none. */
function dataFolder(): string {
  if (!existsSync(DATA)) return '  absent';
  const entries = readdirSync(DATA).sort();
  const line = (path: string, name: string) => {
    const stat = statSync(path);
    return `  ${name} ${stat.isDirectory() ? 'dir' : `${stat.size} B`} modified ${stat.mtime.toISOString()}`;
  };
  return [line(DATA, '.sop/'), ...entries.map((name) => line(join(DATA, name), name))].join('\n');
}
