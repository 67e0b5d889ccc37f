/**
 * Chat transcripts for `sop replay` tests, written as what happened (the user said, the agent said, the agent
 * called a tool and got an answer) and turned into the OpenAI chat message shape the replay reads: assistant
 * messages with `tool_calls: [{id, type: 'function', function: {name, arguments}}]`, tool messages with
 * `tool_call_id`. Call ids are numbered per transcript, so the same steps give the same messages. `replayChat`
 * replays such a transcript against the repository's compiled agents (`generated/sop-bundle.json`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import type { ReplayReport } from '../../analysis/replay/replay-report.js';
import { replay } from '../../analysis/replay/replay.js';
import { PROJECT_ROOT } from './run-cli.js';

export type ChatMessage = Readonly<Record<string, unknown>>;

export type ChatStep =
  | { readonly user: string }
  | { readonly say: string }
  | { readonly call: string; readonly args: Readonly<Record<string, unknown>>; readonly answer?: unknown };

export const user = (text: string): ChatStep => ({ user: text });
export const say = (text: string): ChatStep => ({ say: text });

/** A tool call; `answer` (JSON, or a string as is) becomes its tool message. */
export function call(name: string, args: Readonly<Record<string, unknown>> = {}, answer?: unknown): ChatStep {
  return answer === undefined ? { call: name, args } : { call: name, args, answer };
}

/** One `goto_node` call per node, in order. */
export function moves(...nodes: readonly string[]): ChatStep[] {
  return nodes.map((node) => call('goto_node', { node_id: node }));
}

/** The steps as OpenAI chat messages. */
export function chat(...steps: readonly (ChatStep | readonly ChatStep[])[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let calls = 0;
  for (const step of steps.flat()) {
    if ('user' in step) messages.push({ role: 'user', content: step.user });
    else if ('say' in step) messages.push({ role: 'assistant', content: step.say });
    else {
      calls += 1;
      const id = `call_${calls}`;
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: step.call, arguments: JSON.stringify(step.args) } }],
      });
      if (step.answer !== undefined) {
        const content = typeof step.answer === 'string' ? step.answer : JSON.stringify(step.answer);
        messages.push({ role: 'tool', tool_call_id: id, content });
      }
    }
  }
  return messages;
}

/** The repository's compiled agents, as `npm run build:sops` writes them. */
export function repositoryBundle(): SopBundle {
  return JSON.parse(readFileSync(join(PROJECT_ROOT, 'generated', 'sop-bundle.json'), 'utf8')) as SopBundle;
}

/** The replay report of `messages` (as a file named transcript.json), checked against `agent` when given. */
export function replayChat(bundle: SopBundle, messages: readonly ChatMessage[], agent?: string): ReplayReport {
  const outcome = replay({ bundle, text: JSON.stringify(messages), file: 'transcript.json', ...(agent === undefined ? {} : { agent }) });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.report;
}
