/**
 * Reads OpenAI Responses API items into conversation events: what `responses.create` takes as `input` and
 * returns as `output`, what `responses.inputItems.list` and the Conversations API list, and what the Agents SDK's
 * `to_input_list()` gives.
 *   - `message` items (or the short `{role, content}` input form): a user's text is the user speaking, an
 *     assistant's (`output_text` parts) what the agent said; system and developer messages are left out;
 *   - `function_call {call_id, name, arguments}` is a call, answered by `function_call_output {call_id, output}`
 *     (a string or content parts: the answer's `result` is its text); `custom_tool_call {call_id, name, input}`
 *     likewise;
 *   - `mcp_call {name, server_label, arguments, output, error}` is a call of a remote MCP server's tool with its
 *     answer in the same item (`error` set when it failed: the answer is that error); `mcp_approval_request` is not
 *     a call yet;
 *   - the hosted tools' items (`web_search_call`, `file_search_call`, `code_interpreter_call`, `computer_call`, …)
 *     are calls of tools named after their type, which no SOP lists; `reasoning` items are not said to anyone.
 * An item without a `type` and without a `role` is an error naming its index.
 */
import type { RecordedResult } from '../../contract/run/call-results.js';
import type { ConversationEvent } from './conversation.js';
import { answerOf, readCall, recordAnswer, textOf } from './read-messages.js';

export type ResponsesRead =
  | { readonly ok: true; readonly events: readonly ConversationEvent[] }
  | { readonly ok: false; readonly error: string };

/** Item types only the Responses API has: a list holding one of them is Responses items, not chat messages. */
const RESPONSES_TYPES: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'reasoning',
]);

/** Hosted tools: their item is a call of a tool named after its type (without `_call`). */
const HOSTED_CALL = /^([a-z_]+)_call$/;

/**
 * Whether a list is Responses items. A `message` item counts only with Responses content parts (`input_text`,
 * `output_text`): an Anthropic Messages API answer is also `{type: 'message', role, content}`, with its own blocks.
 */
export function isResponsesItems(values: readonly unknown[]): boolean {
  return values.some((value) => {
    if (value === null || typeof value !== 'object') return false;
    const { type, content } = value as { type?: unknown; content?: unknown };
    if (type === 'message')
      return Array.isArray(content) && content.some((part) => RESPONSES_PARTS.has((part as { type?: unknown } | null)?.type as string));
    return typeof type === 'string' && (RESPONSES_TYPES.has(type) || HOSTED_CALL.test(type));
  });
}

const RESPONSES_PARTS: ReadonlySet<string> = new Set(['input_text', 'output_text', 'refusal', 'input_image', 'input_file']);

export function readResponses(items: readonly unknown[], knownTools: ReadonlySet<string>): ResponsesRead {
  const events: ConversationEvent[] = [];
  const callIndex = new Map<string, number>();
  const push = (read: ReturnType<typeof readCall>, index: number): string | undefined => {
    if (typeof read === 'string') return `item ${index}: ${read}`;
    if (read.tool_call_id !== undefined) callIndex.set(read.tool_call_id, events.length);
    events.push(read.event);
    return undefined;
  };
  for (const [index, value] of items.entries()) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `item ${index} is not an object` };
    const item = value as Record<string, unknown>;
    const type = typeof item.type === 'string' ? item.type : item.role === undefined ? undefined : 'message';
    const place = { item: index };
    let problem: string | undefined;
    switch (type) {
      case undefined:
        return { ok: false, error: `item ${index} has neither a type nor a role` };
      case 'message': {
        const text = textOf(item.content);
        if (item.role === 'user' && text.trim() !== '') events.push({ kind: 'user', text, place });
        else if (item.role === 'assistant' && text.trim() !== '') events.push({ kind: 'say', text, place });
        break;
      }
      case 'function_call':
        problem = push(readCall({ call_id: item.call_id, name: item.name, arguments: item.arguments }, place, knownTools), index);
        break;
      case 'custom_tool_call':
        problem = push(readCall({ call_id: item.call_id, name: item.name, arguments: item.input }, place, knownTools), index);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        recordAnswer(events, callIndex, item.call_id, answerOf(item.output, false));
        break;
      case 'mcp_call': {
        const id = typeof item.id === 'string' ? item.id : `item ${index}`;
        problem = push(readCall({ call_id: id, name: item.name, arguments: item.arguments }, place, knownTools), index);
        const answer = mcpAnswer(item);
        if (problem === undefined && answer !== undefined) recordAnswer(events, callIndex, id, answer);
        break;
      }
      default: {
        const hosted = HOSTED_CALL.exec(type);
        if (hosted !== null) problem = push(readCall({ call_id: item.id, name: hosted[1], arguments: {} }, place, knownTools), index);
      }
    }
    if (problem !== undefined) return { ok: false, error: problem };
  }
  return { ok: true, events };
}

/** A remote MCP call's answer: its `error` (a failure), else its `output`; none while the call has neither. */
function mcpAnswer(item: Record<string, unknown>): RecordedResult | undefined {
  const { error, output } = item;
  if (error !== null && error !== undefined) return { text: typeof error === 'string' ? error : JSON.stringify(error), isError: true };
  return output === null || output === undefined ? undefined : answerOf(output, false);
}
