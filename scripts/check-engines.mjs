#!/usr/bin/env node
/**
 * The first step of `npm test`: the tests start real engines (Debian's Chromium for the runs page, PostgreSQL
 * clusters from the `postgresql` package's binaries, Neovim for the editor test), so a machine without one of
 * them would fail deep inside vitest, minutes in, with a message about that one test. This checks for all of
 * them at once, before anything else runs, and when one is missing stops at once with the one command that
 * installs them all and runs the suite: `bash .ci/run` (the README's fresh-machine test command).
 *
 * Plain Node, no dependencies, a few file lookups: it answers within a fraction of a second.
 * `SOP_ENGINES_ROOT` (tests of this check only) looks for the engines under another root folder.
 */
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALL_COMMAND = 'bash .ci/run';

/**
 * The engines the tests need that `root` lacks, each as `name (where it is looked for)`; empty when all are
 * there. `path` is the PATH searched for commands (Neovim).
 */
export function missingEngines(root = '/', path = process.env.PATH ?? '') {
  const at = (...parts) => join(root, ...parts);
  const missing = [];
  if (!isExecutable(at('usr', 'bin', 'chromium'))) missing.push('Chromium (/usr/bin/chromium)');
  const postgres = at('usr', 'lib', 'postgresql');
  const initdb = existsSync(postgres) && readdirSync(postgres).some((version) => isExecutable(join(postgres, version, 'bin', 'initdb')));
  if (!initdb) missing.push('PostgreSQL (initdb under /usr/lib/postgresql/*/bin)');
  const nvim = path.split(delimiter).some((dir) => dir !== '' && isExecutable(at(dir, 'nvim')));
  if (!nvim) missing.push('Neovim (nvim on the PATH)');
  return missing;
}

/** What `npm test` prints when engines are missing. */
export function missingMessage(missing) {
  return (
    `npm test: the tests drive real engines, and this machine lacks ${missing.join(', ')}.\n` +
    `Install them and run every test with: ${INSTALL_COMMAND}\n` +
    '(it installs what is missing with apt-get, installs the dependencies, and runs npm test on each supported Node line)\n'
  );
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingEngines(process.env.SOP_ENGINES_ROOT ?? '/');
  if (missing.length > 0) {
    process.stderr.write(missingMessage(missing));
    process.exitCode = 1;
  }
}
