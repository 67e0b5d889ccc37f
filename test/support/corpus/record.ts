/**
 * Records a conversation's acts: each domain call is made on a fresh copy of the retail database, in order, and its
 * answer is what the server answered (a refusal included); the answer of a call marked lost is the gateway's
 * timeout error instead (the call reached the server and took effect, but its answer never came back).
 *
 * In the `inferred` mode moves and todo lists are left out (an agent with the SOP in its prompt calls only the domain
 * tools); in the `declared` mode the agent loads the graph first and declares each move with `goto_node` and its
 * tasks with `todo`. Their answers are not the SOP server's recorded ones: `{"valid":true}` for a move, the list
 * back with its counts for a todo, the run's first fields for `load_graph`.
 */
import type { RecordedResult } from '../../../contract/run/call-results.js';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import type { Act } from './acts.js';
import { openRetailDomain } from './retail-domain.js';
import type { Turn } from './writers/turns.js';

export type Mode = 'inferred' | 'declared';

/** A call of a conversation with what it answered, as the corpus generated it. */
export interface CorpusCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: RecordedResult;
  /** Where the golden walk made it (domain calls). */
  readonly node?: string;
  /** Its answer was lost: `result` is the timeout error, not the server's answer (the change did take effect). */
  readonly lost?: true;
}

export interface Recorded {
  readonly turns: readonly Turn[];
  readonly calls: readonly CorpusCall[];
  /** The database after the conversation (the server's file format). */
  readonly database: string;
}

/** What the gateway answers when a domain call timed out after it may have reached the server. */
export function lostAnswer(tool: string): RecordedResult {
  const error =
    `The domain server retail-tools could not answer ${tool}: no answer within 30000 ms. The call may have reached it, and ` +
    `whether it took effect is unknown: do not call ${tool} again before checking (read what it would have changed).`;
  const structured = { error, server: 'retail-tools', reached: 'maybe' };
  return { structured, text: JSON.stringify(structured), isError: true };
}

export function record(acts: readonly Act[], mode: Mode, sop: CompiledSop, runId: string): Recorded {
  const domain = openRetailDomain();
  const turns: Turn[] = [];
  const calls: CorpusCall[] = [];
  const push = (tool: string, args: Readonly<Record<string, unknown>>, result: RecordedResult, extra: Partial<CorpusCall> = {}) => {
    turns.push({ call: tool, args, answer: result });
    calls.push({ tool, args, result, ...extra });
  };
  const text = (value: unknown): RecordedResult => ({ structured: value, text: JSON.stringify(value) });
  let loaded = mode === 'inferred';
  for (const act of acts) {
    if (!loaded && act.act !== 'user') {
      loaded = true;
      const answer = { run_id: runId, agent: sop.meta.agent, version: sop.meta.version, entry_node: sop.transitions.entry };
      push('load_graph', { agent: sop.meta.agent }, text(answer));
    }
    switch (act.act) {
      case 'user':
        turns.push({ user: act.text });
        break;
      case 'say':
        turns.push({ say: act.text });
        break;
      case 'move':
        if (mode === 'declared') push('goto_node', { node_id: act.node }, text({ valid: true }));
        break;
      case 'todo':
        if (mode === 'declared') {
          const summary = { pending: 0, in_progress: 0, completed: 0 };
          for (const todo of act.todos) summary[todo.status] += 1;
          push('todo', { todos: act.todos }, text({ todos: act.todos, summary }));
        }
        break;
      case 'call': {
        const answer = domain.call(act.tool, act.args);
        push(act.tool, act.args, act.lost === true ? lostAnswer(act.tool) : answer, {
          node: act.node,
          ...(act.lost === true ? { lost: true as const } : {}),
        });
      }
    }
  }
  return { turns, calls, database: domain.snapshot() };
}
