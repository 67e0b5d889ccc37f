/**
 * The entry of the one-file server that `sop bundle` writes: `sop serve` with the app's agents built in. esbuild
 * bundles this module, the runtime and their dependencies into one file; the app's `sop-bundle.json` text is
 * passed in as a string (parsed and checked here, by the same code that reads it from disk), so the file runs
 * with no node_modules and no build output beside it: `node server.mjs` (stdio) or `node server.mjs --http`.
 */
import { parseBundle } from '../contract/read-bundle.js';
import { runServe } from './commands/serve.js';
import { settleExit } from './settle-exit.js';

export function startOneFileServer(bundleJson: string, argv: readonly string[]): void {
  settleExit(serveInlined(bundleJson, argv), 'sop server');
}

async function serveInlined(bundleJson: string, argv: readonly string[]): Promise<number> {
  const read = parseBundle(bundleJson, 'the bundle built into this server');
  if (!read.ok) {
    process.stderr.write(`sop server: ${read.error}\n`);
    return 1;
  }
  return runServe(argv, { bundle: read.bundle });
}
