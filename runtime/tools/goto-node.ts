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
 *
 * Sub-flows and forks (the agent is served expanded with the SOPs it calls, `contract/composition.ts`):
 *   - a node id of the SOP the run is in may be given without its qualifier (`VERIFY` for `AUTHENTICATE.VERIFY`);
 *   - a move into a sub-flow node enters the called SOP's entry node too, in the same call; inside a call the answer
 *     carries `stack` (one frame per SOP, outermost first), and a move out of one `returned` (the call that ended);
 *   - a move from a branch into its fork's join takes the branch's `outcome` (default `passed`); a branch finished
 *     early brings the run back to the fork, whose answer offers only the branches left (`fork`); at a join that is
 *     complete, `join` says how it came out and its edges are the ones that outcome opens.
 * An answer carries none of these where they do not apply, so a SOP without sub-flows or forks answers as before.
 */
import { z } from 'zod';
import { QUALIFIER, type StackFrame, stackOf } from '../../contract/composition.js';
import { applyMove, decideMove, type MoveDecision, type MoveOptions, resolveTarget as resolveInRun } from '../../contract/run/move.js';
import { forkRuleOf, forksOnPath, type ForkProgress, legalTargets, type MoveAccepted, type Outcome } from '../../contract/transitions.js';
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
});

/** A legal move. Its `node` and `edges` are the prepared, frozen objects shared by every run. */
export interface MoveAnswer {
  readonly node: NodeAnswer;
  readonly edges: readonly EdgeAnswer[];
  readonly path: readonly string[];
  readonly valid: true;
  readonly todo_reminder?: string;
  readonly stack?: readonly StackFrame[];
  readonly returned?: string;
  readonly fork?: { readonly join: string; readonly done: readonly string[]; readonly open: readonly string[] };
  readonly join?: { readonly outcome: Outcome };
}
export type RefusalAnswer = z.output<typeof refusalAnswerSchema>;
export type GotoNodeAnswer = MoveAnswer | RefusalAnswer | ErrorAnswer;

export const gotoNodeOutput = z.union([moveAnswerSchema, refusalAnswerSchema, errorAnswerSchema]);

/** A move as the server without a gateway decides it: by the transition rule alone (it sees no domain call). */
const PLAIN: MoveOptions = Object.freeze({ domainCalls: false });
/** A move in gateway mode: the domain calls pass through the run, so evidence and data decide too. */
const GATEWAY: MoveOptions = Object.freeze({ domainCalls: true });

export function gotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  return moveOnRun(agent, state, input, PLAIN);
}

/** `goto_node` in gateway mode (`sop serve --gateway`): the same answers, and moves held for evidence or data. */
export function gatewayGotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  return moveOnRun(agent, state, input, GATEWAY);
}

/**
 * `goto_node` in observe mode (`sop serve --gateway --observe`): a move the gateway would hold for evidence or data
 * is made (as without the gateway), and the outcome says what enforcement would have decided, for the audit.
 */
export function observedGotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput): ToolOutcome<GotoNodeAnswer> {
  return moveOnRun(agent, state, input, GATEWAY, true);
}

function moveOnRun(
  agent: PreparedAgent,
  state: RunState,
  input: GotoNodeInput,
  options: MoveOptions,
  observe = false,
): ToolOutcome<GotoNodeAnswer> {
  const decided = decideMove(agent.rules, state, input.node_id, input.outcome, options);
  const { decision } = decided;
  if (decision.kind === 'unknown-node') return fail(state, { valid: false, error: decision.error, valid_nodes: [...agent.nodeIds] });
  if (decision.kind === 'refused' && observe && decision.plain !== undefined) {
    // The move the transition rule allows, made; what the domain calls would have held it for goes to the audit.
    const next = applyMove(agent.rules, state, decision.plain, [], options);
    return { ...moveAnswer(agent, state, decision.plain, next), would: { rule: decision.rule, reason: decision.error } };
  }
  if (decision.kind === 'refused') return { answer: refusal(decision), state, isError: false, outcome: 'refused', rule: decision.rule };
  return moveAnswer(agent, state, decision.verdict, decided.state);
}

/** The answer to a move made: the node, its edges, the path, and what a sub-flow, a fork or a todo adds. */
function moveAnswer(agent: PreparedAgent, state: RunState, verdict: MoveAccepted, next: RunState): ToolOutcome<GotoNodeAnswer> {
  const { path } = verdict;
  const hereId = path.at(-1)!;
  const here = agent.nodes.get(hereId)!;
  const forks = verdict.forks ?? state.forks ?? [];
  const extras = answerExtras(agent, path, forks, verdict.returned);
  const reminder =
    here.terminal && state.todos.some((todo) => todo.completion_node === hereId && todo.status !== 'completed')
      ? todoReminder(hereId)
      : undefined;
  if (extras.edges === undefined && Object.keys(extras.fields).length === 0) {
    const pathJson = JSON.stringify(path);
    if (reminder !== undefined) {
      return {
        answer: { node: here.node, edges: here.edges, path, valid: true, todo_reminder: reminder },
        state: next,
        isError: false,
        outcome: 'ok',
        text: `{"node":${here.nodeJson},"edges":${here.edgesJson},"path":${pathJson},"valid":true,"todo_reminder":${JSON.stringify(reminder)}}`,
      };
    }
    return {
      answer: { node: here.node, edges: here.edges, path, valid: true },
      state: next,
      isError: false,
      outcome: 'ok',
      text: `{"node":${here.nodeJson},"edges":${here.edgesJson},"path":${pathJson},"valid":true}`,
    };
  }
  const answer: MoveAnswer = {
    node: here.node,
    edges: extras.edges ?? here.edges,
    path,
    valid: true,
    ...(reminder === undefined ? {} : { todo_reminder: reminder }),
    ...extras.fields,
  };
  return { answer, state: next, isError: false, outcome: 'ok' };
}

/**
 * The node a `node_id` names for this run: the id itself when it is a node; else, inside a sub-flow, that id in the
 * SOP the run is in (or in a caller's, outward), so that `VERIFY` names `AUTHENTICATE.VERIFY`.
 */
export function resolveTarget(agent: PreparedAgent, state: RunState, nodeId: string): string {
  return resolveInRun(agent.rules, state.path, nodeId);
}

/** What a sub-flow or a fork adds to an answer at the end of `path`: the stack, the call ended, a fork's or join's state. */
function answerExtras(
  agent: PreparedAgent,
  path: readonly string[],
  forks: readonly ForkProgress[],
  returned: string | undefined,
): { edges?: readonly EdgeAnswer[]; fields: Partial<MoveAnswer> } {
  const fields: { -readonly [K in keyof MoveAnswer]?: MoveAnswer[K] } = {};
  let edges: readonly EdgeAnswer[] | undefined;
  const here = path.at(-1)!;
  if (here.includes(QUALIFIER)) fields.stack = stackOf(agent.sop, here);
  if (returned !== undefined) fields.returned = returned;
  const live = forksOnPath(forks, path);
  const atFork = live.find((record) => record.fork === here && record.depth === path.length - 1);
  const rule = atFork === undefined ? undefined : forkRuleOf(agent.transitions, here);
  if (atFork !== undefined && rule !== undefined) {
    const done = atFork.done.map((d) => d.branch);
    const open = rule.branches.filter((branch) => !done.includes(branch));
    fields.fork = { join: rule.join, done, open };
    edges = (agent.nodes.get(here)?.edges ?? []).filter((edge) => open.includes(edge.to));
  }
  const joined = live.find((record) => record.outcome !== undefined && forkRuleOf(agent.transitions, record.fork)?.join === here);
  const joinRule = joined === undefined ? undefined : forkRuleOf(agent.transitions, joined.fork);
  if (joined?.outcome !== undefined && joinRule !== undefined) {
    fields.join = { outcome: joined.outcome };
    const closed = joined.outcome === 'passed' ? joinRule.failed : joinRule.passed;
    edges = (agent.nodes.get(here)?.edges ?? []).filter((edge) => !closed.includes(edge.to));
  }
  return edges === undefined ? { fields } : { edges, fields };
}

/** The edges an answer at the end of the run's path shows: at a fork the open branches, at a join the edges its outcome opens. */
export function edgesHere(agent: PreparedAgent, state: RunState): readonly EdgeAnswer[] {
  const here = state.path.at(-1);
  if (here === undefined) return [];
  return answerExtras(agent, state.path, state.forks ?? [], undefined).edges ?? agent.nodes.get(here)?.edges ?? [];
}

/** Where the agent may go from here: successors in edge order, then the entry node and the hubs on the path. */
export function validNext(agent: PreparedAgent, state: RunState): string[] {
  return legalTargets(agent.transitions, state.path, state.visits, state.forks);
}

export function todoReminder(nodeId: string): string {
  return `Reached completion node ${nodeId}. Update todos and proceed to next task.`;
}

function refusal(decision: Extract<MoveDecision, { kind: 'refused' }>): RefusalAnswer {
  return {
    valid: false,
    error: decision.error,
    current_node: decision.current,
    valid_next: [...decision.validNext],
    ...(decision.escalateTo === undefined ? {} : { escalate_to: decision.escalateTo }),
  };
}
