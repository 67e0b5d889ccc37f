/**
 * What one conversation remembers between tool calls: the agent it loaded, where it is in that agent's
 * flowchart, and its todo list. Plain, JSON-serialisable, readonly data, so a `SessionStore` can keep it in
 * memory today and in a database or Redis later without a mapping layer.
 *
 * Invariants (kept by the tool functions, never by callers): `path` is empty until the entry node is
 * visited, and then a simple path of the flowchart from the entry node (each node a successor of the one
 * before, no node twice), so it never holds more nodes than the agent has; the hubs on it are the hubs the
 * agent may jump back to; `agent` is null until `load_graph` succeeds, and loading resets everything else.
 */

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  readonly content: string;
  readonly status: TodoStatus;
  /** A terminal node of the loaded agent; reaching it adds a `todo_reminder` to `goto_node`'s answer. */
  readonly completion_node?: string;
  readonly note?: string;
}

export interface SessionState {
  /** Name of the agent selected by `load_graph`, or null before it. */
  readonly agent: string | null;
  /** How the agent got here from the entry node: entry first, the current node last, no node twice. */
  readonly path: readonly string[];
  readonly todos: readonly TodoItem[];
}

/** A conversation that has not called anything yet. */
export const EMPTY_SESSION: SessionState = Object.freeze({
  agent: null,
  path: Object.freeze([]),
  todos: Object.freeze([]),
});
