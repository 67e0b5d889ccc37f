/**
 * `sop build` end to end on real files in a temp project: writes, no-op rebuilds, `--check` (stale, missing,
 * orphaned), errors that leave previous output untouched, JSON output that agrees with the exit code, only
 * changed files written, good agents built beside a broken one, empty and missing SOP folders, exit codes, and
 * `--watch`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('--max-warnings N fails on more than N warnings (as eslint), in text and JSON, on a no-op build too', () => {
    // Two warnings: a dead end (SOP047) and a prompt naming a node that does not exist (SOP048); an info never counts.
    const warned = withLine(14, '    ASK --> DONE([Done])\n    ASK -->|refund| REFUND_FLOW', BASE_SOP)
      .replace('Ask the question.', 'Ask the question, then go to DOEN.')
      .replace('tools: [lookup]\n---', 'tools: [lookup, spare]\n---');
    writeFileSync(sop('demo.md'), warned);
    expect(runCli(['build'], dir).code).toBe(0);
    const zero = runCli(['build', '--max-warnings', '0'], dir);
    expect(zero.code).toBe(1);
    expect(zero.stdout).toContain('sop build: failed: 2 warnings, more than --max-warnings 0 allows');
    expect(runCli(['build', '--max-warnings', '2'], dir).code).toBe(0);
    const json = runCli(['build', '--check', '--max-warnings', '1', '--format', 'json'], dir);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'fail',
      message: 'SOP validation failed: 0 errors, 2 warnings, 1 info; 2 warnings, more than --max-warnings 1 allows',
    });
    writeFileSync(sop('demo.md'), BASE_SOP.replace('tools: [lookup]\n---', 'tools: [lookup, spare]\n---'));
    expect(runCli(['build', '--max-warnings', '0'], dir).code).toBe(0);
    for (const bad of ['-1', 'two', '1.5', '']) expect(runCli(['build', '--max-warnings', bad], dir).code, bad).toBe(2);
  });

  it('--check --format json says fail whenever it exits 1, stale output included', () => {
    expect(runCli(['build'], dir).code).toBe(0);
    const fresh = runCli(['build', '--check', '--format', 'json'], dir);
    expect([fresh.code, JSON.parse(fresh.stdout).status]).toEqual([0, 'pass']);
    writeFileSync(sop('demo.md'), BASE_SOP.replace('Ask the question.', 'Ask the question politely.'));
    const stale = runCli(['build', '--check', '--format', 'json'], dir);
    const result = JSON.parse(stale.stdout);
    expect(stale.code).toBe(1);
    expect(result).toMatchObject({ status: 'fail', details: [], metadata: { stale: ['demo/graph.ts', 'sop-bundle.json'] } });
    expect(result.message).toBe(
      'SOP validation failed: 0 errors, 0 warnings; generated/ is out of date (2 stale, 0 missing, 0 orphaned files)',
    );
  });

  it('writes only the files whose bytes change when one prompt is edited', () => {
    expect(runCli(['build'], dir).code).toBe(0);
    const before = new Date('2001-01-01T00:00:00Z');
    for (const p of listFiles(join(dir, 'generated'))) utimesSync(join(dir, 'generated', p), before, before);
    writeFileSync(sop('demo.md'), BASE_SOP.replace('Ask the question.', 'Ask the question politely.'));
    const r = runCli(['build'], dir);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('2 files written, 7 unchanged, 0 deleted');
    const touched = listFiles(join(dir, 'generated')).filter((p) => statSync(join(dir, 'generated', p)).mtimeMs !== before.getTime());
    expect(touched).toEqual(['demo/graph.ts', 'sop-bundle.json']);
    expect(read('generated/demo/graph.ts')).toContain('politely');
  });

  it('builds the good agents on a first build where one SOP has an error, and still exits 1', () => {
    writeFileSync(sop('broken.md'), withLine(19, '### ASKK').replace('agent: demo', 'agent: broken'));
    const r = runCli(['build'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('sops/broken.md:19:1 error SOP020');
    expect(listFiles(join(dir, 'generated'))).toEqual([
      'demo/graph.ts',
      'demo/ids.ts',
      'demo/machine.ts',
      'index.ts',
      'other/graph.ts',
      'other/ids.ts',
      'other/machine.ts',
      'registry.ts',
      'sop-bundle.json',
    ]);
    expect(Object.keys(JSON.parse(read('generated/sop-bundle.json')).agents)).toEqual(['demo', 'other']);
    expect(read('generated/registry.ts')).not.toContain('broken');
  });

  it('reports an alias bomb in one file as a diagnostic, and every other file still reports and builds', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [k, prev] of [...'bcdefgh'].map((k, i) => [k, 'abcdefg'[i]]))
      bomb.push(`${k}: &${k} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    writeFileSync(
      sop('bomb.md'),
      BASE_SOP.replace('tools: [lookup]\n---', `tools: [lookup]\n${bomb.join('\n')}\n---`).replace('agent: demo', 'agent: bomb'),
    );
    writeFileSync(sop('other.md'), withLine(4, 'tools: [lookup, spare]').replace('agent: demo', 'agent: other'));
    const r = runCli(['build'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/sops\/bomb\.md:9:\d+ error SOP092 Frontmatter: Aliases expand this YAML by more than 100,000 values/);
    expect(r.stdout).toContain('sops/other.md:4:17 info SOP045');
    expect(existsSync(join(dir, 'generated/other/graph.ts'))).toBe(true);
  });

  it('fails with a clear message on a SOP folder without SOPs, and writes nothing', () => {
    expect(runCli(['build'], dir).code).toBe(0);
    const before = snapshot();
    rmSync(sop('demo.md'));
    rmSync(sop('other.md'));
    writeFileSync(sop('notes.txt'), 'not a SOP');
    const r = runCli(['build'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^sop build: 0 SOPs, 0 errors, 0 warnings; no SOP files \(\*\.md\) in sops\/: nothing was built \(\d+ ms\)\n$/,
    );
    expect(snapshot()).toEqual(before);
    const json = runCli(['build', '--check', '--format', 'json'], dir);
    expect([json.code, JSON.parse(json.stdout).status, JSON.parse(json.stdout).message]).toEqual([
      1,
      'fail',
      'SOP validation failed: 0 errors, 0 warnings; no SOP files (*.md) in sops/',
    ]);
  });

  it('exits 2 on bad usage, a missing SOP folder included', () => {
    expect(runCli(['build', '--format', 'xml'], dir).code).toBe(2);
    const missing = runCli(['build', '--sops', 'nope'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('sop build: no SOP folder at nope/ (create it and add a SOP, or pass --sops DIR).\n');
    rmSync(join(dir, 'sops'), { recursive: true });
    expect(runCli(['build'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('no SOP folder at sops/') });
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
