/**
 * Reading OpenAI Responses items (`read-responses.ts`): the fixture (an Agents SDK run's items, written from the
 * Responses API reference), a response object with its input, and an items list in the API's default order
 * (newest first); function calls answered by their outputs, a remote MCP call with its answer in the same item, a
 * hosted tool's call named after its type, reasoning left out, and an item it cannot read named by its index; what
 * each call answered kept on it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../contract/run/call-results.js';
import type { ConversationEvent } from '../../../analysis/replay/conversation.js';
import { readTranscripts } from '../../../analysis/replay/read-conversation.js';
import { isResponsesItems, readResponses } from '../../../analysis/replay/read-responses.js';
import { knownTools } from '../../../analysis/replay/replay.js';
import { repositoryBundle } from '../../support/chat-transcripts.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const KNOWN = knownTools(repositoryBundle());
const ITEMS = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/transcripts/formats/openai-responses.json'), 'utf8')) as Record<
  string,
  unknown
>[];
const brief = (events: readonly ConversationEvent[]) =>
  events.map((e) => (e.kind === 'call' ? `${e.tool}${e.failed ? ' (failed)' : ''}` : `${e.kind}: ${e.text.slice(0, 20)}`));

function eventsOf(text: string): readonly ConversationEvent[] {
  const read = readTranscripts(text, KNOWN);
  if (!read.ok) throw new Error(read.error);
  expect(read.transcripts).toHaveLength(1);
  expect(read.transcripts[0]!.conversation.reader).toBe('openai-responses');
  return read.transcripts[0]!.conversation.events;
}

const EXPECTED = [
  'user: Hi, where is my lugg',
  'find_user_id_by_name_zip',
  'get_user_details',
  'web_search',
  'get_order_details',
  'say: Your luggage set (or',
  'user: Perfect, thanks.',
  'say: You are welcome!',
];

describe('OpenAI Responses items', () => {
  it('reads a list of items: messages, function calls, an MCP call, a hosted tool; not the reasoning', () => {
    const events = eventsOf(JSON.stringify(ITEMS));
    expect(brief(events)).toEqual(EXPECTED);
    expect(events[1]).toEqual({
      kind: 'call',
      tool: 'find_user_id_by_name_zip',
      args: { first_name: 'Sophia', last_name: 'Martin', zip: '77034' },
      result: { text: 'sophia_martin_4832' },
      place: { item: 2, tool_call_id: 'call_Xk2pL9qRt4Vw7Yz1' },
    });
  });

  it('reads a response with its input, and an items list newest first (the API’s default order)', () => {
    const response = { id: 'resp_1', object: 'response', input: ITEMS.slice(0, 1), output: ITEMS.slice(1) };
    expect(brief(eventsOf(JSON.stringify(response)))).toEqual(EXPECTED);
    const listed = { object: 'list', data: [...ITEMS].reverse(), has_more: false };
    expect(brief(eventsOf(JSON.stringify(listed)))).toEqual(EXPECTED);
    expect(brief(eventsOf(JSON.stringify({ object: 'list', data: ITEMS })))).toEqual(EXPECTED);
  });

  it('records a failed MCP call, and an item it cannot read', () => {
    const failed = readResponses(
      [
        {
          type: 'mcp_call',
          id: 'mcp_1',
          server_label: 'retail-tools',
          name: 'get_order_details',
          arguments: '{}',
          output: null,
          error: 'order not found',
        },
      ],
      KNOWN,
    );
    expect(failed.ok && brief(failed.events)).toEqual(['get_order_details (failed)']);
    expect(readResponses([{ role: 'user', content: 'hi' }, { content: 'no type, no role' }], KNOWN)).toEqual({
      ok: false,
      error: 'item 1 has neither a type nor a role',
    });
    expect(readResponses([{ type: 'function_call', call_id: 'c', arguments: '{}' }], KNOWN)).toEqual({
      ok: false,
      error: 'item 0: no function name',
    });
  });

  it('keeps what each call answered: an output string or content parts, an MCP call’s output or error', () => {
    const calls = eventsOf(JSON.stringify(ITEMS)).filter((e) => e.kind === 'call');
    expect(calls.map((c) => [c.tool, c.result === undefined ? null : readAnswer(c.result).kind])).toEqual([
      ['find_user_id_by_name_zip', 'found'],
      ['get_user_details', 'found'],
      ['web_search', null],
      ['get_order_details', 'found'],
    ]);
    const read = readResponses(
      [
        { type: 'function_call', call_id: 'f1', name: 'find_user_id_by_email', arguments: '{}' },
        { type: 'function_call_output', call_id: 'f1', output: [{ type: 'input_text', text: '{"result": "daiki_sanchez_3253"}' }] },
        { type: 'custom_tool_call', call_id: 'f2', name: 'calculate', input: '1+1' },
        { type: 'custom_tool_call_output', call_id: 'f2', output: '' },
        { type: 'mcp_call', id: 'm1', server_label: 'retail-tools', name: 'get_order_details', arguments: '{}', output: '{}', error: null },
        {
          type: 'mcp_call',
          id: 'm2',
          server_label: 'retail-tools',
          name: 'cancel_pending_order',
          arguments: '{}',
          error: 'Order is not pending',
        },
        { type: 'mcp_call', id: 'm3', server_label: 'retail-tools', name: 'get_user_details', arguments: '{}', status: 'calling' },
      ],
      KNOWN,
    );
    if (!read.ok) throw new Error(read.error);
    const results = read.events.map((e) => (e.kind === 'call' ? e.result : undefined));
    expect(results).toEqual([
      { text: '{"result": "daiki_sanchez_3253"}' },
      { text: '' },
      { text: '{}' },
      { text: 'Order is not pending', isError: true },
      undefined,
    ]);
    expect(results.map((r) => (r === undefined ? null : readAnswer(r).kind))).toEqual(['found', 'empty', 'empty', 'error', null]);
  });

  it('tells Responses items from chat messages and from an Anthropic message (also of type "message")', () => {
    expect(isResponsesItems(ITEMS)).toBe(true);
    expect(
      isResponsesItems([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]),
    ).toBe(false);
    expect(
      isResponsesItems([
        { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] },
      ]),
    ).toBe(false);
  });
});
