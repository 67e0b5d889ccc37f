/**
 * Reads a chat transcript into conversation events: the OpenAI Chat Completions message shape (`{role, content,
 * tool_calls: [{id, type: 'function', function: {name, arguments}}]}` and `{role: 'tool', tool_call_id, content}`),
 * τ²-bench's (`tool_calls: [{id, name, arguments, requestor}]`, tool messages with `id` and `error`, several answers
 * in one `{role: 'tool', tool_messages: [...]}`), and Anthropic's Messages API, which Claude Code and the Agent SDK
 * log (content blocks: the assistant's `tool_use {id, name, input}` and, through the MCP connector,
 * `mcp_tool_use {id, name, server_name, input}`; the answers as `tool_result` / `mcp_tool_result` blocks in a
 * user message, which is not the user speaking; `thinking` blocks are not said to anyone).
 *
 * Each answer is kept on the call it answers (`result`): its text (a string, or its text parts joined with a newline)
 * and `isError` when the input says it failed (`is_error`, τ²-bench's `error`).
 *
 * An assistant message's text is what the agent said, before its tool calls; a user's tool calls (τ²-bench user
 * tools) are the user's device, not the agent, and are left out; system and developer messages are not part of
 * the conversation. A malformed message is an error naming its place, never a guess.
 */
import type { RecordedResult } from '../../contract/run/call-results.js';
import { type ConversationEvent, type EventPlace, knownToolName, type ToolCallEvent } from './conversation.js';

export type MessagesRead =
  | { readonly ok: true; readonly events: readonly ConversationEvent[] }
  | { readonly ok: false; readonly error: string };

/** Where the messages came from: a list (places are indexes) or the lines of a log (places are line numbers). */
export interface MessagePlaces {
  readonly place: (index: number) => { readonly message: number } | { readonly line: number };
  readonly label: (index: number) => string;
}

const LIST_PLACES: MessagePlaces = { place: (index) => ({ message: index }), label: (index) => `message ${index}` };

export function readMessages(
  messages: readonly unknown[],
  knownTools: ReadonlySet<string>,
  places: MessagePlaces = LIST_PLACES,
): MessagesRead {
  const events: ConversationEvent[] = [];
  const callIndex = new Map<string, number>();
  for (const [index, value] of messages.entries()) {
    const label = places.label(index);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `${label} is not an object` };
    const message = value as Record<string, unknown>;
    const role = message.role;
    if (typeof role !== 'string') return { ok: false, error: `${label} has no role (user, assistant or tool)` };
    const place = places.place(index);
    const text = textOf(message.content);
    const blocks = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    if (role === 'user') {
      const results = blocks.filter((block) => RESULT_BLOCKS.has(blockType(block) as string)) as Record<string, unknown>[];
      for (const result of results) recordAnswer(events, callIndex, result.tool_use_id, answerOf(result.content, result.is_error === true));
      if (results.length === 0 || text.trim() !== '') events.push({ kind: 'user', text, place });
    } else if (role === 'assistant') {
      if (text.trim() !== '') events.push({ kind: 'say', text, place });
      const calls = message.tool_calls ?? [];
      if (!Array.isArray(calls)) return { ok: false, error: `${label}: tool_calls is not a list` };
      const uses = blocks
        .filter((block) => USE_BLOCKS.has(blockType(block) as string))
        .map((block) => {
          const { id, name, input } = block as Record<string, unknown>;
          return { id, name, arguments: input };
        });
      for (const [position, call] of [...calls, ...uses].entries()) {
        const read = readCall(call, place, knownTools);
        if (typeof read === 'string') return { ok: false, error: `${label}, tool call ${position}: ${read}` };
        if (read.tool_call_id !== undefined) callIndex.set(read.tool_call_id, events.length);
        events.push(read.event);
      }
    } else if (role === 'tool') {
      const answers = Array.isArray(message.tool_messages) ? (message.tool_messages as Record<string, unknown>[]) : [message];
      for (const answer of answers) {
        if (answer === null || typeof answer !== 'object') continue;
        recordAnswer(events, callIndex, answer.tool_call_id ?? answer.id, answerOf(answer.content, answer.error === true));
      }
    }
  }
  return { ok: true, events };
}

/** Content blocks that call a tool (the MCP connector's included), and the blocks that answer them. */
const USE_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'mcp_tool_use']);
const RESULT_BLOCKS: ReadonlySet<string> = new Set(['tool_result', 'mcp_tool_result']);

/** An answer as the input writes it (a string, or content parts whose text parts are joined), failed or not. */
export function answerOf(content: unknown, failed: boolean): RecordedResult {
  const text = textOf(content);
  return failed ? { text, isError: true } : { text };
}

/**
 * Notes an answer on the call it answers (found by its call id): what it answered (`result`), a failure on any call,
 * and the server's verdict on a goto_node, so the check can compare.
 */
export function recordAnswer(
  events: ConversationEvent[],
  callIndex: ReadonlyMap<string, number>,
  id: unknown,
  result: RecordedResult,
): void {
  const at = typeof id === 'string' ? callIndex.get(id) : undefined;
  const call = at === undefined ? undefined : events[at];
  if (call?.kind !== 'call') return;
  const answered: ToolCallEvent = {
    ...call,
    ...(result.isError === true ? { failed: true as const } : {}),
    ...(call.tool === 'goto_node' ? { recorded: recordedMove(result.text ?? '') } : {}),
    result,
  };
  events[at!] = answered;
}

function blockType(block: unknown): unknown {
  return block !== null && typeof block === 'object' ? (block as { type?: unknown }).type : undefined;
}

/** A tool call of any of the shapes above (`{function: {name, arguments}}` or `{name, arguments}`) as an event. */
export function readCall(
  value: unknown,
  at: { readonly message: number } | { readonly line: number } | { readonly item: number },
  knownTools: ReadonlySet<string>,
): string | { readonly event: ToolCallEvent; readonly tool_call_id?: string } {
  if (value === null || typeof value !== 'object') return 'not an object';
  const call = value as Record<string, unknown>;
  const fn = call.function !== null && typeof call.function === 'object' ? (call.function as Record<string, unknown>) : call;
  if (typeof fn.name !== 'string' || fn.name === '') return 'no function name';
  const id = typeof call.id === 'string' ? call.id : typeof call.call_id === 'string' ? call.call_id : undefined;
  const place: EventPlace = id === undefined ? at : { ...at, tool_call_id: id };
  const { args, argsProblem } = readArguments(fn.arguments);
  const event: ToolCallEvent = {
    kind: 'call',
    tool: knownToolName(fn.name, knownTools),
    args,
    ...(argsProblem === undefined ? {} : { argsProblem }),
    place,
  };
  return id === undefined ? { event } : { event, tool_call_id: id };
}

/** Arguments as an object: given as one, or as its JSON text (OpenAI); absent means none. */
function readArguments(raw: unknown): { args: Record<string, unknown> | null; argsProblem?: string } {
  if (raw === undefined || raw === null || raw === '') return { args: {} };
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { args: parsed as Record<string, unknown> };
      return { args: null, argsProblem: 'the arguments are not a JSON object' };
    } catch {
      return { args: null, argsProblem: 'the arguments are not valid JSON' };
    }
  }
  if (typeof raw === 'object' && !Array.isArray(raw)) return { args: raw as Record<string, unknown> };
  return { args: null, argsProblem: 'the arguments are not an object' };
}

/** `valid` of a recorded goto_node answer, when its text is the server's JSON. */
function recordedMove(text: string): { readonly valid?: boolean } {
  try {
    const answer: unknown = JSON.parse(text);
    const valid = answer !== null && typeof answer === 'object' ? (answer as { valid?: unknown }).valid : undefined;
    return typeof valid === 'boolean' ? { valid } : {};
  } catch {
    return {};
  }
}

/** A message's text: a string, or the text parts of a list of content parts (`text`, `input_text`, `output_text`). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}
