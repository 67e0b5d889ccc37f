/**
 * Reads a chat transcript into a `Conversation`: the OpenAI chat message shape (`{role, content, tool_calls: [{id,
 * type: 'function', function: {name, arguments}}]}` and `{role: 'tool', tool_call_id, content}`) and τ²-bench's
 * (`tool_calls: [{id, name, arguments}]`, tool messages with `id`), and Anthropic's Messages API, which Claude Code
 * and the Agent SDK log (content blocks: the assistant's `tool_use {id, name, input}`, the answers as
 * `tool_result {tool_use_id, content}` blocks in a user message, which is not the user speaking). An assistant message's text is what the agent
 * said, before its tool calls; a user's tool calls (τ²-bench user tools) are the user's device, not the agent, and
 * are left out; system and developer messages are not part of the conversation. A malformed message is an error
 * naming its index, never a guess.
 */
import { type ConversationEvent, knownToolName, type ToolCallEvent } from './conversation.js';

export type MessagesRead =
  | { readonly ok: true; readonly events: readonly ConversationEvent[] }
  | { readonly ok: false; readonly error: string };

export function readMessages(messages: readonly unknown[], knownTools: ReadonlySet<string>): MessagesRead {
  const events: ConversationEvent[] = [];
  const callIndex = new Map<string, number>();
  for (const [index, value] of messages.entries()) {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { ok: false, error: `message ${index} is not an object` };
    const message = value as Record<string, unknown>;
    const role = message.role;
    if (typeof role !== 'string') return { ok: false, error: `message ${index} has no role (user, assistant or tool)` };
    const text = textOf(message.content);
    const blocks = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    if (role === 'user') {
      const results = blocks.filter((block) => blockType(block) === 'tool_result') as Record<string, unknown>[];
      for (const result of results) recordAnswer(events, callIndex, result.tool_use_id, textOf(result.content));
      if (results.length === 0 || text.trim() !== '') events.push({ kind: 'user', text, place: { message: index } });
    } else if (role === 'assistant') {
      if (text.trim() !== '') events.push({ kind: 'say', text, place: { message: index } });
      const calls = message.tool_calls ?? [];
      if (!Array.isArray(calls)) return { ok: false, error: `message ${index}: tool_calls is not a list` };
      const uses = blocks.filter((block) => blockType(block) === 'tool_use') as Record<string, unknown>[];
      for (const [position, call] of [...calls, ...uses.map(({ id, name, input }) => ({ id, name, arguments: input }))].entries()) {
        const read = readCall(call, index, knownTools);
        if (typeof read === 'string') return { ok: false, error: `message ${index}, tool call ${position}: ${read}` };
        if (read.place.tool_call_id !== undefined) callIndex.set(read.place.tool_call_id, events.length);
        events.push(read.event);
      }
    } else if (role === 'tool') {
      recordAnswer(events, callIndex, message.tool_call_id ?? message.id, text);
    }
  }
  return { ok: true, events };
}

/** Notes the server's answer on the goto_node call it answers (found by its call id), so the check can compare. */
function recordAnswer(events: ConversationEvent[], callIndex: ReadonlyMap<string, number>, id: unknown, text: string): void {
  const at = typeof id === 'string' ? callIndex.get(id) : undefined;
  const call = at === undefined ? undefined : events[at];
  if (call?.kind === 'call' && call.tool === 'goto_node') events[at!] = { ...call, recorded: recordedMove(text) };
}

function blockType(block: unknown): unknown {
  return block !== null && typeof block === 'object' ? (block as { type?: unknown }).type : undefined;
}

function readCall(
  value: unknown,
  message: number,
  knownTools: ReadonlySet<string>,
): string | { readonly event: ToolCallEvent; readonly place: { readonly tool_call_id?: string } } {
  if (value === null || typeof value !== 'object') return 'not an object';
  const call = value as Record<string, unknown>;
  const fn = call.function !== null && typeof call.function === 'object' ? (call.function as Record<string, unknown>) : call;
  if (typeof fn.name !== 'string' || fn.name === '') return 'no function name';
  const id = typeof call.id === 'string' ? call.id : undefined;
  const place = id === undefined ? { message } : { message, tool_call_id: id };
  const raw = fn.arguments;
  let args: Record<string, unknown> | null = null;
  let argsProblem: string | undefined;
  if (raw === undefined || raw === null || raw === '') args = {};
  else if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      else argsProblem = 'the arguments are not a JSON object';
    } catch {
      argsProblem = 'the arguments are not valid JSON';
    }
  } else if (typeof raw === 'object' && !Array.isArray(raw)) args = raw as Record<string, unknown>;
  else argsProblem = 'the arguments are not an object';
  const event: ToolCallEvent = {
    kind: 'call',
    tool: knownToolName(fn.name, knownTools),
    args,
    ...(argsProblem === undefined ? {} : { argsProblem }),
    place,
  };
  return { event, place };
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

/** A message's text: a string, or the text parts of a list of content parts. */
function textOf(content: unknown): string {
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
