/**
 * Reading what `sop replay` is given (`read-conversation.ts`, `read-messages.ts`, `read-audit.ts`): every shape of
 * the same conversation gives the same events; an MCP client's tool-name prefix is taken off known tools; what is
 * not the agent's (system messages, a τ²-bench user's own tool calls, Anthropic tool results) is left out; a malformed input is an error
 * that names the place, never a guess.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../contract/run/call-results.js';
import { TOOLKIT_TOOLS } from '../../../analysis/replay/check-conversation.js';
import { readConversation, readTranscripts } from '../../../analysis/replay/read-conversation.js';
import { call, chat, moves, repositoryBundle, say, user } from '../../support/chat-transcripts.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const bundle = repositoryBundle();
const KNOWN = new Set<string>([...TOOLKIT_TOOLS, ...Object.values(bundle.agents).flatMap((sop) => sop.tools)]);

const read = (text: string) => readConversation(text, KNOWN);
const eventsOf = (text: string) => {
  const result = read(text);
  if (!result.ok) throw new Error(result.error);
  return result.conversation.events;
};

const MESSAGES = chat(
  user('Is order #W1 pending?'),
  call('load_graph', { agent: 'retail_customer_support' }),
  call('goto_node', { node_id: 'START' }, { valid: true, path: ['START'] }),
  say('Let me check.'),
  call('get_order_details', { order_id: '#W1' }, { status: 'pending' }),
);

/** The same messages as τ²-bench writes them: tool calls `{id, name, arguments, requestor}`, tool messages with `id`. */
function asTau2(messages: readonly Record<string, unknown>[]) {
  return messages.map((message) => {
    const calls = message.tool_calls as { id: string; function: { name: string; arguments: string } }[] | undefined;
    if (message.role === 'tool') return { role: 'tool', id: message.tool_call_id, content: message.content, requestor: 'assistant' };
    if (calls === undefined) return { ...message, tool_calls: null };
    return {
      ...message,
      tool_calls: calls.map((c) => ({
        id: c.id,
        name: c.function.name,
        arguments: JSON.parse(c.function.arguments),
        requestor: 'assistant',
      })),
    };
  });
}

/** The same messages as Anthropic's Messages API (Claude Code, the Agent SDK) writes them: content blocks. */
function asAnthropic(messages: readonly Record<string, unknown>[]) {
  return messages.map((message) => {
    const calls = message.tool_calls as { id: string; function: { name: string; arguments: string } }[] | undefined;
    if (message.role === 'tool')
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: [{ type: 'text', text: message.content }] }],
      };
    const text = typeof message.content === 'string' && message.content !== '' ? [{ type: 'text', text: message.content }] : [];
    const uses = (calls ?? []).map((c) => ({
      type: 'tool_use',
      id: c.id,
      name: `mcp__sop__${c.function.name}`,
      input: JSON.parse(c.function.arguments),
    }));
    return { role: message.role, content: [...text, ...uses] };
  });
}

describe('the shapes of a chat transcript', () => {
  it('reads a list, {messages}, JSON Lines (CRLF, blank lines) and τ²-bench messages into the same events', () => {
    const expected = eventsOf(JSON.stringify(MESSAGES));
    expect(
      expected.map((event) => (event.kind === 'call' ? `${event.tool} ${JSON.stringify(event.recorded ?? null)}` : event.kind)),
    ).toEqual(['user', 'load_graph null', 'goto_node {"valid":true}', 'say', 'get_order_details null']);
    expect(eventsOf(JSON.stringify({ messages: MESSAGES }))).toEqual(expected);
    expect(eventsOf(`${MESSAGES.map((m) => JSON.stringify(m)).join('\r\n\r\n')}\r\n`)).toEqual(expected);
    expect(eventsOf(JSON.stringify({ id: 'sim-1', task_id: '7', messages: asTau2(MESSAGES) }))).toEqual(expected);
  });

  it('reads Anthropic content blocks: tool_use calls, and tool_result answers that are not the user speaking', () => {
    const expected = eventsOf(JSON.stringify(MESSAGES));
    expect(eventsOf(JSON.stringify({ messages: asAnthropic(MESSAGES) }))).toEqual(expected);
  });

  it('reads JSON Lines of one message', () => {
    const line = JSON.stringify(chat(moves('START'))[0]);
    expect(eventsOf(`${line}\n`)).toEqual([
      { kind: 'call', tool: 'goto_node', args: { node_id: 'START' }, place: { message: 0, tool_call_id: 'call_1' } },
    ]);
  });

  it("leaves out system and developer messages and a τ²-bench user's own tool calls; reads text parts", () => {
    const events = eventsOf(
      JSON.stringify([
        { role: 'system', content: 'You are an agent.' },
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Yes,' },
            { type: 'image_url', image_url: { url: 'x' } },
            { type: 'text', text: 'go ahead.' },
          ],
        },
        { role: 'user', content: 'Rebooted.', tool_calls: [{ id: 'u1', name: 'reboot_device', arguments: {}, requestor: 'user' }] },
      ]),
    );
    expect(events).toEqual([
      { kind: 'user', text: 'Yes,\ngo ahead.', place: { message: 2 } },
      { kind: 'user', text: 'Rebooted.', place: { message: 3 } },
    ]);
  });

  it.each([
    ['mcp__sop__goto_node', 'goto_node'],
    ['mcp__retail-tools__get_order_details', 'get_order_details'],
    ['functions.todo', 'todo'],
    ['sop/load_graph', 'load_graph'],
    ['mcp__search__web_search', 'mcp__search__web_search'],
    // VS Code, Copilot CLI and Cursor; the Copilot SDK; Gemini CLI; others.
    ['mcp_retail-tools_get_order_details', 'get_order_details'],
    ['retail-tools-cancel_pending_order', 'cancel_pending_order'],
    ['retail-tools__find_user_id_by_email', 'find_user_id_by_email'],
    ['retail.get_user_details', 'get_user_details'],
    ['retail:calculate', 'calculate'],
    // The longest known tool the name ends with, after a separator; a tail glued to a word is not a tool.
    ['mcp__x__find_user_id_by_name_zip', 'find_user_id_by_name_zip'],
    ['xget_order_details', 'xget_order_details'],
    ['get_order_details_', 'get_order_details_'],
  ])('names a call of %s %s', (name, tool) => {
    expect(eventsOf(JSON.stringify(chat(call(name, {}))))).toMatchObject([{ tool }]);
  });
});

describe('inputs it cannot read', () => {
  const message = (value: unknown) => JSON.stringify([{ role: 'user', content: 'hi' }, value]);
  it.each([
    [
      '',
      'the file is neither JSON nor JSON Lines; expected a run (sop runs show RUN --format json), chat messages (a list, {"messages": [...]}, or JSON Lines), a Claude Code session log, OpenAI Responses items, or τ²-bench results',
    ],
    [
      '{"role": "user"}\n{"role": ',
      'the file is neither JSON nor JSON Lines; expected a run (sop runs show RUN --format json), chat messages (a list, {"messages": [...]}, or JSON Lines), a Claude Code session log, OpenAI Responses items, or τ²-bench results',
    ],
    [
      '{"transcript": []}',
      'the file holds no conversation; expected a run (sop runs show RUN --format json), chat messages (a list, {"messages": [...]}, or JSON Lines), a Claude Code session log, OpenAI Responses items, or τ²-bench results',
    ],
    [
      '42',
      'the file holds no conversation; expected a run (sop runs show RUN --format json), chat messages (a list, {"messages": [...]}, or JSON Lines), a Claude Code session log, OpenAI Responses items, or τ²-bench results',
    ],
    [message('hello'), 'message 1 is not an object'],
    [message({ content: 'hello' }), 'message 1 has no role (user, assistant or tool)'],
    [message({ role: 'assistant', tool_calls: {} }), 'message 1: tool_calls is not a list'],
    [message({ role: 'assistant', tool_calls: [{ id: 'c1', function: { arguments: '{}' } }] }), 'message 1, tool call 0: no function name'],
    ['{"run": {"agent": "a"}, "audit": []}', '`run` is not a run of `sop runs show --format json` (it needs agent and sourceHash)'],
    ['{"run": {"agent": "a", "sourceHash": "h"}, "audit": {}}', '`audit` is not a list of audit entries'],
    [
      '{"run": {"agent": "a", "sourceHash": "h"}, "audit": [{"tool": "todo", "outcome": "ok"}]}',
      'audit entry 0 is not an audit entry (it needs seq, tool and outcome)',
    ],
  ])('%j: %s', (text, error) => {
    expect(read(text)).toEqual({ ok: false, error });
  });
});

describe('an audit log', () => {
  it("reads a gateway's domain calls: an answered call once, a refused one failed, a question as no call, a forwarding left unanswered as the call", () => {
    const domain = (phase: string, extra: object = {}) => ({
      kind: 'domain',
      server: 'retail-tools',
      rule: 'node-tools',
      sop: 'sha256:1',
      phase,
      ...extra,
    });
    const result = read(
      JSON.stringify({
        run: { runId: 'r1', agent: 'retail_customer_support', sourceHash: 'sha256:1' },
        audit: [
          {
            seq: 1,
            tool: 'get_order_details',
            input: { order_id: '#W1', run_id: 'r1' },
            outcome: 'ok',
            detail: domain('answered', { read: true }),
          },
          { seq: 2, tool: 'cancel_pending_order', input: { order_id: '#W1' }, outcome: 'refused', detail: domain('decided') },
          {
            seq: 3,
            tool: 'cancel_pending_order',
            input: { order_id: '#W1' },
            outcome: 'pending',
            detail: domain('decided', { confirmation: 'asked' }),
          },
          {
            seq: 4,
            tool: 'cancel_pending_order',
            input: { order_id: '#W1' },
            outcome: 'pending',
            detail: domain('forwarding', { confirmation: 'yes' }),
          },
          {
            seq: 5,
            tool: 'cancel_pending_order',
            input: { order_id: '#W1' },
            outcome: 'ok',
            detail: domain('answered', { confirmation: 'yes' }),
          },
          {
            seq: 6,
            tool: 'modify_user_address',
            input: { user_id: 'u' },
            outcome: 'pending',
            detail: domain('forwarding', { confirmation: 'step' }),
          },
        ],
      }),
    );
    expect(result.ok && result.conversation.domainCalls).toBe(true);
    expect(result.ok && result.conversation.events).toEqual([
      { kind: 'call', tool: 'get_order_details', args: { order_id: '#W1' }, place: { seq: 1 } },
      { kind: 'call', tool: 'cancel_pending_order', args: { order_id: '#W1' }, failed: true, result: { isError: true }, place: { seq: 2 } },
      { kind: 'call', tool: 'cancel_pending_order', args: { order_id: '#W1' }, confirmed: 'yes', place: { seq: 5 } },
      // Sent, and no answer recorded: its outcome is unknown (a replay holds the next change of that user for a read).
      { kind: 'call', tool: 'modify_user_address', args: { user_id: 'u' }, confirmed: 'step', unknown: true, place: { seq: 6 } },
    ]);
  });

  it('reads each entry as a call at its seq, a goto_node with its outcome as the recorded answer', () => {
    const result = read(
      JSON.stringify({
        store: 'sqlite:runs.db',
        run: { runId: 'r1', agent: 'retail_customer_support', sourceHash: 'sha256:1' },
        audit: [
          { seq: 1, tool: 'load_graph', input: { agent: 'retail_customer_support' }, outcome: 'ok' },
          { seq: 2, tool: 'goto_node', input: { node_id: 'AUTH' }, outcome: 'refused' },
          { seq: 3, tool: 'goto_node', input: 'START', outcome: 'error' },
        ],
      }),
    );
    expect(result).toEqual({
      ok: true,
      conversation: {
        format: 'audit',
        run: { runId: 'r1', agent: 'retail_customer_support', sourceHash: 'sha256:1' },
        events: [
          { kind: 'call', tool: 'load_graph', args: { agent: 'retail_customer_support' }, place: { seq: 1 } },
          { kind: 'call', tool: 'goto_node', args: { node_id: 'AUTH' }, recorded: { valid: false }, place: { seq: 2 } },
          {
            kind: 'call',
            tool: 'goto_node',
            args: null,
            argsProblem: 'the recorded input is not an object',
            recorded: { valid: false },
            place: { seq: 3 },
          },
        ],
      },
    });
  });
});

describe('files of several conversations', () => {
  const readAll = (text: string) => {
    const result = readTranscripts(text, KNOWN);
    if (!result.ok) throw new Error(result.error);
    return result.transcripts;
  };

  it('reads τ²-bench results: a transcript per simulation, named by its id, with its reward', () => {
    const simulation = (id: string, reward: number) => ({ id, task_id: '1', messages: asTau2(MESSAGES), reward_info: { reward } });
    const transcripts = readAll(JSON.stringify({ info: {}, tasks: [], simulations: [simulation('s1', 1), simulation('s2', 0)] }));
    expect(transcripts.map((t) => [t.id, t.reward, t.conversation.reader, t.conversation.events.length])).toEqual([
      ['s1', 1, 'tau2-bench', 5],
      ['s2', 0, 'tau2-bench', 5],
    ]);
    expect(readConversation(JSON.stringify({ simulations: [simulation('s1', 1), simulation('s2', 0)] }), KNOWN)).toEqual({
      ok: false,
      error: 'the file holds 2 conversations; replay them as a batch',
    });
    expect(readTranscripts(JSON.stringify({ simulations: [{ id: 'v1', ticks: [] }] }), KNOWN)).toEqual({
      ok: false,
      error: 'simulation v1 has no messages (a full-duplex run keeps ticks, which this replay does not read)',
    });
  });

  it('reads JSON Lines of conversations (fine-tuning data): a transcript per line', () => {
    const lines = [JSON.stringify({ messages: MESSAGES }), JSON.stringify({ messages: MESSAGES.slice(0, 2) })].join('\n');
    expect(readAll(lines).map((t) => [t.id, t.conversation.events.length])).toEqual([
      ['line 1', 5],
      ['line 2', 2],
    ]);
  });
});

describe('answers and failures', () => {
  it('reads Anthropic MCP connector blocks and τ²-bench answers grouped in one tool message; notes failed calls', () => {
    const anthropic = [
      {
        role: 'assistant',
        content: [{ type: 'mcp_tool_use', id: 'm1', name: 'get_order_details', server_name: 'retail-tools', input: { order_id: '#W1' } }],
      },
      {
        role: 'user',
        content: [{ type: 'mcp_tool_result', tool_use_id: 'm1', is_error: true, content: [{ type: 'text', text: 'not found' }] }],
      },
    ];
    expect(eventsOf(JSON.stringify(anthropic))).toEqual([
      {
        kind: 'call',
        tool: 'get_order_details',
        args: { order_id: '#W1' },
        failed: true,
        result: { text: 'not found', isError: true },
        place: { message: 0, tool_call_id: 'm1' },
      },
    ]);
    const tau2 = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', name: 'get_order_details', arguments: {} },
          { id: 'b', name: 'goto_node', arguments: { node_id: 'START' } },
        ],
      },
      {
        role: 'tool',
        tool_messages: [
          { role: 'tool', id: 'a', content: 'boom', error: true },
          { role: 'tool', id: 'b', content: '{"valid":true}', error: false },
        ],
      },
    ];
    expect(
      eventsOf(JSON.stringify(tau2)).map((e) => (e.kind === 'call' ? [e.tool, e.failed ?? false, e.recorded ?? null] : e.kind)),
    ).toEqual([
      ['get_order_details', true, null],
      ['goto_node', false, { valid: true }],
    ]);
  });
});

describe('the logs teams already have (test/fixtures/transcripts/formats/)', () => {
  const FORMATS = join(PROJECT_ROOT, 'test/fixtures/transcripts/formats');
  const DOMAIN = new Set(bundle.agents.retail_customer_support!.tools);

  it.each(readdirSync(FORMATS))('%s carries the answer of every domain call, as its format writes it', (file) => {
    const read = readTranscripts(readFileSync(join(FORMATS, file), 'utf8'), KNOWN);
    if (!read.ok) throw new Error(read.error);
    const domainCalls = read.transcripts.flatMap((t) =>
      t.conversation.events.filter((e) => e.kind === 'call' && DOMAIN.has(e.tool)).map((e) => ({ id: t.id, call: e })),
    );
    expect(domainCalls.length).toBeGreaterThan(0);
    for (const { id, call } of domainCalls) {
      if (call.kind !== 'call') continue;
      expect(call.result, `${id ?? file}: ${call.tool}`).toBeDefined();
      expect(readAnswer(call.result!).kind, `${id ?? file}: ${call.tool}`).toBe('found');
    }
  });
});
