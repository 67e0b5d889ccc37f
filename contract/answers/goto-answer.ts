/**
 * `goto_node`'s answer to a move, and the run's next state: what the server sends and commits, and what the compiler's
 * token budgets (SOP057) measure, so a budget counts the very bytes the model reads. Which moves are legal, and the
 * path after one, is decided by the step function (`../run/move.ts`, the one rule of `../transitions.ts`).
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
 * holds across instances and restarts. Refused moves leave the run's state untouched. The reminder names only todos
 * still open: a todo already completed needs no reminder.
 *
 * Sub-flows and forks (the agent is served expanded with the SOPs it calls, `contract/composition.ts`):
 *   - a node id of the SOP the run is in may be given without its qualifier (`VERIFY` for `AUTHENTICATE.VERIFY`);
 *   - a move into a sub-flow node enters the called SOP's entry node too, in the same call; inside a call the answer
 *     carries `stack` (one frame per SOP, outermost first), and a move out of one `returned` (the call that ended);
 *   - a move from a branch into its fork's join takes the branch's `outcome` (default `passed`); a branch finished
 *     early brings the run back to the fork, whose answer offers only the branches left (`fork`); at a join that is
 *     complete, `join` says how it came out and its edges are the ones that outcome opens.
 * An answer carries none of these where they do not apply, so a SOP without sub-flows or forks answers as before.
 *
 * Pure and browser-safe.
 */
import { QUALIFIER, type StackFrame, stackOf } from '../composition.js';
import { applyMove, decideMove, type MoveDecision, type MoveOptions, type MoveRule } from '../run/move.js';
import type { RunState } from '../run/state.js';
import { forkRuleOf, forksOnPath, type ForkProgress, legalTargets, type MoveAccepted, type Outcome } from '../transitions.js';
import type { EdgeAnswer, NodeAnswer, PreparedAgent } from './prepared-agent.js';

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

/** A move refused (illegal, or a visit limit used up): navigation feedback, not an error. */
export type RefusalAnswer = {
  valid: false;
  error: string;
  current_node: string | null;
  valid_next: string[];
  /** The escalation node, when the target has used up its visits (`max_visits`). */
  escalate_to?: string | undefined;
};

/** A node id the agent does not have: an error answer, with the agent's node ids. */
export type UnknownNodeAnswer = { readonly valid: false; readonly error: string; readonly valid_nodes: string[] };

export type GotoAnswer = MoveAnswer | RefusalAnswer | UnknownNodeAnswer;

/** A move's answer and the run's state after it, with what the audit log keeps of the move. */
export interface GotoOutcome {
  readonly answer: GotoAnswer;
  readonly state: RunState;
  readonly isError: boolean;
  readonly outcome: 'ok' | 'refused' | 'error';
  /** `JSON.stringify(answer)`, spliced from the prepared JSON, when the answer has no sub-flow or fork fields. */
  readonly text?: string;
  /** A refused move: the rule that refused it. */
  readonly rule?: MoveRule;
  /** Observe mode: a move made that enforcement would have refused, by this rule, saying this. */
  readonly would?: { readonly rule: MoveRule; readonly reason: string };
}

/**
 * A move to `target` (with `outcome`, into a fork's join) on a run of `agent`. `observe`: a move the domain calls
 * would hold is made anyway (as the transition rule allows it), and the outcome says what enforcement would have decided.
 */
export function answerMove(
  agent: PreparedAgent,
  state: RunState,
  target: string,
  outcome: Outcome | undefined,
  options: MoveOptions,
  observe = false,
): GotoOutcome {
  const decided = decideMove(agent.rules, state, target, outcome, options);
  const { decision } = decided;
  if (decision.kind === 'unknown-node') {
    return { answer: { valid: false, error: decision.error, valid_nodes: [...agent.nodeIds] }, state, isError: true, outcome: 'error' };
  }
  if (decision.kind === 'refused' && observe && decision.plain !== undefined) {
    // The move the transition rule allows, made; what the domain calls would have held it for goes to the audit.
    const next = applyMove(agent.rules, state, decision.plain, [], options);
    return { ...moveAnswer(agent, state, decision.plain, next), would: { rule: decision.rule, reason: decision.error } };
  }
  if (decision.kind === 'refused') return { answer: refusal(decision), state, isError: false, outcome: 'refused', rule: decision.rule };
  return moveAnswer(agent, state, decision.verdict, decided.state);
}

/** The answer to a move made: the node, its edges, the path, and what a sub-flow, a fork or a todo adds. */
function moveAnswer(agent: PreparedAgent, state: RunState, verdict: MoveAccepted, next: RunState): GotoOutcome {
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

function todoReminder(nodeId: string): string {
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
