/**
 * Writes a conversation as OpenAI Responses items, as an Agents SDK run's `to_input_list()` gives them: the user's
 * messages in the short input form, the assistant's as `message` items with `output_text`, the SOP server's tools as
 * function tools (`function_call` answered by `function_call_output`), and the domain server's as a remote MCP
 * server's (`mcp_call`, with its `output`, or its `error` when it failed).
 */
import { serverOf, type Turn, type WriteOptions } from './turns.js';

export function writeOpenaiResponses(turns: readonly Turn[], { n }: WriteOptions): string {
  const hex = (i: number) => (n * 4096 + i).toString(16).padStart(16, '0');
  const items: unknown[] = [];
  for (const [i, turn] of turns.entries()) {
    if ('user' in turn) items.push({ role: 'user', content: turn.user });
    else if ('say' in turn)
      items.push({
        id: `msg_${hex(i)}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.say, annotations: [] }],
      });
    else if (serverOf(turn.call) === 'sop') {
      const callId = `call_${hex(i)}`;
      items.push({
        id: `fc_${hex(i)}`,
        type: 'function_call',
        call_id: callId,
        name: turn.call,
        arguments: JSON.stringify(turn.args),
        status: 'completed',
      });
      if (turn.answer !== undefined) items.push({ type: 'function_call_output', call_id: callId, output: turn.answer.text ?? '' });
    } else {
      const answer = turn.answer;
      const failed = answer?.isError === true;
      items.push({
        id: `mcp_${hex(i)}`,
        type: 'mcp_call',
        server_label: serverOf(turn.call),
        name: turn.call,
        arguments: JSON.stringify(turn.args),
        output: answer === undefined || failed ? null : (answer.text ?? ''),
        error: failed ? (answer?.text ?? '') : null,
        status: answer === undefined ? 'calling' : failed ? 'failed' : 'completed',
      });
    }
  }
  return JSON.stringify(items, null, 2);
}
