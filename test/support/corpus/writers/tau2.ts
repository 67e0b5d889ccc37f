/**
 * Writes a conversation as τ²-bench writes a simulation: messages with the metadata it keeps per message (turn,
 * time, cost, usage, the provider's raw answer), tool calls `{id, name, arguments, requestor}`, each answer a `tool`
 * message with `id` and `error`; and as a results file, `{info, tasks, simulations}`, each simulation scored with its
 * `reward_info`.
 */
import type { Turn, WriteOptions } from './turns.js';

export interface Tau2Options extends WriteOptions {
  /** The task's reward (`reward_info.reward`). */
  readonly reward: number;
  /** The simulation's id; `sim-N` by default. */
  readonly id?: string;
}

export function tau2Simulation(turns: readonly Turn[], { n, reward, id }: Tau2Options): Record<string, unknown> {
  let turn = 0;
  let clock = Date.parse('2026-11-18T14:02:11.000Z') + n * 600_000;
  const time = () => new Date((clock += 2300)).toISOString().replace('Z', '');
  const messages: unknown[] = [];
  for (const [i, t] of turns.entries()) {
    if ('user' in t) messages.push({ role: 'user', content: t.user, tool_calls: null, turn_idx: turn++, timestamp: time() });
    else {
      const callId = `call_${n}_${i}`;
      const toolCalls = 'call' in t ? [{ id: callId, name: t.call, arguments: t.args, requestor: 'assistant' }] : null;
      const content = 'say' in t ? t.say : null;
      const usage = { prompt_tokens: 3900 + turn * 170, completion_tokens: 40 + (i % 60) };
      messages.push({
        role: 'assistant',
        content,
        tool_calls: toolCalls,
        turn_idx: turn++,
        timestamp: time(),
        cost: 0.0041,
        usage,
        raw_data: {
          id: `chatcmpl-${n}x${i}`,
          created: 1763474531 + i,
          model: 'claude-sonnet-4-5-20250929',
          object: 'chat.completion',
          choices: [
            { finish_reason: toolCalls ? 'tool_calls' : 'stop', index: 0, message: { content, role: 'assistant', tool_calls: toolCalls } },
          ],
          usage,
        },
      });
      if ('call' in t && t.answer !== undefined)
        messages.push({
          role: 'tool',
          id: callId,
          content: t.answer.text ?? '',
          requestor: 'assistant',
          error: t.answer.isError === true,
          turn_idx: turn++,
          timestamp: time(),
        });
    }
  }
  return {
    id: id ?? `sim-${n}`,
    task_id: String(n % 115),
    trial: 0,
    termination_reason: 'user_stop',
    reward_info: { reward },
    messages,
  };
}

/** One simulation's file. */
export function writeTau2Simulation(turns: readonly Turn[], options: Tau2Options): string {
  return JSON.stringify(tau2Simulation(turns, options), null, 2);
}

/** A results file of simulations (`tau2Simulation`'s values). */
export function writeTau2Results(simulations: readonly Record<string, unknown>[]): string {
  const info = { git_commit: '0000000', num_trials: 1, max_steps: 200, user_info: { implementation: 'user_simulator' } };
  const tasks = [...new Set(simulations.map((s) => s.task_id))].map((id) => ({ id, description: { purpose: 'retail' } }));
  return JSON.stringify({ timestamp: '2026-11-18T14:00:00', info, tasks, simulations }, null, 2);
}
