/**
 * Whether a domain call may go to its server, decided from the run alone: the gateway asks before it forwards a call,
 * and `sop replay` asks the same of every call a conversation made. In order, the first rule that holds a call back
 * decides:
 *   1. `no-position`: the run is at a node (before the first `goto_node` nothing is offered);
 *   2. `not-in-sop`: the tool is one of the SOP's;
 *   3. `node-tools`: the current node lists it (the answer names the nodes that do, and the moves from here);
 *   4. `policy`: a policy naming the tool has one of its `passes` nodes on the path (a run the rule built always has:
 *      `sop build` proved it; a replayed conversation may not);
 *   5. `evidence`: a change (a tool a policy guards) names no entity (`order_id`) that the run's evidence is about
 *      with another value (`evidence.ts`);
 *   6. `data`: a change after a branch decided by data for some entities only names one of them (`move.ts`);
 *   7. `unknown-outcome`: a change naming an entity (or, naming none, the same tool) whose last change has an unknown
 *      outcome waits until it is read again (`answer.ts`): it is reconciled, never repeated blindly;
 *   8. `confirmation`: a confirmation policy that guards it has the user's yes for this very call. In the gateway:
 *      asked through the client when it can ask the user (MCP elicitation), else taken from the flowchart's
 *      confirmation step the run entered, once per entry; a yes is bound to the tool and a digest of the arguments
 *      and spent by the call. In a replay: what the conversation shows (the user's yes at the step, or the audit's).
 *
 * Pure and browser-safe: the caller computes the digest and makes the question's id.
 */
import { legalTargets } from '../transitions.js';
import { passesOnPath } from '../frames.js';
import { entitiesNamed, unprovenEntity } from './evidence.js';
import type { ConfirmationGuard, RunRules } from './rules.js';
import type { PendingConfirmation, RunState } from './state.js';

/** The rule that decided a domain call. */
export type CallRule = 'node-tools' | 'no-position' | 'not-in-sop' | 'policy' | 'evidence' | 'data' | 'unknown-outcome' | 'confirmation';

/** Where the user's yes for a call comes from. */
export type ConfirmationInput =
  /** The gateway: whether the client can ask the user now, the answer this call brings back, a new question's id. */
  | {
      readonly kind: 'client';
      /** The call's digest (tool and canonical arguments): a yes is for exactly this call. Asked only when a yes is needed. */
      digest(): string;
      readonly canAsk: boolean;
      readonly answer?: { readonly id: string; readonly yes: boolean } | undefined;
      newId(): string;
      /** The time now (ms since the epoch): a question is asked at it, and an answer to one asked too long ago is refused. */
      readonly now: number;
    }
  /**
   * A replay: whether the conversation shows the user's yes for this call (what was said, or the audit's record); for
   * a no, `why` follows the tool's name in the refusal (` at DO_CANCEL: the user said nothing …`).
   */
  | { readonly kind: 'observed'; readonly yes: boolean; readonly why?: string }
  /** A replay that cannot tell (it sees no dialogue and no record of it): not judged. */
  | { readonly kind: 'unseen' };

/** What a refusal tells the model: why, and what it can do instead. */
export interface CallRefusal {
  readonly error: string;
  readonly refused_by: CallRule;
  readonly current_node: string | null;
  readonly offered_at?: readonly string[];
  readonly valid_next?: readonly string[];
  readonly policy?: string;
}

export type CallDecision =
  | {
      readonly kind: 'refuse';
      readonly rule: CallRule;
      readonly policy?: string;
      readonly confirmation?: 'no';
      readonly refusal: CallRefusal;
    }
  /** Ask the user (gateway, a client that can be asked): the question's id is in the run's `asked`. */
  | { readonly kind: 'ask'; readonly rule: 'confirmation'; readonly policy: string; readonly id: string }
  | {
      readonly kind: 'forward';
      readonly rule: CallRule;
      readonly policy?: string;
      /** How the user's yes came: asked (`yes`), the confirmation step (`step`), or seen in the conversation (`observed`). */
      readonly confirmation?: 'yes' | 'step' | 'observed';
    };

export function decideCall(
  rules: RunRules,
  state: RunState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  confirmation: ConfirmationInput,
): { readonly decision: CallDecision; readonly state: RunState } {
  const [first] = callRefusals(rules, state, tool, args);
  if (first !== undefined) {
    const { rule, policy, ...refusal } = first;
    return {
      decision: {
        kind: 'refuse',
        rule,
        ...(policy === undefined ? {} : { policy }),
        refusal: { ...refusal, refused_by: rule, ...(policy === undefined ? {} : { policy }) },
      },
      state: withoutQuestion(state),
    };
  }
  const guard = rules.confirmations.get(tool)?.[0];
  if (guard === undefined) return { decision: { kind: 'forward', rule: 'node-tools' }, state: withoutQuestion(state) };
  return decideConfirmation(rules, state, state.path.at(-1)!, tool, guard, confirmation);
}

/** A rule that holds a call back, with what the model is told. */
export interface HeldCall extends Omit<CallRefusal, 'refused_by'> {
  readonly rule: Exclude<CallRule, 'confirmation'>;
}

/**
 * Every rule but the confirmation that holds a call back, in the order above (the first decides; a replay reports them
 * all). Empty when the call may go on to its confirmation, if it needs one. Nothing past `no-position` and
 * `not-in-sop`: the other rules need a node and a tool of the SOP.
 */
export function callRefusals(rules: RunRules, state: RunState, tool: string, args: Readonly<Record<string, unknown>>): HeldCall[] {
  const node = state.path.at(-1);
  const offeredAt = rules.offeredAt.get(tool) ?? [];
  const held = (rule: HeldCall['rule'], refusal: Omit<HeldCall, 'rule' | 'current_node'>): HeldCall => ({
    rule,
    ...refusal,
    current_node: node ?? null,
  });
  if (node === undefined) {
    const entry = rules.sop.transitions.entry;
    return [
      held('no-position', {
        error: `The run is at no step yet: move to ${entry} with goto_node first. ${tool} is offered at ${listed(offeredAt)}.`,
        offered_at: offeredAt,
        valid_next: [entry],
      }),
    ];
  }
  if (!rules.tools.has(tool)) {
    return [held('not-in-sop', { error: `${tool} is not a tool of the ${rules.sop.meta.agent} procedure: this run may not call it.` })];
  }
  const found: HeldCall[] = [];
  if (!(rules.toolsAt.get(node)?.has(tool) ?? false)) {
    const validNext = legalTargets(rules.sop.transitions, state.path, state.visits, state.forks);
    const here = [...(rules.toolsAt.get(node) ?? [])];
    found.push(
      held('node-tools', {
        error:
          `${tool} is not offered at ${node}: it is offered at ${listed(offeredAt)}. ` +
          `${here.length === 0 ? `${node} offers no tools` : `${node} offers ${here.join(', ')}`}; from ${node} you may go to ${listed(validNext)}.`,
        offered_at: offeredAt,
        valid_next: validNext,
      }),
    );
  }
  for (const policy of rules.policiesOfTool.get(tool) ?? []) {
    if (passesOnPath(rules.sop.transitions, policy.passes, state.path)) continue;
    found.push(
      held('policy', {
        error: `${tool} needs one of ${listed(policy.passes)} on the way here (policy ${policy.id}), and the path ${state.path.join(' > ')} passes none.`,
        policy: policy.id,
      }),
    );
  }
  const records = state.evidence ?? [];
  const unproven = unprovenEntity(rules, node, tool, args, records);
  if (unproven !== undefined) {
    found.push(
      held('evidence', {
        error:
          `${tool} names ${unproven.name} ${JSON.stringify(unproven.value)}, but this run read ` +
          `${unproven.proven.map((v) => JSON.stringify(v)).join(', ')} only. Use one it read, or read this one first.`,
      }),
    );
  }
  if (!rules.changes.has(tool)) return found;
  const named = entitiesNamed(rules, args);
  for (const narrowing of state.narrowed ?? []) {
    const given = named.find((entity) => entity.name === narrowing.name);
    if (given === undefined || narrowing.values.includes(given.value)) continue;
    found.push(
      held('data', {
        error:
          `${tool} names ${given.name} ${JSON.stringify(given.value)}, but the way here decided for ` +
          `${narrowing.values.map((v) => JSON.stringify(v)).join(', ')} only (at ${narrowing.node}: ${narrowing.why}). ` +
          `Use ${narrowing.values.length === 1 ? 'that one' : 'one of those'}, or go back and decide for this one first.`,
      }),
    );
    break;
  }
  const unsettled = (state.unsettled ?? []).find((entry) =>
    entry.entity === undefined
      ? entry.tool === tool
      : named.some((entity) => entity.name === entry.entity!.name && entity.value === entry.entity!.value),
  );
  if (unsettled !== undefined) {
    const what =
      unsettled.entity === undefined ? `what ${tool} changes` : `${unsettled.entity.name} ${JSON.stringify(unsettled.entity.value)}`;
    found.push(
      held('unknown-outcome', {
        error:
          `An earlier ${unsettled.tool} on ${what} may or may not have taken effect (its outcome is unknown). ` +
          `Read ${what} again to see whether it did, before changing it again: nothing was sent.`,
      }),
    );
  }
  return found;
}

function decideConfirmation(
  rules: RunRules,
  state: RunState,
  node: string,
  tool: string,
  guard: ConfirmationGuard,
  input: ConfirmationInput,
): { readonly decision: CallDecision; readonly state: RunState } {
  const forward = (confirmation: 'yes' | 'step' | 'observed', next: RunState = withoutQuestion(state)) => ({
    decision: { kind: 'forward' as const, rule: 'confirmation' as const, policy: guard.policy, confirmation },
    state: next,
  });
  const refuse = (error: string, extra: { confirmation?: 'no'; valid_next?: readonly string[] } = {}) => ({
    decision: {
      kind: 'refuse' as const,
      rule: 'confirmation' as const,
      policy: guard.policy,
      ...(extra.confirmation === undefined ? {} : { confirmation: extra.confirmation }),
      refusal: {
        error,
        refused_by: 'confirmation' as const,
        current_node: node,
        policy: guard.policy,
        ...(extra.valid_next === undefined ? {} : { valid_next: extra.valid_next }),
      },
    },
    state: withoutQuestion(state),
  });
  if (input.kind === 'unseen') return forward('observed');
  if (input.kind === 'observed') {
    return input.yes
      ? forward('observed')
      : refuse(`${tool}${input.why ?? ` was called without the user's explicit yes (policy ${guard.policy})`}`);
  }
  const depth = state.path.length - 1;
  if (input.answer !== undefined) {
    const stale = staleAnswer(state.asked, input.answer.id, { tool, digest: input.digest(), node, depth }, input.now);
    if (stale !== undefined) return refuse(`${stale} Nothing was sent: call ${tool} again to ask the user again.`);
    if (input.answer.yes) return forward('yes');
    return refuse(`The user did not allow ${tool}: nothing was sent. Tell them, and ask what they want instead.`, { confirmation: 'no' });
  }
  if (input.canAsk) {
    const id = input.newId();
    const asked = { id, tool, digest: input.digest(), node, depth, policy: guard.policy, at: input.now };
    return { decision: { kind: 'ask', rule: 'confirmation', policy: guard.policy, id }, state: { ...state, asked } };
  }
  const passes = state.passes ?? [];
  const pass = passes.find((p) => guard.steps.includes(p.node) && p.depth < state.path.length && state.path[p.depth] === p.node);
  if (pass !== undefined) {
    const rest = passes.filter((p) => p !== pass);
    const { passes: _used, ...others } = withoutQuestion(state);
    return forward('step', rest.length === 0 ? others : { ...others, passes: rest });
  }
  const steps = guard.steps;
  return refuse(
    `${tool} needs the user's explicit yes (policy ${guard.policy}), and this client cannot be asked directly (it does not support ` +
      `elicitation). Ask the user to confirm exactly this call; the confirmation step of the procedure (${listed(steps)}) then allows ` +
      `one call each time the run enters it.${steps.includes(node) ? ` It was already used in this visit of ${node}.` : ''}`,
    { valid_next: legalTargets(rules.sop.transitions, state.path, state.visits, state.forks) },
  );
}

/** How long the user's answer to a question is good for: as long as the MCP SDK waits for one. */
export const QUESTION_LIFETIME_MS = 10 * 60_000;

/**
 * Why an answer cannot be taken for this call, if it cannot: it must name the run's open question (its request state
 * came back unchanged, and was not used already), be about exactly this call where the run stands, and come in time.
 */
function staleAnswer(
  asked: PendingConfirmation | undefined,
  id: string,
  call: Pick<PendingConfirmation, 'tool' | 'digest' | 'node' | 'depth'>,
  now: number,
): string | undefined {
  if (asked === undefined) return 'This answer is for no open question of this run: it was used already, or the run moved on since.';
  if (asked.id !== id)
    return 'This answer does not match the question the run asked (its request state was changed, or is from an earlier question).';
  if (asked.tool !== call.tool || asked.digest !== call.digest) {
    return `This answer was given about another call (${asked.tool} with the arguments the user was shown), not this one.`;
  }
  if (asked.node !== call.node || asked.depth !== call.depth) return `The run moved since the user was asked (at ${asked.node}).`;
  if (asked.at !== undefined && now - asked.at > QUESTION_LIFETIME_MS) {
    return `The question expired: it was asked ${Math.round((now - asked.at) / 60_000)} minutes ago, and an answer is good for ${QUESTION_LIFETIME_MS / 60_000}.`;
  }
  return undefined;
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
