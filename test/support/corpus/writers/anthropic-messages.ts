/**
 * Writes a conversation as an Anthropic Messages API request body (`{model, max_tokens, system, messages}`), as an
 * app on the API or the Agent SDK keeps it: roles alternate, so what the agent says before a call shares the call's
 * assistant message (a `text` block, then the `tool_use` block), and what the user says after an answer shares the
 * answer's user message (the `tool_result` block, `is_error` when it failed, then a `text` block).
 */
import type { Turn, WriteOptions } from './turns.js';

interface Message {
  readonly role: 'user' | 'assistant';
  readonly content: Record<string, unknown>[];
}

export function writeAnthropicMessages(turns: readonly Turn[], { n }: WriteOptions): string {
  const messages: Message[] = [];
  const add = (role: Message['role'], block: Record<string, unknown>) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  for (const [i, turn] of turns.entries()) {
    if ('user' in turn) add('user', { type: 'text', text: turn.user });
    else if ('say' in turn) add('assistant', { type: 'text', text: turn.say });
    else {
      const id = `toolu_${String(n).padStart(4, '0')}${String(i).padStart(4, '0')}`;
      add('assistant', { type: 'tool_use', id, name: turn.call, input: turn.args });
      if (turn.answer !== undefined)
        add('user', {
          type: 'tool_result',
          tool_use_id: id,
          content: [{ type: 'text', text: turn.answer.text ?? '' }],
          ...(turn.answer.isError === true ? { is_error: true } : {}),
        });
    }
  }
  const system = 'You are the customer support agent of an online retail store. Follow the procedure below.';
  return JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 1024, system, messages }, null, 2);
}
