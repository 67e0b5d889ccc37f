/**
 * `goto_node`: move through the loaded agent's flowchart and receive the target node's instructions. This module is the
 * tool as MCP lists it (name, description, schemas) and its three modes; the answer to a move, and the run's state
 * after it, are made by `contract/answers/goto-answer.ts` (the same answers the compiler's token budgets measure).
 *
 * Which moves are legal, and the path after one, is decided by the compiled transition table and the one
 * rule in `contract/transitions.ts` (a successor; the entry node, always; a hub on the path), the same the
 * generated XState machine follows. `path` is how the agent got here from the entry node.
 */
import { z } from 'zod';
import { answerMove, type MoveAnswer, type RefusalAnswer } from '../../contract/answers/goto-answer.js';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import type { MoveOptions } from '../../contract/run/move.js';
import type { RunState } from '../store/run-store.js';
import { RUN_ID_FIELD } from './run-id-field.js';
import { errorAnswerSchema, type ErrorAnswer, type ToolOutcome } from './tool-outcome.js';

export const GOTO_NODE = 'goto_node';

export const gotoNodeDescription =
  'Move to a node in the SOP graph. Returns the node description, prompt, tools, examples, and valid next edges. ' +
  'Validates that the transition is legal from the current position: a direct successor, the entry node ' +
  '(always; restarts the path), or a hub already on the path. `path` is how you got here from the entry node; ' +
  'going back to a node on it shortens it to that node. An illegal move answers `valid: false` with ' +
  '`valid_next` and changes nothing. Requires load_graph first; start at the entry node.';

export const gotoNodeInput = z.strictObject({
  node_id: z.string().min(1).max(200).describe('Target node ID to move to'),
  outcome: z.enum(['passed', 'failed']).optional().describe("Into a fork's join: how the branch came out (default passed)"),
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
export const edgeSchema = z.object({
  to: z.string(),
  condition: z.string().nullable(),
  when: z.string().optional(),
});

const moveAnswerSchema = z.object({
  node: nodeSchema,
  edges: z.array(edgeSchema),
  path: z.array(z.string()),
  valid: z.literal(true),
  todo_reminder: z.string().optional(),
  stack: z.array(z.object({ agent: z.string(), node: z.string() })).optional(),
  returned: z.string().optional(),
  fork: z.object({ join: z.string(), done: z.array(z.string()), open: z.array(z.string()) }).optional(),
  join: z.object({ outcome: z.string() }).optional(),
});
const refusalAnswerSchema = z.object({
  valid: z.literal(false),
  error: z.string(),
  current_node: z.string().nullable(),
  valid_next: z.array(z.string()),
  escalate_to: z.string().optional().describe('The escalation node, when the target has used up its visits (max_visits).'),
}) satisfies z.ZodType<RefusalAnswer>;

export type GotoNodeAnswer = MoveAnswer | RefusalAnswer | ErrorAnswer;

export const gotoNodeOutput = z.union([moveAnswerSchema, refusalAnswerSchema, errorAnswerSchema]);

/** A move as the server without a gateway decides it: by the transition rule alone (it sees no domain call). */
const PLAIN: MoveOptions = Object.freeze({ domainCalls: false });
/** A move in gateway mode: the domain calls pass through the run, so evidence and data decide too. */
const GATEWAY: MoveOptions = Object.freeze({ domainCalls: true });

export function gotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  return answerMove(agent, state, input.node_id, input.outcome, PLAIN);
}

/** `goto_node` in gateway mode (`sop serve --gateway`): the same answers, and moves held for evidence or data. */
export function gatewayGotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  return answerMove(agent, state, input.node_id, input.outcome, GATEWAY);
}

/**
 * `goto_node` in observe mode (`sop serve --gateway --observe`): a move the gateway would hold for evidence or data
 * is made (as without the gateway), and the outcome says what enforcement would have decided, for the audit.
 */
export function observedGotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  return answerMove(agent, state, input.node_id, input.outcome, GATEWAY, true);
}
