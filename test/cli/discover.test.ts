/**
 * `sop discover` as a team runs it (the real CLI, a child process) in an app folder: logs in, a draft written with
 * `--out` that `sop build` then compiles with no error; the draft on stdout and the report on stderr without
 * `--out`; `--format json`; `--against` a written SOP as markdown; progress on stderr; and the refusals (no
 * `--agent`, a bad `--noise`, an `--out` that exists).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoverReport } from '../../analysis/discover/index.js';
import { corpus } from '../support/corpus/index.js';
import { PROJECT_ROOT, runCli } from '../support/run-cli.js';

let app: string;
beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'sop-discover-cli-'));
  mkdirSync(join(app, 'logs'));
  mkdirSync(join(app, 'sops'));
  for (const e of corpus({ seed: 1, count: 20, modes: ['inferred'], formats: ['claude-code', 'openai-chat'] }))
    if (e.label === 'clean') writeFileSync(join(app, 'logs', e.file), e.text);
  copyFileSync(join(PROJECT_ROOT, 'sops/retail_customer_support.md'), join(app, 'written.md'));
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('sop discover', () => {
  it('writes a draft that sop build compiles with no error, and reports how the logs fit it', () => {
    const result = runCli(['discover', 'logs', '--agent', 'retail_draft', '--out', 'sops/retail_draft.md'], app);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^40 conversations mined → sops\/retail_draft\.md: agent retail_draft/);
    expect(result.stdout).toMatch(/fit \(sop replay's alignment\): mean fitness 1\.0000/);
    expect(result.stderr).toContain('sop discover: read 40/40 files');
    expect(result.stderr).toContain('sop discover: scored 40/40 files');
    const draft = readFileSync(join(app, 'sops/retail_draft.md'), 'utf8');
    expect(draft).toMatch(/^---\n# Drafted by sop discover from 40 conversations/);
    expect(draft).toContain('hubs: [ROUTE]');
    const build = runCli(['build'], app);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout + build.stderr).not.toMatch(/ error /);
    expect(existsSync(join(app, 'generated/retail_draft/graph.ts'))).toBe(true);
  });

  it('refuses to overwrite --out unless --force', () => {
    const refused = runCli(['discover', 'logs', '--agent', 'retail_draft', '--out', 'sops/retail_draft.md'], app);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('sops/retail_draft.md exists; pass --force');
    const forced = runCli(['discover', 'logs', '--agent', 'retail_draft', '--out', 'sops/retail_draft.md', '--force'], app);
    expect(forced.code, forced.stderr).toBe(0);
  });

  it('prints the draft on stdout and the report on stderr without --out; the same logs give the same draft', () => {
    const result = runCli(['discover', 'logs', '--agent', 'retail_draft'], app);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(readFileSync(join(app, 'sops/retail_draft.md'), 'utf8'));
    expect(result.stderr).toMatch(/40 conversations mined → draft: agent retail_draft/);
  });

  it('--format json: nodes, fitness, conversations, out', () => {
    const result = runCli(['discover', 'logs', '--agent', 'retail_json', '--out', 'drafts/retail_json.md', '--format', 'json'], app);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as DiscoverReport;
    expect(report).toMatchObject({
      format: 'sop-discover/1',
      agent: 'retail_json',
      conversations: 40,
      out: 'drafts/retail_json.md',
      fitness: 1,
    });
    expect(report.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['START', 'AUTH', 'ROUTE']));
    // The Claude Code logs name the tools `mcp__retail-tools__…`: the prefix taken off is reported.
    expect(report.tool_prefixes.map((p) => [p.prefix, p.server])).toEqual([['mcp__retail-tools__', 'retail-tools']]);
    expect(existsSync(join(app, 'drafts/retail_json.md'))).toBe(true);
  });

  it('--against a written SOP: practice as markdown, and differences in the JSON', () => {
    const text = runCli(['discover', 'logs', '--agent', 'practice', '--out', 'drafts/practice.md', '--against', 'written.md'], app);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('## Practice against written.md (retail_customer_support)');
    expect(text.stdout).toContain('| kind | node | tool | deviations | conversations | examples |');
    const json = runCli(['discover', 'logs', '--agent', 'practice', '--against', 'written.md', '--format', 'json'], app);
    const report = JSON.parse(json.stdout) as DiscoverReport & { draft: string };
    expect(report.out).toBeNull();
    expect(report.draft).toMatch(/^---\n/);
    expect(report.differences!.length).toBeGreaterThan(0);
    for (const d of report.differences!)
      expect(Object.keys(d)).toEqual(expect.arrayContaining(['kind', 'node', 'tool', 'count', 'examples']));
  });

  it.each([
    [['logs'], '--agent NAME names'],
    [['logs', '--agent', 'Bad-Name'], '--agent is a name of'],
    [['logs', '--agent', 'x', '--noise', '2'], '--noise is a number in [0, 1]'],
    [['--agent', 'x'], 'name a log file or a folder'],
    [['missing', '--agent', 'x'], 'cannot read missing'],
  ])('refuses %j with exit 2', (args, message) => {
    const result = runCli(['discover', ...args], app);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
