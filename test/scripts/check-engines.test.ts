/**
 * The engine check that opens `npm test`: which engines it finds missing (on a root folder made here, with
 * files where the engines would be), what it prints, that it exits 1 when one is missing, and that it is the
 * first step of `npm test`, before anything slow.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INSTALL_COMMAND, missingEngines, missingMessage } from '../../scripts/check-engines.mjs';
import { PROJECT_ROOT } from '../support/run-cli.js';

const SCRIPT = join(PROJECT_ROOT, 'scripts', 'check-engines.mjs');
const ALL = ['Chromium (/usr/bin/chromium)', 'PostgreSQL (initdb under /usr/lib/postgresql/*/bin)', 'Neovim (nvim on the PATH)'];

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A root folder with a file at each of `paths` (executable unless `mode` says otherwise). */
function rootWith(paths: readonly string[], mode = 0o755): string {
  const root = mkdtempSync(join(tmpdir(), 'sop-engines-'));
  roots.push(root);
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
    chmodSync(join(root, path), mode);
  }
  return root;
}

describe('missingEngines', () => {
  it('names every engine missing from a bare machine', () => {
    expect(missingEngines(rootWith([]), '/usr/bin')).toEqual(ALL);
  });

  it('finds them where Debian installs them, PostgreSQL of any version, Neovim anywhere on the PATH', () => {
    const root = rootWith(['usr/bin/chromium', 'usr/lib/postgresql/17/bin/initdb', 'opt/nvim/bin/nvim']);
    expect(missingEngines(root, '/usr/bin:/opt/nvim/bin')).toEqual([]);
    expect(missingEngines(root, '/usr/bin')).toEqual(['Neovim (nvim on the PATH)']);
  });

  it('does not take a file that cannot be run for the engine', () => {
    const root = rootWith(['usr/bin/chromium', 'usr/lib/postgresql/15/bin/initdb', 'usr/bin/nvim'], 0o644);
    expect(missingEngines(root, '/usr/bin')).toEqual(ALL);
  });
});

describe('the check as npm test runs it', () => {
  it('stops with exit 1, naming what is missing and the one command that installs it all, and prints nothing else', () => {
    const run = spawnSync(process.execPath, [SCRIPT], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, SOP_ENGINES_ROOT: rootWith(['usr/bin/chromium']) },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(missingMessage(ALL.slice(1)));
    expect(run.stderr).toContain(`Install them and run every test with: ${INSTALL_COMMAND}\n`);
  });

  it('passes quietly when everything is there', () => {
    const root = rootWith(['usr/bin/chromium', 'usr/lib/postgresql/15/bin/initdb', 'usr/bin/nvim']);
    const run = spawnSync(process.execPath, [SCRIPT], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, SOP_ENGINES_ROOT: root, PATH: `/usr/bin:${process.env.PATH ?? ''}` },
    });
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', '']);
  });

  it('is the first step of npm test, and the command it names is CONTRIBUTING.md’s and the one CI runs', () => {
    const scripts = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.test).toMatch(/^node scripts\/check-engines\.mjs && /);
    expect(readFileSync(join(PROJECT_ROOT, 'CONTRIBUTING.md'), 'utf8')).toContain(`${INSTALL_COMMAND} `);
    expect(readFileSync(join(PROJECT_ROOT, '.ci', 'run'), 'utf8')).toMatch(/\n\s*with_node "\$version" npm test\n/);
  });
});
