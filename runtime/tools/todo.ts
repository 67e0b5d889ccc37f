/**
 * `todo`: the conversation's task list, modelled on Claude Code's TodoWrite: every call writes the whole list
 * (an empty list clears it) and gets it back with a count per status.
 *
 * Limits keep one run's state small and the answers cheap: at most `MAX_TODOS` items, `content` 1–500
 * characters (trimmed), `note` up to 1000. The shape and limits live in the zod input schema, so clients see
 * them in the tool's JSON Schema; `completion_node` needs the loaded agent and is checked here: it must be
 * one of the agent's terminal nodes, since only reaching a terminal node produces a `todo_reminder`.
 *
 * `todo` acts on a run, so it needs `load_graph` first: without an agent `completion_node` cannot be checked (by
 * the step function, `contract/run/step.ts`, as `sop replay` checks a transcript's lists).
 * A rejected write (`isError: true`) leaves the previous list in place.
 */
import { z } from 'zod';
import { writeTodos as writeTodoList } from '../../contract/run/step.js';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import type { RunState, TodoItem } from '../store/run-store.js';
import { RUN_ID_FIELD } from './run-id-field.js';
import { errorAnswerSchema, fail, succeed, type ErrorAnswer, type ToolOutcome } from './tool-outcome.js';

export const TODO = 'todo';
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const satisfies readonly TodoItem['status'][];
export const MAX_TODOS = 50;
export const MAX_CONTENT = 500;
export const MAX_NOTE = 1000;

export const todoDescription =
  'Create and manage a structured task list for the current conversation. Write the full updated list on each call ' +
  '(an empty list clears it). Tasks are internal to the agent and not shown to the user. Give a task the terminal ' +
  'node that completes it as `completion_node`: reaching that node with goto_node adds a reminder to update the list. ' +
  `Requires load_graph first. At most ${MAX_TODOS} tasks.`;

const todoItemInput = z.strictObject({
  content: z
    .string()
    .trim()
    .min(1, 'content must not be empty')
    .max(MAX_CONTENT, `content must be at most ${MAX_CONTENT} characters`)
    .describe('Task description'),
  status: z.enum(TODO_STATUSES, { error: `status must be one of ${TODO_STATUSES.join(', ')}` }).describe('Current task status'),
  completion_node: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Terminal SOP node ID that marks this task as done. When goto_node reaches this node, it reminds the agent to update todos.'),
  note: z
    .string()
    .max(MAX_NOTE, `note must be at most ${MAX_NOTE} characters`)
    .optional()
    .describe('Optional context, dependencies, or findings from other tasks'),
});

export const todoInput = z.strictObject({
  todos: z.array(todoItemInput).max(MAX_TODOS, `at most ${MAX_TODOS} todos`).describe('The updated todo list'),
  run_id: RUN_ID_FIELD,
});
export type TodoInput = z.output<typeof todoInput>;

const todoAnswerSchema = z.object({
  todos: z.array(
    z.object({
      content: z.string(),
      status: z.enum(TODO_STATUSES),
      completion_node: z.string().optional(),
      note: z.string().optional(),
    }),
  ),
  summary: z.object({ pending: z.number().int(), in_progress: z.number().int(), completed: z.number().int() }),
});

export interface TodoAnswer {
  readonly todos: readonly TodoItem[];
  readonly summary: { readonly pending: number; readonly in_progress: number; readonly completed: number };
}

export const todoOutput = z.union([todoAnswerSchema, errorAnswerSchema]);

export function writeTodos(agent: PreparedAgent, state: RunState, input: TodoInput): ToolOutcome<TodoAnswer | ErrorAnswer> {
  const todos = input.todos.map(normalise);
  const { decision, state: next } = writeTodoList(agent.rules, state, todos);
  if (decision.kind === 'refused') return fail(state, { error: decision.error, terminal_nodes: [...decision.terminalNodes] });
  const summary = { pending: 0, in_progress: 0, completed: 0 };
  for (const todo of todos) summary[todo.status] += 1;
  return succeed({ todos, summary }, next);
}

/** Stored and echoed in one key order, without absent keys. */
function normalise(todo: TodoInput['todos'][number]): TodoItem {
  return {
    content: todo.content,
    status: todo.status,
    ...(todo.completion_node === undefined ? {} : { completion_node: todo.completion_node }),
    ...(todo.note === undefined ? {} : { note: todo.note }),
  };
}
