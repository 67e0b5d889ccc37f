/**
 * A run as it stood after any step of its audit log, rebuilt from the log alone, so the page's scrubber can
 * show every step without asking the server: the nodes visited so far, the current node, the edges moved
 * along, the moves the SOP refused (as [from, requested node]) and the todo list as last written. Pure and
 * browser-safe: the page script bundles it. Every audit entry records the current node after the call (`to`),
 * so what was visited needs no knowledge of which tool moved; a refused move's target is its `node_id` input, read
 * as the server reads it: inside a sub-flow, an id of the SOP the run was in (`VERIFY` for `AUTHENTICATE.VERIFY`).
 *
 * The page shows history ("visited so far"), not the path: the path rewinds when the agent goes back to a hub,
 * and a person watching wants to see where the agent has been.
 */
import { resolveInFrame } from '../../contract/frames.js';
import type { FlowchartMarks } from '../diagram/annotate-flowchart.js';
import type { AuditEntry, TodoItem } from '../store/run-store.js';

export interface StepView extends FlowchartMarks {
  /** 1-based; the entry whose seq it is. */
  readonly step: number;
  readonly entry: AuditEntry | undefined;
  readonly todos: readonly TodoItem[];
}

/** `nodeIds`: the run's SOP's node ids, expanded with its sub-flows (qualified), to read a refused target by. */
export function stepView(entries: readonly AuditEntry[], step: number, nodeIds: ReadonlySet<string> = new Set()): StepView {
  const shown = entries.filter((entry) => entry.seq <= step);
  const visited: string[] = [];
  const traversed: [string, string][] = [];
  const refused: [string, string][] = [];
  let todos: readonly TodoItem[] = [];
  for (const entry of shown) {
    if (entry.to !== null) visited.push(entry.to);
    if (entry.from !== null && entry.to !== null && entry.from !== entry.to) traversed.push([entry.from, entry.to]);
    const target = nodeIdOf(entry.input);
    if (entry.outcome === 'refused' && entry.from !== null && target !== undefined)
      refused.push([entry.from, resolveInFrame(target, entry.from, (id) => nodeIds.has(id))]);
    if (entry.tool === 'todo' && entry.outcome === 'ok') todos = todosOf(entry.input);
  }
  const entry = shown.at(-1);
  return { step, entry, visited, current: entry?.to ?? null, traversed, refused, todos };
}

function nodeIdOf(input: unknown): string | undefined {
  const value = typeof input === 'object' && input !== null ? (input as { node_id?: unknown }).node_id : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The list a successful `todo` call wrote (its input passed validation, so only its shape is checked here). */
function todosOf(input: unknown): readonly TodoItem[] {
  const list = typeof input === 'object' && input !== null ? (input as { todos?: unknown }).todos : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const todo = item as Partial<TodoItem>;
    if (typeof todo.content !== 'string' || typeof todo.status !== 'string') return [];
    return [
      {
        content: todo.content.trim(),
        status: todo.status,
        ...(typeof todo.completion_node === 'string' ? { completion_node: todo.completion_node } : {}),
        ...(typeof todo.note === 'string' ? { note: todo.note } : {}),
      },
    ];
  });
}
