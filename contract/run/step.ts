/**
 * The step function: one event on a run, `(rules of a compiled SOP, run state, event) → decision + next state`. The
 * server's tools (`goto_node`, `todo`, the gateway's domain calls), `sop replay` and its alignment, the runs page's
 * replays and `sop runs migrate` all decide with it, so the gateway cannot refuse what replay calls perfect, nor the
 * other way round. Events:
 *   - `start`: a new run (`load_graph`);
 *   - `move`: `goto_node` (`move.ts`);
 *   - `call`: a domain call, before it is sent (`call.ts`);
 *   - `answer`: how a sent call came out, with what it returned (`answer.ts`);
 *   - `todo`: the task list written (`todo` checks each completion node is a terminal node).
 * `domainCalls` says whether the run sees its domain calls (the gateway; a replay of a conversation whose calls it
 * reads): only then do evidence and data decide moves.
 *
 * Pure and browser-safe: no I/O, no clock, no randomness (a question's id comes with the event).
 */
import { type AnswerRecorded, type CallOutcome, recordAnswer } from './answer.js';
import { type CallDecision, type ConfirmationInput, decideCall } from './call.js';
import { decideMove, type MoveDecision, type MoveOptions } from './move.js';
import type { RunRules } from './rules.js';
import { EMPTY_RUN_STATE, type RunState, type TodoItem } from './state.js';
import type { Outcome } from '../transitions.js';

export type RunEvent =
  | { readonly kind: 'start' }
  | { readonly kind: 'move'; readonly target: string; readonly outcome?: Outcome }
  | {
      readonly kind: 'call';
      readonly tool: string;
      readonly args: Readonly<Record<string, unknown>>;
      readonly confirmation: ConfirmationInput;
    }
  | {
      readonly kind: 'answer';
      readonly tool: string;
      readonly args: unknown;
      /** The run's path when the call was decided. */
      readonly at: readonly string[];
      readonly outcome: CallOutcome;
    }
  | { readonly kind: 'todo'; readonly todos: readonly TodoItem[] };

export type TodoDecision =
  | { readonly kind: 'written' }
  | { readonly kind: 'refused'; readonly error: string; readonly terminalNodes: readonly string[] };

/** The decision each kind of event gets. */
export interface Decisions {
  readonly start: { readonly kind: 'started' };
  readonly move: MoveDecision;
  readonly call: CallDecision;
  readonly answer: AnswerRecorded;
  readonly todo: TodoDecision;
}

export interface Step<K extends RunEvent['kind'] = RunEvent['kind']> {
  readonly decision: Decisions[K];
  readonly state: RunState;
}

export type StepOptions = MoveOptions;

export function step<E extends RunEvent>(rules: RunRules, state: RunState, event: E, options: StepOptions): Step<E['kind']>;
export function step(rules: RunRules, state: RunState, event: RunEvent, options: StepOptions): Step {
  switch (event.kind) {
    case 'start':
      return { decision: { kind: 'started' }, state: EMPTY_RUN_STATE };
    case 'move':
      return decideMove(rules, state, event.target, event.outcome, options);
    case 'call':
      return decideCall(rules, state, event.tool, event.args, event.confirmation);
    case 'answer': {
      const { recorded, state: next } = recordAnswer(rules, state, event.tool, event.args, event.at, event.outcome);
      return { decision: recorded, state: next };
    }
    case 'todo':
      return writeTodos(rules, state, event.todos);
  }
}

/** The task list written: each completion node must be a terminal node (only reaching one produces a reminder). */
export function writeTodos(rules: RunRules, state: RunState, todos: readonly TodoItem[]): Step<'todo'> {
  const wrong = todos.flatMap((todo, index) =>
    todo.completion_node === undefined || rules.terminals.has(todo.completion_node)
      ? []
      : [`todos[${index}].completion_node: ${todo.completion_node} is not a terminal node of ${rules.sop.meta.agent}`],
  );
  if (wrong.length > 0) {
    const terminalNodes = rules.sop.terminalNodes;
    return {
      decision: { kind: 'refused', error: `${wrong.join('; ')}. Terminal nodes: [${terminalNodes.join(', ')}]`, terminalNodes },
      state,
    };
  }
  return { decision: { kind: 'written' }, state: { ...state, todos } };
}
