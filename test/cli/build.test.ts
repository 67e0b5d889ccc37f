/**
 * `sop build` end to end on real files in a temp project: writes, no-op rebuilds, `--check` (stale, missing,
 * orphaned), errors that leave previous output untouched, JSON output, exit codes, and `--watch`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles } from '../../generator/write/compare-outputs.js';
import { BASE_SOP, withLine } from '../support/sop-text.js';
import { CLI, runCli } from '../support/run-cli.js';

let dir: string;
const sop = (name: string) => join(dir, 'sops', name);
const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');
const snapshot = () => Object.fromEntries(listFiles(join(dir, 'generated')).map((p) => [p, read(`generated/${p}`)]));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sop-build-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(sop('demo.md'), BASE_SOP);
  writeFileSync(sop('other.md'), BASE_SOP.replace('agent: demo', 'agent: other'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sop build', () => {
  it('writes one folder per agent plus index, registry and bundle, then a no-op rebuild changes nothing', () => {
    const first = runCli(['build'], dir);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const files = listFiles(join(dir, 'generated'));
    expect(files).toEqual(
      expect.arrayContaining(['index.ts', 'registry.ts', 'sop-bundle.json', 'demo/graph.ts', 'demo/machine.ts', 'other/graph.ts']),
    );
    expect(read('generated/demo/graph.ts').split('\n')[0]).toMatch(/^\/\/ @generated from sops\/demo\.md by sop-toolkit\. DO NOT EDIT/);
    const before = snapshot();
    const again = runCli(['build'], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('up to date');
    expect(snapshot()).toEqual(before);
  });

  it('is deterministic: the same sources in another folder give byte-identical output', () => {
    runCli(['build'], dir);
    const other = mkdtempSync(join(tmpdir(), 'sop-build-'));
    try {
      mkdirSync(join(other, 'sops'));
      writeFileSync(join(other, 'sops', 'other.md'), read('sops/other.md'));
      writeFileSync(join(other, 'sops', 'demo.md'), read('sops/demo.md'));
      expect(runCli(['build'], other).code).toBe(0);
      const theirs = Object.fromEntries(
        listFiles(join(other, 'generated')).map((p) => [p, readFileSync(join(other, 'generated', p), 'utf8')]),
      );
      expect(theirs).toEqual(snapshot());
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('--check passes when fresh, fails after a SOP edit, a deleted file or an extra file, and passes after a build', () => {
    expect(runCli(['build'], dir).code).toBe(0);
    expect(runCli(['build', '--check'], dir)).toMatchObject({ code: 0 });

    writeFileSync(sop('demo.md'), BASE_SOP.replace('Ask the question.', 'Ask the question politely.'));
    const stale = runCli(['build', '--check'], dir);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('stale: generated/demo/graph.ts');
    expect(read('sops/demo.md')).toContain('politely'); // --check writes nothing
    expect(read('generated/demo/graph.ts')).not.toContain('politely');
    expect(runCli(['build'], dir).code).toBe(0);

    unlinkSync(join(dir, 'generated/other/machine.ts'));
    writeFileSync(join(dir, 'generated/stray.ts'), 'export {};\n');
    const broken = runCli(['build', '--check'], dir);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('missing: generated/other/machine.ts');
    expect(broken.stdout).toContain('orphaned: generated/stray.ts');

    expect(runCli(['build'], dir).code).toBe(0);
    expect(existsSync(join(dir, 'generated/stray.ts'))).toBe(false);
    expect(runCli(['build', '--check'], dir).code).toBe(0);
  });

  it('deletes the output of a removed SOP', () => {
    runCli(['build'], dir);
    rmSync(sop('other.md'));
    expect(runCli(['build'], dir).code).toBe(0);
    expect(existsSync(join(dir, 'generated/other'))).toBe(false);
    expect(read('generated/registry.ts')).not.toContain("'other'");
  });

  it("reports every error of every file like a compiler, and leaves the failed file's previous output untouched", () => {
    runCli(['build'], dir);
    const before = snapshot();
    writeFileSync(sop('demo.md'), withLine(19, '### ASKK'));
    writeFileSync(sop('other.md'), BASE_SOP.replace('agent: demo', 'agent: other').replace('version: "1.0"', 'version: [1'));
    const r = runCli(['build'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('sops/demo.md:19:1 error SOP020 Node prompt `ASKK` does not match any node of the flowchart.');
    expect(r.stdout).toMatch(/ 19 \| ### ASKK\n\s+\| \^+/);
    expect(r.stdout).toContain('help: Did you mean `ASK`?');
    expect(r.stdout).toMatch(/sops\/other\.md:\d+:\d+ error SOP002/);
    expect(r.stdout).toMatch(/2 errors/);
    expect(snapshot()).toEqual(before);
  });

  it('--format json prints the standard validation result', () => {
    writeFileSync(sop('demo.md'), withLine(4, 'tools: [lookup, spare]'));
    const r = runCli(['build', '--format', 'json'], dir);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({
      status: 'pass',
      details: [{ severity: 'info', code: 'SOP045', file: 'sops/demo.md', line: 4, column: 17 }],
      metadata: { scope: 'sops:sops', version: expect.any(String), timestamp: expect.any(String), execution_time: expect.any(Number) },
    });
    writeFileSync(sop('demo.md'), withLine(19, '### ASKK'));
    const failed = JSON.parse(runCli(['build', '--format', 'json'], dir).stdout);
    expect(failed.status).toBe('fail');
    expect(failed.details[0]).toMatchObject({ severity: 'critical', code: 'SOP020', remediation: 'Did you mean `ASK`?' });
  });

  it('exits 2 on bad usage', () => {
    expect(runCli(['build', '--format', 'xml'], dir).code).toBe(2);
    expect(runCli(['build', '--sops', 'nope'], dir).code).toBe(2);
    expect(runCli(['frobnicate'], dir).code).toBe(2);
  });

  it('--watch rebuilds on change and keeps running through errors', async () => {
    const child = spawn(process.execPath, [CLI, 'build', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const waitFor = async (pattern: RegExp, from: number) => {
      for (let i = 0; i < 200 && !pattern.test(out.slice(from)); i++) await new Promise((r) => setTimeout(r, 50));
      expect(out.slice(from)).toMatch(pattern);
    };
    try {
      await waitFor(/watching/, 0);
      let mark = out.length;
      writeFileSync(sop('demo.md'), withLine(19, '### ASKK'));
      await waitFor(/error SOP020/, mark);
      mark = out.length;
      writeFileSync(sop('demo.md'), BASE_SOP.replace('Ask the question.', 'Ask again.'));
      await waitFor(/0 errors/, mark);
      expect(read('generated/demo/graph.ts')).toContain('Ask again.');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
