/**
 * `sop replay FILES… | DIR` as a team runs it every week (the real CLI, a child process, against the repository's
 * compiled agents), on the format fixtures of test/fixtures/transcripts/formats:
 *   - a folder: one row per transcript (a file of τ²-bench results, or of JSON Lines conversations, is several),
 *     the totals per deviation kind and per node; as text, CSV and JSON; files that hold no conversation skipped;
 *   - `--outcomes`: transcripts named by path, file name, stem or id; means and AUC; keys that named nothing;
 *   - Claude Code session logs that resume or continue one another are scored once;
 *   - progress on stderr every 100 files; exit codes 0 / 1 / 2, the table printed before a 2.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchSummary } from '../../analysis/replay/batch-summary.js';
import { chat } from '../support/chat-transcripts.js';
import { PROJECT_ROOT, runCli } from '../support/run-cli.js';
import { actsOfWalk, chatStepsOf } from '../support/synthetic-transcripts.js';
import { repositoryBundle } from '../support/chat-transcripts.js';

const FORMATS = 'test/fixtures/transcripts/formats';
const TAU2 = `${FORMATS}/tau2-results.json`;
const SIMS = ['a2f1c7d0-5c3e-4b8a-9f61-3e2d1c0b9a87', 'b7e44d19-08a6-4c2f-b1d3-5f6e7a8b9c01', 'c93b2e57-7d14-4a09-8e2f-6a5b4c3d2e1f'];

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sop-replay-batch-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function batchJson(...args: string[]): { code: number | null; stderr: string; summary: BatchSummary } {
  const result = runCli(['replay', ...args, '--format', 'json']);
  return { code: result.code, stderr: result.stderr, summary: JSON.parse(result.stdout) as BatchSummary };
}

describe('sop replay DIR', () => {
  it('replays every transcript of the folder: a row each, the totals, exit 1 when one fails', () => {
    const { code, stderr, summary } = batchJson(FORMATS);
    expect([code, stderr]).toEqual([1, '']);
    expect(summary.format).toBe('sop-replay-batch/1');
    expect(
      summary.transcripts.map((r) => [r.transcript.slice(FORMATS.length + 1), r.reader, r.mode, r.verdict, r.fitness, r.outcome]),
    ).toEqual([
      ['anthropic-messages.json', 'chat', 'inferred', 'fail', 0.75, null],
      ['claude-code-session.jsonl', 'claude-code', 'inferred', 'pass', 1, null],
      ['conversations.jsonl#line 1', 'chat', 'inferred', 'pass', 1, null],
      ['conversations.jsonl#line 2', 'chat', 'inferred', 'fail', 0.75, null],
      ['conversations.jsonl#line 3', 'chat', 'inferred', 'pass', 1, null],
      ['openai-responses.json', 'openai-responses', 'inferred', 'pass', 1, null],
      [`tau2-results.json#${SIMS[0]}`, 'tau2-bench', 'inferred', 'pass', 1, true],
      [`tau2-results.json#${SIMS[1]}`, 'tau2-bench', 'inferred', 'fail', 0.6667, false],
      [`tau2-results.json#${SIMS[2]}`, 'tau2-bench', 'inferred', 'pass', 1, true],
    ]);
    expect(summary.totals).toMatchObject({ transcripts: 9, passed: 6, failed: 3, errors: 0, terminal_reached: 9 });
    expect(summary.totals.by_kind.unconfirmed_call).toEqual({ deviations: 2, transcripts: 2 });
    expect(summary.totals.by_node.map((n) => [n.node, n.deviations])).toEqual([
      ['AUTH', 1],
      ['DO_CANCEL', 1],
      ['DO_USER_ADDR', 1],
    ]);
    expect(summary.outcomes).toMatchObject({ source: 'the τ²-bench rewards', successes: 2, failures: 1, unknown: 6, auc: 1 });
  });

  it('prints the table as text and as CSV', () => {
    const text = runCli(['replay', FORMATS]);
    expect(text.code).toBe(1);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^transcript +agent +fitness +verdict +terminal +steps +outcome +deviations$/);
    expect(lines[1]).toBe(
      `${`${FORMATS}/anthropic-messages.json`.padEnd(lines[0]!.indexOf('agent'))}retail_customer_support  0.7500   fail     END_UADDR       3      -        unconfirmed_call 1`,
    );
    expect(lines).toContain('9 transcripts: 6 passed, 3 failed; mean fitness 0.9074; ended on a terminal node: 9');
    expect(lines).toContain('deviations by kind: skipped_required 1 (in 1), unconfirmed_call 2 (in 2)');
    const csv = runCli(['replay', FORMATS, '--format', 'csv']);
    const rows = csv.stdout.trimEnd().split('\r\n');
    expect(rows).toHaveLength(10);
    expect(rows[2]).toBe(
      `${FORMATS}/claude-code-session.jsonl,${FORMATS}/claude-code-session.jsonl,retail_customer_support,claude-code,inferred,pass,1,0,5,4,END_INFO,2,true,,0,0,0,0,0,0,0,0,0,0,0,0,`,
    );
  });

  it('relates fitness to the outcomes file: keys by path, file name, stem or id; the keys that named nothing', () => {
    const outcomes = join(work, 'outcomes.json');
    writeFileSync(
      outcomes,
      JSON.stringify({
        [`${FORMATS}/anthropic-messages.json`]: true,
        'claude-code-session.jsonl': true,
        'conversations#line 2': false,
        'openai-responses': false,
        [SIMS[1]!]: 1,
        'nowhere.json': true,
      }),
    );
    const { code, summary } = batchJson(FORMATS, '--outcomes', outcomes);
    expect(code).toBe(1);
    const outcome = Object.fromEntries(summary.transcripts.map((r) => [r.transcript.slice(FORMATS.length + 1), r.outcome]));
    expect(outcome).toEqual({
      'anthropic-messages.json': true,
      'claude-code-session.jsonl': true,
      'conversations.jsonl#line 1': null,
      'conversations.jsonl#line 2': false,
      'conversations.jsonl#line 3': null,
      'openai-responses.json': false,
      [`tau2-results.json#${SIMS[0]}`]: true,
      [`tau2-results.json#${SIMS[1]}`]: true,
      [`tau2-results.json#${SIMS[2]}`]: true,
    });
    // Successes 0.75, 1, 1, 0.6667, 1; failures 0.75, 1: AUC = (0.5 + 0 + 1 + 0.5 + 1 + 0 + 0 + 0.5 + 1 + 0.5) / 10.
    expect(summary.outcomes).toEqual({
      source: `--outcomes ${outcomes}`,
      successes: 5,
      failures: 2,
      unknown: 2,
      mean_fitness_success: 0.8833,
      mean_fitness_failure: 0.875,
      auc: 0.5,
      unmatched_keys: ['nowhere.json'],
    });
    expect(runCli(['replay', FORMATS, '--outcomes', join(work, 'none.json')])).toMatchObject({ code: 2, stdout: '' });
    writeFileSync(join(work, 'bad-outcomes.json'), '{"a.json": "maybe"}');
    expect(runCli(['replay', FORMATS, '--outcomes', join(work, 'bad-outcomes.json')]).stderr).toMatch(
      /bad-outcomes\.json: the outcome of "a\.json" is "maybe"; expected true, false or a reward \(a number\)\n$/,
    );
  });

  it('skips the files of a folder that hold no conversation, and reports, then exits 2 for, a file it cannot replay', () => {
    const dir = join(work, 'mixed');
    mkdirSync(join(dir, 'subagents'), { recursive: true });
    copyFileSync(join(PROJECT_ROOT, FORMATS, 'openai-responses.json'), join(dir, 'a.json'));
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ info: {}, tasks: [] }));
    writeFileSync(join(dir, 'notes.jsonl'), 'not json\n');
    writeFileSync(join(dir, 'subagents', 'agent-1.jsonl'), 'ignored: a side folder\n');
    const clean = batchJson(dir);
    expect(clean.code).toBe(0);
    expect(clean.summary.skipped.map((s) => s.file.split('/').at(-1))).toEqual(['notes.jsonl', 'results.json']);
    writeFileSync(join(dir, 'z.json'), JSON.stringify([{ role: 'user', content: 'hi' }, 'not a message']));
    const broken = runCli(['replay', dir]);
    expect(broken.code).toBe(2);
    expect(broken.stdout).toContain('2 transcripts: 1 passed, 0 failed, 1 could not be replayed;');
    expect(broken.stderr).toMatch(/^sop replay: \S*z\.json: message 1 is not an object\n$/);
    const empty = join(work, 'empty');
    mkdirSync(empty);
    expect(runCli(['replay', empty])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^sop replay: no conversation in /) });
  });

  it('tells its progress on stderr every 100 files', () => {
    const dir = join(work, 'many');
    mkdirSync(dir);
    const bundle = repositoryBundle();
    const sop = bundle.agents.retail_customer_support!;
    const text = JSON.stringify(chat(chatStepsOf(actsOfWalk(sop, ['START', 'AUTH', 'ROUTE', 'INFO', 'END_INFO']), false)));
    for (let i = 0; i < 205; i++) writeFileSync(join(dir, `t${String(i).padStart(3, '0')}.json`), text);
    const result = runCli(['replay', dir, '--format', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('sop replay: 100/205 files, 100 transcripts\nsop replay: 200/205 files, 200 transcripts\n');
    expect(result.stdout.trimEnd().split('\r\n')).toHaveLength(206);
  });
});

describe('Claude Code session logs that continue one another', () => {
  const log = readFileSync(join(PROJECT_ROOT, FORMATS, 'claude-code-session.jsonl'), 'utf8')
    .split('\n')
    .slice(0, -1);
  const entries = log.map((line) => JSON.parse(line) as Record<string, any>);

  it('scores a resumed session once: the log that repeats the earlier one’s lines supersedes it', () => {
    const dir = join(work, 'resumed');
    mkdirSync(dir);
    const later = [
      ...log,
      JSON.stringify({
        parentUuid: entries.at(-2)!.uuid,
        isSidechain: false,
        type: 'user',
        sessionId: 'later-session',
        uuid: 'l1',
        message: { role: 'user', content: 'Is #W5918442 pending?' },
      }),
      JSON.stringify({
        parentUuid: 'l1',
        isSidechain: false,
        type: 'assistant',
        sessionId: 'later-session',
        uuid: 'l2',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tl', name: 'mcp__retail-tools__get_order_details', input: { order_id: '#W5918442' } }],
        },
      }),
    ];
    writeFileSync(join(dir, 'first.jsonl'), `${log.join('\n')}\n`);
    writeFileSync(join(dir, 'later.jsonl'), `${later.join('\n')}\n`);
    const { code, summary } = batchJson(dir);
    expect(code).toBe(0);
    expect(summary.transcripts.map((r) => [r.transcript.split('/').at(-1), r.steps])).toEqual([['later.jsonl', 5]]);
    expect(summary.superseded.map((s) => [s.transcript.split('/').at(-1), s.by.split('/').at(-1)])).toEqual([
      ['first.jsonl', 'later.jsonl'],
    ]);
  });

  it('reads a session that continues another log after it, as one conversation', () => {
    const dir = join(work, 'continued');
    mkdirSync(dir);
    const cut = log.findIndex((line) => line.includes('"content":"No longer needed."'));
    writeFileSync(join(dir, 'a.jsonl'), `${log.slice(0, cut).join('\n')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${log.slice(cut).join('\n')}\n`);
    // Alone, the later log starts at the user's reason: the cancellation is neither authenticated nor its order
    // read there (evidence of AUTH and of CHK_CANCEL, and the status decided by data): no walk explains it cheaply.
    const alone = runCli(['replay', join(dir, 'b.jsonl'), '--agent', 'retail_customer_support', '--format', 'json']);
    expect(alone.code).toBe(1);
    const conformance = JSON.parse(alone.stdout).conformance;
    expect(conformance.by_kind.skipped_required).toBe(1);
    expect(conformance.fitness).toBeLessThan(0.5);
    const { code, summary } = batchJson(dir);
    expect(code).toBe(0);
    expect(summary.transcripts.map((r) => [r.transcript.split('/').at(-1), r.verdict, r.fitness, r.steps])).toEqual([
      ['b.jsonl', 'pass', 1, 4],
    ]);
    expect(summary.superseded.map((s) => s.transcript.split('/').at(-1))).toEqual(['a.jsonl']);
  });
});

describe('sop replay FILE of several conversations', () => {
  it('prints the batch table for τ²-bench results given alone', () => {
    const result = runCli(['replay', TAU2]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'outcomes (the τ²-bench rewards): 2 successes, mean fitness 1.0000; 1 failure, mean fitness 0.6667; 0 without an outcome; AUC of fitness for success 1.0000',
    );
  });
});
