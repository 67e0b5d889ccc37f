/**
 * Whether a domain call may go to its server (gateway mode): the step function's decision (`contract/run/call.ts`,
 * the same `sop replay` asks), with what only the gateway has around it: the client's channel (whether the user can
 * be asked now, the answer this call brings back), the call's digest, a fresh random id for a new question, and the
 * question itself, worded for the user. Pure but for the id, which the caller makes. The session service commits the
 * decision to the audit log before anything reaches the domain server (`service/gateway-calls.ts`).
 */
import { type CallDecision, decideCall } from '../../contract/run/call.js';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import type { RunState } from '../store/run-store.js';
import { callDigest, type ConfirmationQuestion, confirmationQuestion } from './confirmation.js';

export interface DomainCallContext {
  /** Whether the user can be asked during this call (the client declared elicitation, on a channel that carries it). */
  readonly canAsk: boolean;
  /** The user's answer this call brings back: the question's id (the request state) and yes or no. */
  readonly answer?: { readonly id: string; readonly yes: boolean } | undefined;
  /** A fresh random id for a new question. */
  newId(): string;
  /** The time now (ms): when a question is asked, and whether an answer came in time. */
  readonly now: number;
}

/** The step function's decision, a question worded for the user when it asks one, and the run's next state. */
export type DomainDecision =
  | (Exclude<CallDecision, { readonly kind: 'ask' }> & { readonly state: RunState })
  | (Extract<CallDecision, { readonly kind: 'ask' }> & { readonly question: ConfirmationQuestion; readonly state: RunState });

export function decideDomainCall(
  agent: PreparedAgent,
  state: RunState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  context: DomainCallContext,
): DomainDecision {
  const { decision, state: next } = decideCall(agent.rules, state, tool, args, {
    kind: 'client',
    digest: () => callDigest(tool, args),
    canAsk: context.canAsk,
    answer: context.answer,
    newId: () => context.newId(),
    now: context.now,
  });
  if (decision.kind !== 'ask') return { ...decision, state: next };
  const node = state.path.at(-1) ?? '';
  return { ...decision, question: confirmationQuestion(decision.id, agent.name, node, tool, args), state: next };
}
