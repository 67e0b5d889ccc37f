/**
 * A Windows checkout, for real: the repository's SOPs, generated output and `.gitattributes` committed to a git
 * repository, cloned with `core.autocrlf=true` (the Windows default). The SOPs come out with CRLF line endings,
 * and `sop build --check` still passes: the compiler reads them EOL-normalised and hashes them so. With the
 * repository's `.gitattributes` the generated files stay LF; without it (an app that has no such rule) they come
 * out CRLF, which `--check` takes as unchanged content and `build` leaves alone.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles } from '../../generator/write/compare-outputs.js';
import { PROJECT_ROOT, runCli } from '../support/run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sop-crlf-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(dir, 'no-global-config') };
  const r = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd, env, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** A repository holding this project's SOPs, config and generated output, cloned with core.autocrlf=true. */
function crlfClone(withAttributes: boolean): string {
  const origin = join(dir, 'origin');
  mkdirSync(origin);
  writeFileSync(join(origin, 'package.json'), '{ "name": "app", "private": true }\n');
  cpSync(join(PROJECT_ROOT, 'sops'), join(origin, 'sops'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'generated'), join(origin, 'generated'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'sop.config.json'), join(origin, 'sop.config.json'));
  if (withAttributes) cpSync(join(PROJECT_ROOT, '.gitattributes'), join(origin, '.gitattributes'));
  git(origin, 'init', '-q');
  git(origin, '-c', 'core.autocrlf=false', 'add', '.');
  git(origin, 'commit', '-q', '-m', 'SOPs and generated output');
  git(dir, '-c', 'core.autocrlf=true', 'clone', '-q', origin, 'clone');
  return join(dir, 'clone');
}

const crlfFiles = (root: string, sub: string) =>
  listFiles(join(root, sub)).filter((p) => readFileSync(join(root, sub, p), 'utf8').includes('\r\n'));

describe('a CRLF clone (core.autocrlf=true)', () => {
  it("passes `sop build --check` with the repository's .gitattributes: CRLF SOPs, LF output", () => {
    const clone = crlfClone(true);
    const sops = readdirSync(join(clone, 'sops'));
    expect(crlfFiles(clone, 'sops')).toEqual(sops);
    expect(crlfFiles(clone, 'generated')).toEqual([]);
    const check = runCli(['build', '--check'], clone);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toMatch(/generated\/ is up to date with 2 SOPs/);
  });

  it('passes it without one too, where the generated files come out CRLF, and a build rewrites nothing', () => {
    const clone = crlfClone(false);
    expect(crlfFiles(clone, 'generated')).toEqual(listFiles(join(clone, 'generated')));
    const check = runCli(['build', '--check'], clone);
    expect(check.code, check.stdout).toBe(0);
    const build = runCli(['build'], clone);
    expect(build.code, build.stdout).toBe(0);
    expect(build.stdout).toContain('0 files written');
  });
});
