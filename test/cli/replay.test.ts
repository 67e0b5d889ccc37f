/**
 * `sop replay FILE` as CI runs it (the real CLI, a child process, against the repository's compiled agents):
 *   - the transcripts of test/fixtures/transcripts (the seed's retail customer; see its README), whose toolkit
 *     answers are checked here against the real server first, so they cannot drift from what it says: the seed
 *     walkthrough passes with score 1; each bad one fails on exactly its rule, at its step, node and message;
 *     OpenAI messages, τ²-bench messages, JSON Lines and MCP-client tool names all read;
 *   - a real run's audit log: `sop serve --http` on a SQLite file, driven by the SDK Client (a refused move
 *     included), shown by `sop runs show --format json`, replayed; then replayed against a rebuilt, edited SOP;
 *   - exit codes: 0 pass, 1 fail, 2 could not run (usage, unreadable file, not a conversation, no agent, no bundle).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayReport } from '../../analysis/replay/replay-report.js';
import { TOOLKIT_TOOLS } from '../../analysis/replay/check-conversation.js';
import { connectInMemory, fixtureService } from '../runtime/helpers/mcp-client.js';
import { repositoryBundle } from '../support/chat-transcripts.js';
import { type CliResult, PROJECT_ROOT, runCli } from '../support/run-cli.js';
import { httpClient, startServe } from '../support/serve-process.js';

const FIXTURES = 'test/fixtures/transcripts';
const bundle = repositoryBundle();
const HASH = bundle.agents.retail_customer_support!.sourceHash;
const NOT_CHECKED =
  'not checked: domain tool calls and user confirmations (the audit log of a server that is not a gateway records neither)';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sop-replay-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function replayJson(...args: string[]): { result: CliResult; report: ReplayReport } {
  const result = runCli(['replay', ...args, '--format', 'json']);
  expect(result.stderr).toBe('');
  return { result, report: JSON.parse(result.stdout) as ReplayReport };
}

type Message = Record<string, any>;

/** A fixture's messages, whatever its shape. */
function fixtureMessages(name: string): Message[] {
  const text = readFileSync(join(PROJECT_ROOT, FIXTURES, name), 'utf8');
  if (name.endsWith('.jsonl'))
    return text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Message);
  const value = JSON.parse(text) as Message[] | { messages: Message[] };
  return Array.isArray(value) ? value : value.messages;
}

/** Every tool call of the agent, OpenAI or τ²-bench shaped, with the text of its tool message. */
function agentCalls(messages: readonly Message[]): { name: string; args: Record<string, unknown>; answer: string | undefined }[] {
  const answers = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? m.id, m.content as string]));
  return messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => (m.tool_calls ?? []) as Message[])
    .map((c) => {
      const args = c.function?.arguments ?? c.arguments;
      return { name: c.function?.name ?? c.name, args: typeof args === 'string' ? JSON.parse(args) : args, answer: answers.get(c.id) };
    });
}

const transcripts = readdirSync(join(PROJECT_ROOT, FIXTURES)).filter((name) => /\.jsonl?$/.test(name));

describe('the transcript fixtures', () => {
  it('are seven, and every toolkit answer they record is what the real server answers to the same calls', async () => {
    expect(transcripts).toHaveLength(7);
    for (const name of transcripts) {
      const service = fixtureService({ bundle, projectRoot: PROJECT_ROOT });
      const connection = await connectInMemory({ service });
      try {
        const toolkit = agentCalls(fixtureMessages(name)).filter((c) => (TOOLKIT_TOOLS as readonly string[]).includes(c.name));
        expect(toolkit.length, name).toBeGreaterThan(5);
        for (const [index, { name: tool, args, answer }] of toolkit.entries()) {
          const served = (await connection.call(tool, args)).answer;
          expect(answer, `${name}: ${tool} call ${index} has no recorded answer`).toBeTypeOf('string');
          const recorded = JSON.parse(answer!) as Message;
          // The recording abridges: a run id of its own, a node without its prompt and examples.
          if (tool === 'load_graph') expect({ ...served, run_id: recorded.run_id }, name).toMatchObject(recorded);
          else expect(served, `${name}: ${tool} ${JSON.stringify(args)}`).toMatchObject(recorded);
          if (tool === 'goto_node')
            expect(Object.keys(recorded), name).toEqual(
              expect.arrayContaining(served.valid ? ['node', 'edges', 'path', 'valid'] : Object.keys(served)),
            );
          if (tool === 'todo') expect(recorded, name).toEqual(served);
        }
      } finally {
        await connection.close();
        await service.close();
      }
    }
  });
});

describe('sop replay on chat transcripts', () => {
  it('passes the seed walkthrough (three tasks) with score 1, in text and in JSON', () => {
    const file = `${FIXTURES}/seed-walkthrough.json`;
    const text = runCli(['replay', file]);
    expect([text.code, text.stderr, text.stdout]).toEqual([
      0,
      '',
      `sop replay: ${file} (chat messages) against retail_customer_support ${HASH}\n` +
        'PASS  score 1.0000 (28/28 steps compliant), prefix 1.0000; ended at END_EXCH; terminals reached: END_MOD, END_UADDR, END_EXCH\n' +
        'conformance (walk anchored by goto_node): fitness 1.0000 (cost 0 of 31); one optimal alignment\n',
    ]);
    const { result, report } = replayJson(file);
    expect(result.code).toBe(0);
    expect(report).toMatchObject({
      format: 'sop-replay/1',
      file,
      input: 'messages',
      agent: 'retail_customer_support',
      source_hash: HASH,
      run: null,
      verdict: 'pass',
      score: 1,
      prefix_score: 1,
      steps: { total: 28, compliant: 28, first_violation: null },
      terminal: 'END_EXCH',
      terminals_reached: ['END_MOD', 'END_UADDR', 'END_EXCH'],
      final_path: ['START', 'AUTH', 'ROUTE', 'CHK_EXCH', 'IS_DELIVERED_E', 'COLLECT_EXCH', 'DO_EXCH', 'END_EXCH'],
      checked: { moves: true, domain_tools: true, confirmations: true },
      findings: [],
    });
    const calls = agentCalls(fixtureMessages('seed-walkthrough.json')).filter((c) => !['load_graph', 'todo'].includes(c.name));
    expect(report.timeline.map((step) => step.name)).toEqual(calls.map((c) => (c.name === 'goto_node' ? c.args.node_id : c.name)));
  });

  it.each([
    {
      file: 'skipped-status-check.json',
      score: 0.9167,
      prefix: 0.5,
      steps: { total: 12, compliant: 11, first_violation: 7 },
      finding: {
        rule: 'illegal_move',
        step: 7,
        node: 'CHK_CANCEL',
        at: { message: 18, tool_call_id: 'call_08' },
        message: 'goto_node COLLECT_CANCEL from CHK_CANCEL: not a legal move; legal: IS_PENDING_C, START, ROUTE',
      },
    },
    {
      file: 'tool-outside-its-node.json',
      score: 0.875,
      prefix: 0.375,
      steps: { total: 8, compliant: 7, first_violation: 4 },
      finding: {
        rule: 'tool_not_allowed',
        step: 4,
        node: 'AUTH',
        at: { message: 12, tool_call_id: 'call_05' },
        message: 'get_user_details called at AUTH, which allows find_user_id_by_email, find_user_id_by_name_zip',
      },
    },
    {
      file: 'unconfirmed-cancel.json',
      score: 0.9091,
      prefix: 0.8182,
      steps: { total: 11, compliant: 10, first_violation: 10 },
      finding: {
        rule: 'unconfirmed_call',
        policy: 'confirm_before_changes',
        step: 10,
        node: 'DO_CANCEL',
        at: { message: 28, tool_call_id: 'call_11' },
        message: expect.stringMatching(
          /^cancel_pending_order at DO_CANCEL: the user's last message before the call, "Hmm, wait\. Will the refund go to my PayPal or to my card\?", is not a confirmation/,
        ),
      },
    },
    {
      file: 'return-without-asking.jsonl',
      score: 0.9091,
      prefix: 0.8182,
      steps: { total: 11, compliant: 10, first_violation: 10 },
      finding: {
        rule: 'unconfirmed_call',
        policy: 'confirm_before_changes',
        step: 10,
        node: 'DO_RETURN',
        at: { message: 26, tool_call_id: 'call_11' },
        message: expect.stringMatching(
          /^return_delivered_order_items at DO_RETURN: the user said nothing at DO_RETURN between the move there and the call/,
        ),
      },
    },
    {
      file: 'stops-before-terminal.json',
      score: 1,
      prefix: 1,
      steps: { total: 9, compliant: 9, first_violation: null },
      finding: {
        rule: 'unfinished',
        step: null,
        node: 'COLLECT_EXCH',
        at: null,
        message: 'the conversation ends at COLLECT_EXCH, not at a terminal node',
      },
    },
  ])('fails $file on its one rule, exit 1', ({ file, score, prefix, steps, finding }) => {
    const { result, report } = replayJson(`${FIXTURES}/${file}`);
    expect(result.code).toBe(1);
    expect([report.verdict, report.score, report.prefix_score, report.steps]).toEqual(['fail', score, prefix, steps]);
    expect(report.findings).toEqual([{ severity: 'error', ...finding }]);
  });

  it('prints a failure as text: the verdict, then the finding with its step and place', () => {
    const file = `${FIXTURES}/skipped-status-check.json`;
    expect(runCli(['replay', file])).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        `sop replay: ${file} (chat messages) against retail_customer_support ${HASH}`,
        'FAIL  score 0.9167 (11/12 steps compliant), prefix 0.5000; ended at END_CANCEL; terminals reached: END_CANCEL',
        '  step 7 (message 18, call call_08) error illegal_move: goto_node COLLECT_CANCEL from CHK_CANCEL: not a legal move; legal: IS_PENDING_C, START, ROUTE',
        'conformance (walk anchored by goto_node): fitness 0.9231 (cost 1 of 13); one optimal alignment',
        '  step 7 (message 18, call call_08) declared_move_off_walk: goto_node COLLECT_CANCEL is not on the walk: the rule refuses it from CHK_CANCEL; the walk stays at CHK_CANCEL',
        '',
      ].join('\n'),
    });
  });

  it('passes the τ²-bench simulation (cancel an order, then change the default address)', () => {
    const { result, report } = replayJson(`${FIXTURES}/tau2-cancel-and-address.json`);
    expect(result.code).toBe(0);
    expect(report).toMatchObject({
      verdict: 'pass',
      score: 1,
      steps: { total: 16 },
      terminals_reached: ['END_CANCEL', 'END_UADDR'],
      findings: [],
    });
  });

  it('reads the tool names of an MCP client (mcp__sop__goto_node, mcp__retail-tools__…) as the tools they are', () => {
    const prefixed = fixtureMessages('seed-walkthrough.json').map((message) => ({
      ...message,
      ...(message.tool_calls === undefined
        ? {}
        : {
            tool_calls: (message.tool_calls as Message[]).map((c) => ({
              ...c,
              function: {
                ...c.function,
                name: `mcp__${TOOLKIT_TOOLS.includes(c.function.name) ? 'sop' : 'retail-tools'}__${c.function.name}`,
              },
            })),
          }),
    }));
    expect(prefixed.flatMap((m) => (m.tool_calls ?? []).map((c: Message) => c.function.name))).toContain('mcp__sop__goto_node');
    const file = join(work, 'prefixed.json');
    writeFileSync(file, JSON.stringify(prefixed));
    const { result, report } = replayJson(file);
    const original = replayJson(`${FIXTURES}/seed-walkthrough.json`).report;
    expect(result.code).toBe(0);
    expect({ ...report, file: original.file }).toEqual(original);
  });

  it('checks against the agent named with --agent: the seed against it_helpdesk is another agent and no legal move', () => {
    const { result, report } = replayJson(`${FIXTURES}/seed-walkthrough.json`, '--agent', 'it_helpdesk');
    expect(result.code).toBe(1);
    expect(report.agent).toBe('it_helpdesk');
    expect(report.findings[0]).toMatchObject({
      rule: 'other_agent',
      message: 'load_graph starts sops/retail_customer_support.md; this replay checks sops/it_helpdesk_password_reset.md',
    });
    expect(report.steps.compliant).toBe(0);
  });

  it('needs --agent when the transcript does not say which agent it is about and the bundle has several', () => {
    const file = join(work, 'no-load-graph.json');
    // Without load_graph and without a domain call (its tools would tell the agent), only moves are left.
    const messages = fixtureMessages('tool-outside-its-node.json').filter(
      (m) => m.role !== 'tool' && !m.tool_calls?.some((c: Message) => c.function.name !== 'goto_node'),
    );
    writeFileSync(file, JSON.stringify(messages));
    expect(runCli(['replay', file])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'sop replay: the transcript does not say which agent it is about: pass --agent (agents: it_helpdesk, retail_customer_support)\n',
    });
    const named = replayJson(file, '--agent', 'retail_customer_support');
    expect([named.result.code, named.report.findings.map((f) => f.rule)]).toEqual([0, []]);
  });

  it('knows the agent by its tools when the transcript never loads one', () => {
    const file = join(work, 'agent-by-tools.json');
    const messages = fixtureMessages('tool-outside-its-node.json').filter(
      (m) => !m.tool_calls?.some((c: Message) => c.function.name === 'load_graph'),
    );
    writeFileSync(file, JSON.stringify(messages));
    const { result, report } = replayJson(file);
    expect([result.code, report.agent, report.findings.map((f) => f.rule)]).toEqual([1, 'retail_customer_support', ['tool_not_allowed']]);
  });
});

describe('sop replay of a real run', () => {
  let store: string;
  let runFile: string;
  let runId: string;

  beforeAll(async () => {
    store = `sqlite:${join(work, 'runs.db')}`;
    const server = await startServe(['--store', store], PROJECT_ROOT);
    try {
      const { client } = await httpClient(server.url);
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })).structuredContent as Message;
      runId = (await call('load_graph', { agent: 'retail_customer_support' })).run_id;
      for (const node of ['START', 'AUTH', 'CHK_CANCEL', 'ROUTE', 'INFO', 'END_INFO']) await call('goto_node', { node_id: node });
      await call('todo', { todos: [{ content: 'Answer the order question', status: 'completed', completion_node: 'END_INFO' }] });
      await client.close();
    } finally {
      await server.stop();
    }
    const shown = runCli(['runs', 'show', runId, '--format', 'json', '--store', store]);
    expect(shown.code, shown.stderr).toBe(0);
    runFile = join(work, 'run.json');
    writeFileSync(runFile, shown.stdout);
  });

  it('checks the recorded moves, the refused one as recorded, and says what an audit log cannot show', () => {
    const { result, report } = replayJson(runFile);
    expect(result.code).toBe(1);
    expect(report).toMatchObject({
      input: 'audit',
      agent: 'retail_customer_support',
      source_hash: HASH,
      run: { run_id: runId, source_hash: HASH },
      verdict: 'fail',
      steps: { total: 6, compliant: 5, first_violation: 3 },
      terminal: 'END_INFO',
      final_path: ['START', 'AUTH', 'ROUTE', 'INFO', 'END_INFO'],
      checked: { moves: true, domain_tools: false, confirmations: false },
    });
    expect(report.timeline.map((step) => [step.at, step.name, step.from, step.to, step.ok])).toEqual([
      [{ seq: 2 }, 'START', null, 'START', true],
      [{ seq: 3 }, 'AUTH', 'START', 'AUTH', true],
      [{ seq: 4 }, 'CHK_CANCEL', 'AUTH', 'AUTH', false],
      [{ seq: 5 }, 'ROUTE', 'AUTH', 'ROUTE', true],
      [{ seq: 6 }, 'INFO', 'ROUTE', 'INFO', true],
      [{ seq: 7 }, 'END_INFO', 'INFO', 'END_INFO', true],
    ]);
    const text = runCli(['replay', runFile]);
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n').slice(1)).toEqual([
      'FAIL  score 0.8333 (5/6 steps compliant), prefix 0.3333; ended at END_INFO; terminals reached: END_INFO',
      NOT_CHECKED,
      '  step 3 (audit seq 4) error illegal_move: goto_node CHK_CANCEL from AUTH: not a legal move; legal: ROUTE, START',
      'conformance (walk anchored by goto_node): fitness 0.8333 (cost 1 of 6); one optimal alignment',
      '  step 3 (audit seq 4) declared_move_off_walk: goto_node CHK_CANCEL is not on the walk: the rule refuses it from AUTH; the walk stays at AUTH',
      '',
    ]);
    expect(text.stdout.split('\n')[0]).toMatch(
      new RegExp(`^sop replay: \\S*run\\.json \\(audit log\\) against retail_customer_support ${HASH}$`),
    );
  });

  it('warns when the run was pinned to another version of the SOP than the one it is checked against', () => {
    const sops = join(work, 'edited', 'sops');
    mkdirSync(sops, { recursive: true });
    const source = readFileSync(join(PROJECT_ROOT, 'sops', 'retail_customer_support.md'), 'utf8');
    writeFileSync(join(sops, 'retail_customer_support.md'), source.replace('Must verify even if', 'Always verify, even if'));
    const out = join(work, 'edited', 'out');
    const built = runCli(['build', '--sops', sops, '--out', out]);
    expect(built.code, built.stderr).toBe(0);
    const edited = (JSON.parse(readFileSync(join(out, 'sop-bundle.json'), 'utf8')) as typeof bundle).agents.retail_customer_support!
      .sourceHash;
    expect(edited).not.toBe(HASH);

    const { result, report } = replayJson(runFile, '--out', out);
    expect(result.code).toBe(1);
    expect([report.source_hash, report.run?.source_hash]).toEqual([edited, HASH]);
    expect(report.findings.map((f) => [f.severity, f.rule])).toEqual([
      ['warning', 'version_mismatch'],
      ['error', 'illegal_move'],
    ]);
    expect(runCli(['replay', runFile, '--out', out]).stdout).toContain(
      `\n  warning version_mismatch: the run was pinned to ${HASH}; it is checked against the compiled ${edited}\n`,
    );
  });
});

describe('sop replay: what it cannot run (exit 2)', () => {
  it.each([
    [['replay'], /^sop replay: name a transcript file or a folder of them\n\nUsage: sop replay FILE/],
    [['replay', 'a.json', 'b.json'], /^sop replay: cannot read a\.json \(ENOENT\)\n$/],
    [
      ['replay', `${FIXTURES}/seed-walkthrough.json`, '--format', 'yaml'],
      /^sop replay: --format is text, json or csv, got yaml\n\nUsage: /,
    ],
    [
      ['replay', `${FIXTURES}/seed-walkthrough.json`, '--max-states', '0'],
      /^sop replay: --max-states is a whole number of states, at least 1; got 0\n\nUsage: /,
    ],
    [['replay', `${FIXTURES}/seed-walkthrough.json`, '--verbose'], /^sop replay: Unknown option '--verbose'.*\n\nUsage: /s],
    [['replay', 'no/such/file.json'], /^sop replay: cannot read no\/such\/file\.json \(ENOENT\)\n$/],
    [
      ['replay', `${FIXTURES}/seed-walkthrough.json`, '--agent', 'nobody'],
      /^sop replay: no agent nobody in the compiled bundle \(agents: it_helpdesk, retail_customer_support\)\n$/,
    ],
    [
      ['replay', `${FIXTURES}/seed-walkthrough.json`, '--out', 'no-such-folder'],
      /^sop replay: no compiled agents: no-such-folder\/sop-bundle\.json does not exist\./,
    ],
  ])('%j', (args, stderr) => {
    const result = runCli(args);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(stderr);
  });

  it('says what it expected of a file that is not a conversation', () => {
    const file = join(work, 'notes.txt');
    writeFileSync(file, 'The customer wanted to cancel.\n');
    const result = runCli(['replay', file]);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(
      /^sop replay: \S*notes\.txt: the file is neither JSON nor JSON Lines; expected a run \(sop runs show RUN --format json\), chat messages \(a list, \{"messages": \[\.\.\.\]\}, or JSON Lines\), a Claude Code session log, OpenAI Responses items, or τ²-bench results\n$/,
    );
  });

  it('prints the usage for --help, exit 0', () => {
    expect(runCli(['replay', '--help'])).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^Usage: sop replay FILE/) });
  });
});
