/**
 * What a chat transcript's calls answered (`read-messages.ts`): each answer kept on the call it answers, as text (a
 * string, or text parts joined), with `isError` when the input says it failed: OpenAI tool messages, τ²-bench's
 * (one a message, or several in `tool_messages`, `error: true`), Anthropic `tool_result` and `mcp_tool_result` blocks
 * (`is_error`). The answers read as `readAnswer` reads them: τ²-bench's `{"result": …}` wrapper, an error, an empty
 * answer.
 */
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../contract/run/call-results.js';
import type { ToolCallEvent } from '../../../analysis/replay/conversation.js';
import { readMessages } from '../../../analysis/replay/read-messages.js';
import { knownTools } from '../../../analysis/replay/replay.js';
import { repositoryBundle } from '../../support/chat-transcripts.js';

const KNOWN = knownTools(repositoryBundle());

function callsOf(messages: readonly unknown[]): ToolCallEvent[] {
  const read = readMessages(messages, KNOWN);
  if (!read.ok) throw new Error(read.error);
  return read.events.filter((event): event is ToolCallEvent => event.kind === 'call');
}

const openaiCall = (id: string, name: string, args: object = {}) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const tau2Call = (id: string, name: string, args: object = {}) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, name, arguments: args, requestor: 'assistant' }],
});
const anthropicCall = (id: string, name: string, type = 'tool_use') => ({
  role: 'assistant',
  content: [{ type, id, name, input: {} }],
});

describe('the answers of a chat transcript', () => {
  it('keeps an OpenAI tool message’s content, a string or text parts joined with a newline', () => {
    const calls = callsOf([
      openaiCall('c1', 'find_user_id_by_email', { email: 'a@example.com' }),
      { role: 'tool', tool_call_id: 'c1', content: '{"result": "daiki_sanchez_3253"}' },
      openaiCall('c2', 'get_order_details', { order_id: '#W1' }),
      {
        role: 'tool',
        tool_call_id: 'c2',
        content: [
          { type: 'text', text: '{"order_id": "#W1",' },
          { type: 'text', text: '"status": "pending"}' },
        ],
      },
    ]);
    expect(calls.map((c) => c.result)).toEqual([
      { text: '{"result": "daiki_sanchez_3253"}' },
      { text: '{"order_id": "#W1",\n"status": "pending"}' },
    ]);
    // τ²-bench's MCP server wraps a found id in {"result": …}: the answer found the id inside.
    expect(readAnswer(calls[0]!.result!)).toEqual({ kind: 'found', value: 'daiki_sanchez_3253' });
    expect(readAnswer(calls[1]!.result!)).toEqual({ kind: 'found', value: { order_id: '#W1', status: 'pending' } });
  });

  it('keeps τ²-bench answers, one a message or several in tool_messages, an error as an error', () => {
    const calls = callsOf([
      tau2Call('a', 'find_user_id_by_email', { email: 'nobody@example.com' }),
      { role: 'tool', id: 'a', content: 'Error: User not found', requestor: 'assistant', error: true },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'b', name: 'find_user_id_by_name_zip', arguments: {}, requestor: 'assistant' },
          { id: 'c', name: 'goto_node', arguments: { node_id: 'AUTH' }, requestor: 'assistant' },
        ],
      },
      {
        role: 'tool',
        tool_messages: [
          { role: 'tool', id: 'b', content: 'daiki_sanchez_3253', requestor: 'assistant', error: false },
          { role: 'tool', id: 'c', content: '{"valid":true}', requestor: 'assistant', error: false },
        ],
      },
    ]);
    expect(calls.map((c) => [c.tool, c.failed ?? false, c.result, c.recorded ?? null])).toEqual([
      ['find_user_id_by_email', true, { text: 'Error: User not found', isError: true }, null],
      ['find_user_id_by_name_zip', false, { text: 'daiki_sanchez_3253' }, null],
      ['goto_node', false, { text: '{"valid":true}' }, { valid: true }],
    ]);
    expect(calls.map((c) => readAnswer(c.result!).kind)).toEqual(['error', 'found', 'found']);
  });

  it('keeps Anthropic tool_result and mcp_tool_result blocks: a string, text blocks, is_error', () => {
    const calls = callsOf([
      anthropicCall('t1', 'mcp__retail-tools__get_user_details'),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"user_id": "u1"}' }] },
      anthropicCall('t2', 'get_order_details', 'mcp_tool_use'),
      {
        role: 'user',
        content: [
          {
            type: 'mcp_tool_result',
            tool_use_id: 't2',
            content: [
              { type: 'text', text: 'part one' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
              { type: 'text', text: 'part two' },
            ],
          },
        ],
      },
      anthropicCall('t3', 'cancel_pending_order'),
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't3', is_error: true, content: [{ type: 'text', text: 'The order is not pending.' }] },
          { type: 'text', text: 'Hm, why?' },
        ],
      },
    ]);
    expect(calls.map((c) => [c.tool, c.result])).toEqual([
      ['get_user_details', { text: '{"user_id": "u1"}' }],
      ['get_order_details', { text: 'part one\npart two' }],
      ['cancel_pending_order', { text: 'The order is not pending.', isError: true }],
    ]);
    expect(calls[2]!.failed).toBe(true);
  });

  it.each([
    ['""', ''],
    ['[]', '[]'],
    ['{}', '{}'],
    ['null', 'null'],
    ['{"users": []}', '{"users": []}'],
  ])('keeps an empty answer (%s) as what it is: an answer that found nothing', (_name, content) => {
    const [call] = callsOf([openaiCall('c1', 'find_user_id_by_name_zip'), { role: 'tool', tool_call_id: 'c1', content }]);
    expect(call!.result).toEqual({ text: content });
    expect(call!.failed).toBeUndefined();
    expect(readAnswer(call!.result!)).toEqual({ kind: 'empty' });
  });

  it('leaves a call without an answer, and an answer to no call, without a result', () => {
    const calls = callsOf([
      openaiCall('c1', 'get_order_details'),
      { role: 'tool', tool_call_id: 'elsewhere', content: 'orphan' },
      { role: 'assistant', content: 'Let me check again.' },
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.result).toBeUndefined();
  });
});
