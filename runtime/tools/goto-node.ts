/**
 * `goto_node`: move through the loaded agent's flowchart and receive the target node's instructions.
 *
 * Which moves are legal, and the path after one, is decided by the compiled transition table and the one
 * rule in `contract/transitions.ts` (a successor; the entry node, always; a hub on the path), the same the
 * generated XState machine follows. `path` is how the agent got here from the entry node.
 *
 * Answers, decided per case:
 *   - a legal move: the seed's answer (`node`, `edges`, `path`, `valid: true`, and `todo_reminder` when the
 *     node is terminal and a todo names it as its `completion_node`). Its text is spliced from the node's
 *     prepared JSON and the path's, byte-identical to `JSON.stringify` of the answer;
 *   - an illegal move: a normal result (not `isError`), `valid: false` with `valid_next`, as in the seed: it
 *     is navigation feedback the agent acts on, not a failure of the call;
 *   - a move into a node whose visit limit (`max_visits`) is used up: refused the same way, with an `error`
 *     that names the node, its limit and the escalation node, and `escalate_to` (also in `valid_next`);
 *   - an unknown node id: `isError: true`.
 * A legal move counts a visit to a limited node in the run's `visits`, committed with the move, so the count
 * holds across instances and restarts. Refused moves leave the run's state untouched. The reminder names only todos still open: a todo already
 * completed needs no reminder.
 */
import { z } from 'zod';
import { decideMove, legalTargets, type MoveRefusal } from '../../contract/transitions.js';
import type { EdgeAnswer, NodeAnswer, PreparedAgent } from '../agents/prepared-agent.js';
import type { RunState } from '../store/run-store.js';
import { RUN_ID_FIELD } from './run-id-field.js';
import { errorAnswerSchema, fail, type ErrorAnswer, type ToolOutcome } from './tool-outcome.js';

export const GOTO_NODE = 'goto_node';

export const gotoNodeDescription =
  'Move to a node in the SOP graph. Returns the node description, prompt, tools, examples, and valid next edges. ' +
  'Validates that the transition is legal from the current position: a direct successor, the entry node ' +
  '(always; restarts the path), or a hub already on the path. `path` is how you got here from the entry node; ' +
  'going back to a node on it shortens it to that node. An illegal move answers `valid: false` with ' +
  '`valid_next` and changes nothing. Requires load_graph first; start at the entry node.';

export const gotoNodeInput = z.strictObject({
  node_id: z.string().min(1).max(200).describe('Target node ID to move to'),
  run_id: RUN_ID_FIELD,
});
export type GotoNodeInput = z.output<typeof gotoNodeInput>;

const exampleSchema = z.object({ user: z.string(), agent: z.string() });
export const nodeSchema = z.object({
  id: z.string(),
  type: z.string().describe('Mermaid shape: stadium, rectangle, rhombus, …'),
  description: z.string(),
  prompt: z.string().optional(),
  tools: z.array(z.string()).optional(),
  examples: z.array(exampleSchema).optional(),
});
export const edgeSchema = z.object({ to: z.string(), condition: z.string().nullable() });

const moveAnswerSchema = z.object({
  node: nodeSchema,
  edges: z.array(edgeSchema),
  path: z.array(z.string()),
  valid: z.literal(true),
  todo_reminder: z.string().optional(),
});
const refusalAnswerSchema = z.object({
  valid: z.literal(false),
  error: z.string(),
  current_node: z.string().nullable(),
  valid_next: z.array(z.string()),
  escalate_to: z.string().optional().describe('The escalation node, when the target has used up its visits (max_visits).'),
});

/** A legal move. Its `node` and `edges` are the prepared, frozen objects shared by every run. */
export interface MoveAnswer {
  readonly node: NodeAnswer;
  readonly edges: readonly EdgeAnswer[];
  readonly path: readonly string[];
  readonly valid: true;
  readonly todo_reminder?: string;
}
export type RefusalAnswer = z.output<typeof refusalAnswerSchema>;
export type GotoNodeAnswer = MoveAnswer | RefusalAnswer | ErrorAnswer;

export const gotoNodeOutput = z.union([moveAnswerSchema, refusalAnswerSchema, errorAnswerSchema]);

export function gotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  const targetId = input.node_id;
  const target = agent.nodes.get(targetId);
  if (target === undefined) return unknownNode(agent, state, targetId);
  const verdict = decideMove(agent.transitions, state.path, targetId, state.visits);
  if (!verdict.ok) return { answer: refusal(agent, state, targetId, verdict), state, isError: false, outcome: 'refused' };

  const { path, visits } = verdict;
  const pathJson = JSON.stringify(path);
  const next = path === state.path && visits === state.visits ? state : { ...state, path, visits };
  if (target.terminal && state.todos.some((todo) => todo.completion_node === targetId && todo.status !== 'completed')) {
    const reminder = todoReminder(targetId);
    return {
      answer: { node: target.node, edges: target.edges, path, valid: true, todo_reminder: reminder },
      state: next,
      isError: false,
      outcome: 'ok',
      text: `{"node":${target.nodeJson},"edges":${target.edgesJson},"path":${pathJson},"valid":true,"todo_reminder":${JSON.stringify(reminder)}}`,
    };
  }
  return {
    answer: { node: target.node, edges: target.edges, path, valid: true },
    state: next,
    isError: false,
    outcome: 'ok',
    text: `{"node":${target.nodeJson},"edges":${target.edgesJson},"path":${pathJson},"valid":true}`,
  };
}

/** Where the agent may go from here: successors in edge order, then the entry node and the hubs on the path. */
export function validNext(agent: PreparedAgent, state: RunState): string[] {
  return legalTargets(agent.transitions, state.path, state.visits);
}

export function todoReminder(nodeId: string): string {
  return `Reached completion node ${nodeId}. Update todos and proceed to next task.`;
}

function refusal(agent: PreparedAgent, state: RunState, targetId: string, verdict: MoveRefusal): RefusalAnswer {
  const current = state.path.at(-1) ?? null;
  const valid_next = validNext(agent, state);
  if (verdict.reason === 'visit-limit') {
    const times = verdict.max === 1 ? 'once' : `${verdict.max} times`;
    const error =
      `Cannot reach ${targetId} from ${current ?? 'the start'}: ${targetId} has been visited ${times}, its limit (max_visits: ${verdict.max}). ` +
      `Go to ${verdict.escalation}, the escalation node.`;
    return { valid: false, error, current_node: current, valid_next, escalate_to: verdict.escalation };
  }
  const error =
    current === null
      ? `Cannot reach ${targetId} before the conversation has started: go to ${agent.entryNode} first`
      : `Cannot reach ${targetId} from ${current}`;
  return { valid: false, error, current_node: current, valid_next };
}

function unknownNode(agent: PreparedAgent, state: RunState, targetId: string): ToolOutcome<ErrorAnswer> {
  const lower = targetId.toLowerCase();
  const near = agent.nodeIds.find((id) => id.toLowerCase() === lower);
  const hint = near === undefined ? '' : ` Did you mean ${near}?`;
  return fail(state, {
    valid: false,
    error: `Node not found: ${targetId}.${hint} Valid nodes: [${agent.nodeIds.join(', ')}]`,
    valid_nodes: [...agent.nodeIds],
  });
}
