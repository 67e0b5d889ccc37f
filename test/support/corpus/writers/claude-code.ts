/**
 * Writes a conversation as a Claude Code session log (`~/.claude/projects/<project>/<session>.jsonl`): a summary
 * line, then wrapper lines (`type`, `message`, `uuid`, `parentUuid`, `sessionId`…) around Anthropic messages; each
 * call a `tool_use` block named with its MCP prefix (`mcp__retail-tools__cancel_pending_order`), its answer a
 * `tool_result` block in a user line (`is_error` when it failed) with the line's `toolUseResult`.
 */
import { serverOf, type Turn, type WriteOptions } from './turns.js';

export function writeClaudeCode(turns: readonly Turn[], { n }: WriteOptions): string {
  const session = `5e55${String(n).padStart(4, '0')}-0000-4000-8000-000000000000`;
  const lines: unknown[] = [{ type: 'summary', summary: 'Retail support', leafUuid: `u${n}-${turns.length}` }];
  let parent: string | null = null;
  const env = { isSidechain: false, userType: 'external', cwd: '/srv/support', sessionId: session, version: '2.1.37', gitBranch: 'main' };
  const assistant = (i: number, content: unknown[], stop: string, output: number) => ({
    id: `msg_${n}_${i}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason: stop,
    usage: { input_tokens: 6, output_tokens: output },
  });
  for (const [i, turn] of turns.entries()) {
    const uuid = `u${n}-${i}`;
    const timestamp = new Date(Date.parse('2026-11-20T09:00:00.000Z') + n * 60_000 + i * 1000).toISOString();
    if ('user' in turn)
      lines.push({ parentUuid: parent, ...env, type: 'user', message: { role: 'user', content: turn.user }, uuid, timestamp });
    else if ('say' in turn)
      lines.push({
        parentUuid: parent,
        ...env,
        type: 'assistant',
        message: assistant(i, [{ type: 'text', text: turn.say }], 'end_turn', 80),
        uuid,
        timestamp,
      });
    else {
      const id = `toolu_${n}_${i}`;
      const name = `mcp__${serverOf(turn.call)}__${turn.call}`;
      lines.push({
        parentUuid: parent,
        ...env,
        type: 'assistant',
        message: assistant(i, [{ type: 'tool_use', id, name, input: turn.args }], 'tool_use', 40),
        uuid,
        timestamp,
      });
      parent = uuid;
      const answer = turn.answer;
      if (answer === undefined) continue;
      const text = answer.text ?? '';
      const failed = answer.isError === true;
      lines.push({
        parentUuid: uuid,
        ...env,
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: id, type: 'tool_result', content: text, ...(failed ? { is_error: true } : {}) }],
        },
        toolUseResult: failed ? `Error: ${text}` : { type: 'text', text },
        uuid: `${uuid}r`,
        timestamp,
      });
      parent = `${uuid}r`;
      continue;
    }
    parent = uuid;
  }
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}
