/**
 * `inspect` view `where`: where the run stands, without moving. Today an agent that lost track (a compacted
 * context, a resumed conversation) could only find out by moving; this answers from the committed run: the
 * current node with its instructions (what `goto_node` answered on entering it), its edges, every legal next
 * move, the path, the todos still open, the moves left into each node with a visit limit (agents that have
 * limits only), the call stack when the run is inside a sub-flow, and the call's step number in the run's audit log. It changes nothing;
 * the call is still committed and logged, so the log shows when the agent looked.
 */
import { z } from 'zod';
import { QUALIFIER, stackOf } from '../../../contract/composition.js';
import { entryOf } from '../../../contract/name-table.js';
import type { TransitionTable, Visits } from '../../../contract/transitions.js';
import { edgesHere, validNext } from '../../../contract/answers/goto-answer.js';
import { edgeSchema, nodeSchema } from '../goto-node.js';
import { succeed } from '../tool-outcome.js';
import type { RunView } from './inspect-view.js';

const todoSchema = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress']),
  completion_node: z.string().optional(),
  note: z.string().optional(),
});

const whereAnswer = z.object({
  run_id: z.string(),
  agent: z.string(),
  current_node: nodeSchema.nullable().describe('null before the first goto_node'),
  edges: z.array(edgeSchema),
  valid_next: z.array(z.string()),
  path: z.array(z.string()),
  open_todos: z.array(todoSchema),
  visits_left: z.record(z.string(), z.number().int()).optional(),
  stack: z.array(z.object({ agent: z.string(), node: z.string() })).optional(),
  step: z.number().int().describe("This call's number in the run's audit log."),
});

export const whereView: RunView = {
  name: 'where',
  summary: 'where (default): the current node and its instructions, edges, legal next moves, path, open todos, step',
  fields: {},
  required: [],
  answer: whereAnswer,
  onRun(agent, state, _input, run) {
    const current = state.path.at(-1);
    const node = current === undefined ? undefined : agent.nodes.get(current);
    return succeed(
      {
        run_id: run.runId,
        agent: agent.name,
        current_node: node?.node ?? null,
        edges: node === undefined ? [] : edgesHere(agent, state),
        valid_next: validNext(agent, state),
        path: state.path,
        open_todos: state.todos.filter((todo) => todo.status !== 'completed'),
        ...visitsOf(agent.transitions, state.visits),
        ...(current?.includes(QUALIFIER) === true ? { stack: stackOf(agent.sop, current) } : {}),
        step: run.version + 1,
      },
      state,
    );
  },
};

/** Moves left into each limited node, in flowchart order; nothing for an agent without limits. */
function visitsOf(table: TransitionTable, visits: Visits): { visits_left?: Record<string, number> } {
  const limits = Object.entries(table.limits ?? {});
  if (limits.length === 0) return {};
  return {
    visits_left: Object.fromEntries(limits.map(([node, limit]) => [node, Math.max(0, (limit?.max ?? 0) - (entryOf(visits, node) ?? 0))])),
  };
}
