/**
 * Reading a Claude Code session log (`read-claude-code.ts`), on the fixture (test/fixtures/transcripts/formats,
 * written to the shape the format's documentation and write-ups describe) and on variants of it: the thread that
 * ends at the last line, with its thinking blocks, tool results and compaction; without the abandoned branch, the
 * sidechain, the bookkeeping lines and the line cut off mid-write; a resumed session's repeated lines read once; a
 * log that continues another says so; a log of nothing but a sidechain is read as that conversation; what each call
 * answered kept on it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../contract/run/call-results.js';
import type { ConversationEvent } from '../../../analysis/replay/conversation.js';
import { type LogLine, readClaudeCode } from '../../../analysis/replay/read-claude-code.js';
import { readTranscripts } from '../../../analysis/replay/read-conversation.js';
import { knownTools } from '../../../analysis/replay/replay.js';
import { repositoryBundle } from '../../support/chat-transcripts.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const KNOWN = knownTools(repositoryBundle());
const TEXT = readFileSync(join(PROJECT_ROOT, 'test/fixtures/transcripts/formats/claude-code-session.jsonl'), 'utf8');
const ENTRIES = TEXT.split('\n')
  .slice(0, -1)
  .map((line) => JSON.parse(line) as Record<string, any>);

const linesOf = (entries: readonly unknown[]): LogLine[] => entries.map((value, i) => ({ line: i + 1, value }));
const brief = (events: readonly ConversationEvent[]) =>
  events.map((e) => (e.kind === 'call' ? `${e.tool}${e.failed ? ' (failed)' : ''}` : `${e.kind}: ${e.text.slice(0, 24)}`));

function read(entries: readonly unknown[]) {
  const result = readClaudeCode(linesOf(entries), KNOWN);
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('a Claude Code session log', () => {
  it('reads the thread that ends at the last line: calls without their MCP prefix, what was said, line numbers', () => {
    const result = readTranscripts(TEXT, KNOWN);
    if (!result.ok) throw new Error(result.error);
    const [transcript] = result.transcripts;
    expect(transcript!.conversation.reader).toBe('claude-code');
    expect(brief(transcript!.conversation.events)).toEqual([
      'user: Hi! Please cancel my ord',
      'say: Happy to help with both.',
      'TodoWrite',
      'say: Before I look at any ord',
      'user: Sorry, typo: sophia.mart',
      'find_user_id_by_email',
      'get_order_details',
      'say: Order #W7342738 (a blue ',
      'user: No longer needed.',
      'say: To confirm: cancel order',
      'user: Yes, please cancel it.',
      'cancel_pending_order',
      'say: Done: order #W7342738 is',
      'TodoWrite',
      'say: Now your luggage order: ',
      'Task',
      'get_order_details',
      'say: Your luggage set (order ',
      "user: Great, that's all. Thank",
      "say: You're welcome, Sophia. ",
    ]);
    expect(transcript!.conversation.events[5]!.place).toEqual({ line: 16, tool_call_id: 'toolu_0103Hm4Kc8Wb2Xs5Ny7Lq3Jf9' });
    expect(transcript!.conversation.notes).toEqual([
      '1 line is not JSON (a log cut off mid-write?) and was left out',
      '6 sidechain lines (a subagent’s conversation) kept apart',
      '3 message lines off the thread that ends at line 49 (an abandoned branch) left out',
      'lines that are not messages left out: attachment ×1, file-history-snapshot ×2, progress ×1, queue-operation ×2, summary ×1, system ×4',
    ]);
    expect(transcript!.session).toEqual({
      id: '7c1e2f4a-9b3d-4e5f-8a6b-0c1d2e3f4a5b',
      resumes: [],
      leaf: ENTRIES.at(-2)!.uuid,
      continues: null,
    });
  });

  it('follows the thread through a compaction (a new root that names its logical parent), whose summary is not the user', () => {
    const boundary = ENTRIES.findIndex((e) => e.subtype === 'compact_boundary');
    expect(ENTRIES[boundary]!.parentUuid).toBeNull();
    const events = read(ENTRIES).events;
    expect(brief(events)).toContain('cancel_pending_order');
    expect(brief(events).some((e) => e.startsWith('user: This session is being'))).toBe(false);
    // Without the logical parent the thread starts at the compaction, and the cancellation before it is gone.
    const cut = ENTRIES.map((e, i) => (i === boundary ? { ...e, logicalParentUuid: undefined } : e));
    expect(brief(read(cut).events)[0]).toBe('say: Now your luggage order: ');
  });

  it('reads an edited message’s later branch, not the abandoned one (its call was never the conversation)', () => {
    const abandoned = ENTRIES.find((e) => e.message?.content?.[0]?.input?.email === 'sophia.martin@example.com');
    expect(abandoned).toBeDefined();
    expect(read(ENTRIES).events.filter((e) => e.kind === 'call' && e.args?.email === 'sophia.martin@example.com')).toEqual([]);
  });

  it('keeps the sidechain apart, and reads a log of nothing but a sidechain (a subagent’s own file) as its conversation', () => {
    const side = ENTRIES.filter((e) => e.isSidechain === true);
    expect(side).toHaveLength(6);
    const result = read(side);
    expect(brief(result.events)).toEqual([
      'user: Which of sophia_martin_4',
      'get_user_details',
      'get_order_details',
      'say: The luggage set is order',
    ]);
    expect(result.notes).toEqual(['the log holds only a sidechain (a subagent’s conversation): it is read as the conversation']);
  });

  it('reads a resumed session’s log, which repeats the lines it resumed, once; and names the session it resumes', () => {
    const resumedId = 'a11ce5e0-0000-4000-8000-000000000001';
    const later = [
      {
        parentUuid: ENTRIES.at(-2)!.uuid,
        isSidechain: false,
        type: 'user',
        sessionId: resumedId,
        uuid: 'later-1',
        message: { role: 'user', content: 'One more thing: is #W5918442 pending?' },
      },
      {
        parentUuid: 'later-1',
        isSidechain: false,
        type: 'assistant',
        sessionId: resumedId,
        uuid: 'later-2',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_later', name: 'mcp__retail-tools__get_order_details', input: { order_id: '#W5918442' } },
          ],
        },
      },
    ];
    const copied = [...ENTRIES, ...ENTRIES.filter((e) => e.uuid !== undefined).slice(0, 5), ...later];
    const result = read(copied);
    expect(brief(result.events).at(-1)).toBe('get_order_details');
    expect(brief(result.events).filter((e) => e === 'cancel_pending_order')).toHaveLength(1);
    expect(result.notes).toContain('5 lines repeating a uuid already read (a resumed session) read once');
    expect(result.session).toMatchObject({ id: resumedId, resumes: ['7c1e2f4a-9b3d-4e5f-8a6b-0c1d2e3f4a5b'], leaf: 'later-2' });
  });

  it('says when the thread continues another log (its first parent is not in the file)', () => {
    const start = ENTRIES.findIndex((e) => e.type === 'user' && e.message?.content === 'No longer needed.');
    const rest = ENTRIES.slice(start).filter((e) => e.type !== 'summary');
    const result = read(rest);
    expect(result.session.continues).toBe(ENTRIES[start]!.parentUuid);
    expect(result.notes).toContain(
      `the thread starts at line 1, whose parent ${ENTRIES[start]!.parentUuid} is not in this file: it continues another session log`,
    );
  });

  it('leaves Claude Code’s own messages out of what the user said: meta lines and slash-command envelopes', () => {
    const meta = [
      {
        type: 'user',
        uuid: 'm1',
        parentUuid: null,
        isMeta: true,
        message: { role: 'user', content: 'Caveat: The messages below were generated by the user while running local commands.' },
      },
      {
        type: 'user',
        uuid: 'm2',
        parentUuid: 'm1',
        message: { role: 'user', content: '<command-name>/clear</command-name>\n<command-message>clear</command-message>' },
      },
      { type: 'user', uuid: 'm3', parentUuid: 'm2', message: { role: 'user', content: 'Yes, go ahead.' } },
    ];
    expect(brief(read(meta).events)).toEqual(['user: Yes, go ahead.']);
  });

  it('records a failed call (a tool_result with is_error)', () => {
    const lines = [
      {
        type: 'assistant',
        uuid: 'a',
        parentUuid: null,
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'mcp__retail-tools__get_order_details', input: {} }] },
      },
      {
        type: 'user',
        uuid: 'b',
        parentUuid: 'a',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Error: order not found' }] },
      },
    ];
    expect(brief(read(lines).events)).toEqual(['get_order_details (failed)']);
  });

  it('keeps what each call answered: the fixture’s domain calls, an error, a structured toolUseResult of a SOP tool', () => {
    const calls = read(ENTRIES).events.filter((e) => e.kind === 'call');
    expect(calls.map((c) => [c.tool, c.result === undefined ? null : readAnswer(c.result).kind])).toEqual([
      ['TodoWrite', 'found'],
      ['find_user_id_by_email', 'found'],
      ['get_order_details', 'found'],
      ['cancel_pending_order', 'found'],
      ['TodoWrite', 'found'],
      ['Task', 'found'],
      ['get_order_details', 'found'],
    ]);
    expect(calls[1]!.result).toEqual({ text: 'sophia_martin_4832' });
    const order = { order_id: '#W1', status: 'pending' };
    const lines = [
      {
        type: 'assistant',
        uuid: 'a',
        parentUuid: null,
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'mcp__retail-tools__get_order_details', input: {} }] },
      },
      {
        type: 'user',
        uuid: 'b',
        parentUuid: 'a',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: JSON.stringify(order) }] },
        toolUseResult: order,
      },
      {
        type: 'assistant',
        uuid: 'c',
        parentUuid: 'b',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'TodoWrite', input: {} }] },
      },
      {
        type: 'user',
        uuid: 'd',
        parentUuid: 'c',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'Todos have been modified' }] },
        toolUseResult: { oldTodos: [], newTodos: [] },
      },
      {
        type: 'assistant',
        uuid: 'e',
        parentUuid: 'd',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't3', name: 'mcp__retail-tools__find_user_id_by_email', input: {} }],
        },
      },
      {
        type: 'user',
        uuid: 'f',
        parentUuid: 'e',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't3', is_error: true, content: [{ type: 'text', text: 'Error: User not found' }] }],
        },
        toolUseResult: 'Error: User not found',
      },
    ];
    expect(read(lines).events.map((e) => (e.kind === 'call' ? [e.tool, e.result] : e.kind))).toEqual([
      ['get_order_details', { text: JSON.stringify(order), structured: order }],
      ['TodoWrite', { text: 'Todos have been modified' }],
      ['find_user_id_by_email', { text: 'Error: User not found', isError: true }],
    ]);
  });

  it('refuses a log without a message, and names the line of a malformed one (a message without its role has its line’s)', () => {
    expect(
      readClaudeCode(
        linesOf([
          { type: 'summary', summary: 'x', leafUuid: 'u' },
          { type: 'queue-operation', sessionId: 's' },
        ]),
        KNOWN,
      ),
    ).toEqual({
      ok: false,
      error: 'the Claude Code log holds no user or assistant message',
    });
    expect(readClaudeCode(linesOf([{ type: 'user', uuid: 'u', parentUuid: null, message: { content: 'hi' } }]), KNOWN)).toMatchObject({
      ok: true,
      events: [{ kind: 'user', text: 'hi', place: { line: 1 } }],
    });
    expect(
      readClaudeCode(
        linesOf([{ type: 'assistant', uuid: 'u', parentUuid: null, message: { content: [{ type: 'tool_use', input: {} }] } }]),
        KNOWN,
      ),
    ).toEqual({
      ok: false,
      error: 'line 1, tool call 0: no function name',
    });
  });
});
