/**
 * Whether a domain call may go to its server, decided from the run alone (gateway mode). Pure: the run's agent,
 * state and the call in; a decision and the run's next state out. The session service commits the decision to
 * the audit log before anything reaches the domain server (`service/domain-calls.ts`).
 *
 * In order, the first rule that holds a call back decides:
 *   1. the run is at a node (before the first `goto_node` nothing is offered);
 *   2. the tool is one of the SOP's;
 *   3. the current node lists it (the answer names the nodes that do, and the moves from here);
 *   4. a change (a tool a policy guards) names no entity (`order_id`, `user_id`) that evidence on the path is about
 *      with another value (`contract/evidence.ts`);
 *   5. a confirmation policy that guards it has the user's yes for this very call: asked through the client
 *      when it can ask the user (MCP elicitation), else taken from the flowchart's confirmation step the run
 *      entered, once per entry. A yes is bound to the tool and a digest of the arguments and spent by the call:
 *      it never lets a second call through, nor the same tool with changed arguments.
 */
import { unprovenEntity } from '../../contract/evidence.js';
import { legalTargets } from '../../contract/transitions.js';
import type { PreparedAgent } from '../agents/prepared-agent.js';
import type { ConfirmationGuard } from '../agents/gateway-tables.js';
import type { DomainRule, RunState } from '../store/run-store.js';
import { callDigest, type ConfirmationQuestion, confirmationQuestion } from './confirmation.js';

export interface DomainCallContext {
  /** Whether the user can be asked during this call (the client declared elicitation, on a channel that carries it). */
  readonly canAsk: boolean;
  /** The user's answer this call brings back: the question's id (the request state) and yes or no. */
  readonly answer?: { readonly id: string; readonly yes: boolean } | undefined;
  /** A fresh random id for a new question. */
  newId(): string;
}

/** What a refusal tells the model: why, and what it can do instead. */
export interface DomainRefusal {
  readonly error: string;
  readonly refused_by: DomainRule;
  readonly current_node: string | null;
  readonly offered_at?: readonly string[];
  readonly valid_next?: readonly string[];
  readonly policy?: string;
}

export type DomainDecision =
  | {
      readonly kind: 'refuse';
      readonly rule: DomainRule;
      readonly policy?: string;
      readonly confirmation?: 'no';
      readonly refusal: DomainRefusal;
      readonly state: RunState;
    }
  | {
      readonly kind: 'ask';
      readonly rule: 'confirmation';
      readonly policy: string;
      readonly question: ConfirmationQuestion;
      readonly state: RunState;
    }
  | {
      readonly kind: 'forward';
      readonly rule: DomainRule;
      readonly policy?: string;
      readonly confirmation?: 'yes' | 'step';
      readonly state: RunState;
    };

export function decideDomainCall(
  agent: PreparedAgent,
  state: RunState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  context: DomainCallContext,
): DomainDecision {
  const tables = agent.gateway;
  const node = state.path.at(-1);
  const offeredAt = tables.offeredAt.get(tool) ?? [];
  const refuse = (
    rule: DomainRule,
    refusal: Omit<DomainRefusal, 'refused_by' | 'current_node'>,
    extra: { policy?: string; confirmation?: 'no' } = {},
  ): DomainDecision => ({
    kind: 'refuse',
    rule,
    ...extra,
    refusal: { ...refusal, refused_by: rule, current_node: node ?? null },
    state: withoutQuestion(state),
  });
  if (node === undefined) {
    return refuse('no-position', {
      error: `The run is at no step yet: move to ${agent.entryNode} with goto_node first. ${tool} is offered at ${listed(offeredAt)}.`,
      offered_at: offeredAt,
      valid_next: [agent.entryNode],
    });
  }
  if (!tables.tools.has(tool)) {
    return refuse('not-in-sop', { error: `${tool} is not a tool of the ${agent.name} procedure: this run may not call it.` });
  }
  if (!(tables.toolsAt.get(node)?.has(tool) ?? false)) {
    const validNext = legalTargets(agent.transitions, state.path, state.visits, state.forks);
    const here = [...(tables.toolsAt.get(node) ?? [])];
    return refuse('node-tools', {
      error:
        `${tool} is not offered at ${node}: it is offered at ${listed(offeredAt)}. ` +
        `${here.length === 0 ? `${node} offers no tools` : `${node} offers ${here.join(', ')}`}; from ${node} you may go to ${listed(validNext)}.`,
      offered_at: offeredAt,
      valid_next: validNext,
    });
  }
  const unproven = unprovenEntity(agent.sop, node, tool, args, state.evidence ?? []);
  if (unproven !== undefined) {
    return refuse('evidence', {
      error:
        `${tool} names ${unproven.name} ${JSON.stringify(unproven.value)}, but on this path the procedure checked ` +
        `${unproven.proven.map((v) => JSON.stringify(v)).join(', ')} only. Use a checked ${unproven.name}, or go back and check this one first.`,
    });
  }
  const guards = tables.confirmations.get(tool) ?? [];
  if (guards.length === 0) return { kind: 'forward', rule: 'node-tools', state: withoutQuestion(state) };
  return decideConfirmation(agent, state, node, tool, args, guards[0]!, context);
}

function decideConfirmation(
  agent: PreparedAgent,
  state: RunState,
  node: string,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  guard: ConfirmationGuard,
  context: DomainCallContext,
): DomainDecision {
  const digest = callDigest(tool, args);
  const depth = state.path.length - 1;
  const asked = state.asked;
  const answered =
    context.answer !== undefined &&
    asked !== undefined &&
    asked.id === context.answer.id &&
    asked.tool === tool &&
    asked.digest === digest &&
    asked.node === node &&
    asked.depth === depth;
  if (answered && context.answer?.yes === true) {
    return { kind: 'forward', rule: 'confirmation', policy: guard.policy, confirmation: 'yes', state: withoutQuestion(state) };
  }
  if (answered) {
    return {
      kind: 'refuse',
      rule: 'confirmation',
      policy: guard.policy,
      confirmation: 'no',
      refusal: {
        error: `The user did not allow ${tool}: nothing was sent. Tell them, and ask what they want instead.`,
        refused_by: 'confirmation',
        current_node: node,
        policy: guard.policy,
      },
      state: withoutQuestion(state),
    };
  }
  if (context.canAsk) {
    const question = confirmationQuestion(context.newId(), agent.name, node, tool, args);
    return {
      kind: 'ask',
      rule: 'confirmation',
      policy: guard.policy,
      question,
      state: { ...state, asked: { id: question.id, tool, digest, node, depth, policy: guard.policy } },
    };
  }
  const passes = state.passes ?? [];
  const pass = passes.find((p) => guard.steps.includes(p.node) && p.depth < state.path.length && state.path[p.depth] === p.node);
  if (pass !== undefined) {
    const rest = passes.filter((p) => p !== pass);
    const next = withoutQuestion(state);
    const { passes: _used, ...others } = next;
    return {
      kind: 'forward',
      rule: 'confirmation',
      policy: guard.policy,
      confirmation: 'step',
      state: rest.length === 0 ? others : { ...others, passes: rest },
    };
  }
  const steps = guard.steps;
  return {
    kind: 'refuse',
    rule: 'confirmation',
    policy: guard.policy,
    refusal: {
      error:
        `${tool} needs the user's explicit yes (policy ${guard.policy}), and this client cannot be asked directly (it does not support ` +
        `elicitation). Ask the user to confirm exactly this call; the confirmation step of the procedure (${listed(steps)}) then allows ` +
        `one call each time the run enters it.${steps.includes(node) ? ` It was already used in this visit of ${node}.` : ''}`,
      refused_by: 'confirmation',
      current_node: node,
      policy: guard.policy,
      valid_next: legalTargets(agent.transitions, state.path, state.visits, state.forks),
    },
    state: withoutQuestion(state),
  };
}

/** A pending question is for one call: any other call (or a move) drops it. */
function withoutQuestion(state: RunState): RunState {
  if (state.asked === undefined) return state;
  const { asked: _dropped, ...rest } = state;
  return rest;
}

function listed(items: readonly string[]): string {
  return items.length === 0 ? 'no node' : items.join(', ');
}
