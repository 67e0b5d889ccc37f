/** A driver that is missing or whose native addon does not load becomes a message naming the fix. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverFailure, loadDriver } from '../../../runtime/store/load-driver.js';

const OTHERS = '--store memory';

describe('loadDriver', () => {
  it('loads a driver that is there', async () => {
    const loaded = await loadDriver('pg', async () => (await import('pg')).default, OTHERS);
    expect(loaded.ok && typeof loaded.driver.Pool).toBe('function');
  });

  it('names `npm install` for a driver that is not installed', async () => {
    const name = 'sop-toolkit-no-such-driver';
    const loaded = await loadDriver(name, () => import(name), OTHERS);
    expect(loaded).toEqual({
      ok: false,
      error: `the ${name} package is not installed: run \`npm install ${name}\` in the app, or choose another store (--store memory)`,
    });
  });

  it('names `npm rebuild` for a native addon that does not load on this Node', () => {
    const folder = mkdtempSync(join(tmpdir(), 'sop-addon-'));
    try {
      const addon = join(folder, 'better_sqlite3.node');
      writeFileSync(addon, 'not a shared object');
      let failure: unknown;
      try {
        createRequire(import.meta.url)(addon);
      } catch (error) {
        failure = error;
      }
      expect(driverFailure('better-sqlite3', failure, OTHERS)).toMatch(
        /^the better-sqlite3 package's native addon does not load on this Node \(v[\d.]+\): .*; rebuild it with `npm rebuild better-sqlite3` .*or choose another store \(--store memory\)$/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says which Node an addon was built for, from the error Node gives', () => {
    // The message Node 22 gives for an addon built by Node 20, word for word.
    const failure = Object.assign(
      new Error(
        "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\n" +
          'NODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing\n' +
          'the module (for instance, using `npm rebuild` or `npm install`).',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(driverFailure('better-sqlite3', failure, OTHERS)).toBe(
      `the better-sqlite3 package's native addon does not load on this Node (${process.version}): it was built for another Node ` +
        '(NODE_MODULE_VERSION 115; this one needs 127); rebuild it with `npm rebuild better-sqlite3` (needs python3, make and a C++ compiler), ' +
        'or choose another store (--store memory)',
    );
  });

  it('passes any other failure on with its reason', async () => {
    const loaded = await loadDriver('pg', () => Promise.reject(new Error('boom\nstack')), OTHERS);
    expect(loaded).toEqual({ ok: false, error: 'the pg package could not be loaded: boom' });
  });
});
