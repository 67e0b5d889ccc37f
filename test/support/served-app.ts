/**
 * An app folder of its own for a test that runs `sop serve` with its defaults: a `package.json` and this
 * repository's compiled bundle (`generated/sop-bundle.json`), in a temp folder. Whatever the server writes there
 * (`--http`'s default store, `.sop/runs.db`) stays there: tests never read or write the checkout's own data
 * folder, where a developer's `sop serve --http` keeps its runs.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './run-cli.js';

export interface ServedApp {
  readonly dir: string;
  remove(): void;
}

export function servedApp(): ServedApp {
  const dir = mkdtempSync(join(tmpdir(), 'sop-served-app-'));
  writeFileSync(join(dir, 'package.json'), '{ "name": "served-app", "private": true }\n');
  cpSync(join(PROJECT_ROOT, 'generated', 'sop-bundle.json'), join(dir, 'generated', 'sop-bundle.json'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
