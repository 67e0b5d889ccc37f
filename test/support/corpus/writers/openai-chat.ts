/**
 * Writes a conversation as OpenAI Chat Completions messages, the list an app sends: a system message, the user's
 * and the assistant's messages, each call an assistant message with `tool_calls` answered by a `tool` message. The
 * format has no error flag: a failed call's answer is its text.
 */
import type { Turn, WriteOptions } from './turns.js';

const SYSTEM = 'You are the customer support agent of an online retail store. Follow the procedure below.';

export function openaiChatMessages(turns: readonly Turn[], { n }: WriteOptions): unknown[] {
  const messages: unknown[] = [{ role: 'system', content: SYSTEM }];
  for (const [i, turn] of turns.entries()) {
    if ('user' in turn) messages.push({ role: 'user', content: turn.user });
    else if ('say' in turn) messages.push({ role: 'assistant', content: turn.say });
    else {
      const id = `call_${n}_${i}`;
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: turn.call, arguments: JSON.stringify(turn.args) } }],
      });
      if (turn.answer !== undefined) messages.push({ role: 'tool', tool_call_id: id, content: turn.answer.text ?? '' });
    }
  }
  return messages;
}

/** The messages as a JSON list (one line). */
export function writeOpenaiChat(turns: readonly Turn[], options: WriteOptions): string {
  return JSON.stringify(openaiChatMessages(turns, options));
}
