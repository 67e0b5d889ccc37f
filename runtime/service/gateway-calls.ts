/**
 * A domain call in gateway mode, from decision to answer. At most once, and never answered before it is recorded:
 *   1. decide on the run (`tools/decide-domain-call.ts`) and commit the decision with its audit entry: a refusal
 *      (`refused`), a question to the user (`pending`, confirmation asked), or `pending` / forwarding;
 *   2. only a committed forwarding is sent to the domain server (with the run id, agent and node, and the trace
 *      context, in `_meta`); the client's own credentials never are. A read (a tool its server marks
 *      `readOnlyHint`, asking no confirmation) is decided on the run as read, sent, and recorded once, with its
 *      outcome: if the process dies first, nothing that happened goes unrecorded but a read;
 *   3. the outcome is committed as a second entry: `ok` or `error` with the server's answer, or `unknown` when
 *      the call may have reached the server and no answer came (it died, or went silent past the timeout). A
 *      process that dies between 1 and 3 leaves the forwarding entry unanswered: its outcome is unknown too.
 *      Nothing is ever retried here;
 *   4. the outcome goes to the step function (`contract/run/answer.ts`), as `sop replay` gives it a transcript's: an
 *      answer that found something is evidence for the rest of the run (with the fields its conditions read), and
 *      a change of unknown outcome unsettles what it named until that is read again. The answered entry keeps what
 *      the server answered, so a replay of the audit log judges the same facts.
 * The model gets the server's answer as it came, or an error that says which server, what happened, and whether
 * the call may have reached it.
 */
import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import { recordAnswer } from '../../contract/run/answer.js';
import type { RecordedResult } from '../../contract/run/call-results.js';
import type { PinnedAgent } from '../agents/agent-source.js';
import {
  type AuditEntry,
  type DomainCallDetail,
  pinnedVersion,
  type RunState,
  type StoredRun,
  type WouldHaveDecided,
} from '../store/run-store.js';
import { type DomainDecision, decideDomainCall } from '../tools/decide-domain-call.js';
import type { DomainTool } from '../upstream/domain-tools.js';
import { RUN_ID_PROPERTY } from '../upstream/domain-tools.js';
import type { UpstreamOutcome } from '../upstream/upstream-connection.js';
import type { CallAnswer, Caller } from './calls.js';
import type { Clock } from './limits.js';
import type { RunCommits } from './run-commits.js';
import type { CallRequest, ToolCallSpan } from './tracing.js';

export interface GatewayCallsOptions {
  /** Where the calls' decisions and outcomes are committed. */
  readonly commits: RunCommits;
  readonly clock: Clock;
  /** Observe mode: every call of a SOP tool is sent, and the audit says what enforcement would have decided. */
  readonly observe?: boolean;
}

export interface GatewayCalls {
  /** One domain call on the run `runId`, from its decision to the domain server's answer. */
  call(entry: DomainTool, args: unknown, runId: string, caller: Caller, request: CallRequest, span: ToolCallSpan): Promise<CallAnswer>;
}

/** Where the decision was taken, so the outcome's evidence lands on the same step (if the run is still there). */
interface Decided {
  readonly decision: DomainDecision | { readonly kind: 'unavailable'; readonly error: string };
  /** Observe mode: what enforcement would have decided of the call sent. */
  readonly would?: WouldHaveDecided;
  readonly agent?: PreparedAgent;
  readonly path: readonly string[];
  readonly sop: string;
}

export function createGatewayCalls({ commits, clock, observe }: GatewayCallsOptions): GatewayCalls {
  return { call: callDomainTool };

  async function callDomainTool(
    entry: DomainTool,
    args: unknown,
    runId: string,
    caller: Caller,
    request: CallRequest,
    span: ToolCallSpan,
  ): Promise<CallAnswer> {
    const name = entry.tool.name;
    const server = entry.upstream.spec.name;
    const forwarded = withoutRunId(args);
    const started = clock.now();
    const decideOn = (run: StoredRun, pinned: PinnedAgent) => {
      const at = run.state.path.at(-1) ?? null;
      const base = { tool: name, input: args, from: at, to: at, at: started };
      if (!pinned.ok) {
        const decision = { kind: 'unavailable' as const, error: pinned.error };
        return {
          state: run.state,
          audit: { ...base, outcome: 'error' as const, error: pinned.error },
          value: { decision, path: run.state.path, sop: pinnedVersion(run) },
        };
      }
      const enforced = decideDomainCall(pinned.agent, run.state, name, forwarded, {
        canAsk: request.canAsk === true,
        answer: request.answer,
        newId: () => `q_${randomBytes(16).toString('base64url')}`,
        now: started,
      });
      // Observe mode sends what enforcement would hold back (or ask about) and keeps what it would have decided.
      const observed =
        observe === true && enforced.kind !== 'forward' && !(enforced.kind === 'refuse' && enforced.rule === 'not-in-sop')
          ? observedAs(enforced, run.state)
          : undefined;
      const decision = observed?.decision ?? enforced;
      const detail = (phase: DomainCallDetail['phase']): DomainCallDetail => ({
        kind: 'domain',
        server,
        rule: decision.rule,
        ...('policy' in decision && decision.policy !== undefined ? { policy: decision.policy } : {}),
        sop: pinnedVersion(run),
        phase,
        ...(decision.kind === 'ask' ? { confirmation: 'asked' as const } : {}),
        ...(decision.kind !== 'ask' && auditedYes(decision.confirmation) !== undefined
          ? { confirmation: auditedYes(decision.confirmation) }
          : {}),
      });
      const would = observed === undefined ? {} : { would: observed.would };
      const audit: Omit<AuditEntry, 'seq' | 'durationMs'> =
        decision.kind === 'refuse'
          ? { ...base, outcome: 'refused', error: decision.refusal.error, detail: detail('decided') }
          : decision.kind === 'ask'
            ? { ...base, outcome: 'pending', detail: detail('decided') }
            : entry.unavailable !== undefined
              ? { ...base, outcome: 'error', error: entry.unavailable, detail: { ...detail('decided'), ...would } }
              : { ...base, outcome: 'pending', detail: { ...detail('forwarding'), ...would } };
      return {
        state: decision.state,
        audit,
        value: {
          decision,
          agent: pinned.agent,
          path: run.state.path,
          sop: pinnedVersion(run),
          ...(observed === undefined ? {} : { would: observed.would }),
        } as Decided,
      };
    };
    // A read that is forwarded is recorded once, with its outcome; everything else is recorded before it is sent.
    const readOnly = entry.tool.annotations?.readOnlyHint === true;
    let decided: { readonly value: Decided; readonly recorded: boolean } | { readonly error: CallToolResult };
    const peeked = readOnly ? await commits.peek(runId, caller, name) : undefined;
    if (peeked !== undefined && !('error' in peeked)) {
      const first = decideOn(peeked.run, peeked.pinned);
      const forwardsAsIs = first.value.decision.kind === 'forward' && first.state === peeked.run.state;
      decided = forwardsAsIs
        ? { value: first.value, recorded: false }
        : await commits
            .commit<Decided>(runId, caller, name, span, decideOn)
            .then((d) => ('error' in d ? d : { value: d.value, recorded: true }));
    } else if (peeked !== undefined && 'error' in peeked) {
      decided = peeked;
    } else {
      decided = await commits
        .commit<Decided>(runId, caller, name, span, decideOn)
        .then((d) => ('error' in d ? d : { value: d.value, recorded: true }));
    }
    if ('error' in decided) return decided.error;
    const { decision, agent, path, sop } = decided.value;
    if (decision.kind === 'unavailable') return errorResult({ error: decision.error });
    if (decision.kind === 'refuse') return errorResult({ ...decision.refusal });
    if (decision.kind === 'ask') return { question: decision.question };
    if (entry.unavailable !== undefined) return errorResult({ error: entry.unavailable });
    const would = decided.value.would;

    const meta: Record<string, unknown> = {
      'sop-toolkit/run_id': runId,
      'sop-toolkit/agent': agent?.name ?? '',
      'sop-toolkit/node': path.at(-1) ?? '',
      ...span.traceContext(),
    };
    const outcome = await entry.upstream.call(name, forwarded, meta);
    const result = outcome.kind === 'answered' ? recordedResult(outcome.result) : undefined;
    const recorded = await commits.commit(runId, caller, name, span, (run) => {
      // Where the call was decided (and made), even if the run moved meanwhile on another instance.
      const at = path.at(-1) ?? null;
      const state =
        agent === undefined || (outcome.kind === 'failed' && outcome.reached !== 'maybe')
          ? run.state
          : recordAnswer(
              agent.rules,
              run.state,
              name,
              forwarded,
              path,
              result === undefined ? { kind: 'unknown' } : { kind: 'answered', result },
            ).state;
      const confirmation = auditedYes(decision.confirmation);
      const detail: DomainCallDetail = {
        kind: 'domain',
        server,
        rule: decision.rule,
        ...(decision.policy === undefined ? {} : { policy: decision.policy }),
        sop,
        phase: 'answered',
        ...(decided.recorded ? {} : { read: true }),
        ...(confirmation === undefined ? {} : { confirmation }),
        upstreamMs: outcome.ms,
        ...(outcome.kind === 'failed' ? { reached: outcome.reached } : {}),
        ...(result === undefined ? {} : { result }),
        ...(would === undefined ? {} : { would }),
      };
      const audit: Omit<AuditEntry, 'seq' | 'durationMs'> = {
        tool: name,
        input: args,
        outcome: outcomeOf(outcome),
        from: at,
        to: at,
        ...(outcome.kind === 'failed'
          ? { error: failureText(server, name, outcome) }
          : outcome.result.isError === true
            ? { error: resultText(outcome.result) }
            : {}),
        at: started,
        detail,
      };
      return { state, audit, value: undefined };
    });
    if ('error' in recorded) {
      const happened = outcome.kind === 'answered' ? 'carried out by' : 'sent to';
      return errorResult({
        error: `${name} was ${happened} ${server}, but recording its outcome in the run failed: the run does not know it happened. ${resultText(recorded.error)}`,
      });
    }
    if (outcome.kind === 'answered') return outcome.result;
    return errorResult({ error: failureText(server, name, outcome), server, reached: outcome.reached });
  }
}

/** The arguments as the domain server gets them: the gateway's own `run_id` taken out. */
function withoutRunId(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return {};
  const { [RUN_ID_PROPERTY]: _run, ...rest } = args as Record<string, unknown>;
  return rest;
}

/**
 * Observe mode: a call enforcement would hold back, or ask the user about, is sent as one it allowed: the rule it
 * would have refused by (or the confirmation it would have asked for) is kept for the audit. The run's state is the
 * one it had (no question pending, no confirmation pass spent): the answer's evidence is recorded as for any call.
 */
function observedAs(enforced: DomainDecision, state: RunState): { readonly decision: DomainDecision; readonly would: WouldHaveDecided } {
  const { asked: _none, ...rest } = state;
  const plain: RunState = state.asked === undefined ? state : rest;
  const would: WouldHaveDecided =
    enforced.kind === 'ask'
      ? { decision: 'ask', rule: 'confirmation', reason: enforced.question.message, policy: enforced.policy }
      : enforced.kind === 'refuse'
        ? {
            decision: 'refuse',
            rule: enforced.rule,
            reason: enforced.refusal.error,
            ...(enforced.policy === undefined ? {} : { policy: enforced.policy }),
          }
        : { decision: 'refuse', rule: enforced.rule, reason: '' };
  return { decision: { kind: 'forward', rule: enforced.rule, state: plain }, would };
}

/**
 * What the server answered, as the run and its audit keep it: the structured content, or else the text parts joined.
 * Not both: a server that returns structured content sends its JSON as text too (the MCP spec asks it to), and the
 * rules read the structured content first; keeping the copy would double what every audit entry holds.
 */
function recordedResult(result: CallToolResult): RecordedResult {
  const flag = result.isError === true ? { isError: true as const } : {};
  if (result.structuredContent !== undefined) return { structured: result.structuredContent, ...flag };
  const texts = (result.content ?? []).filter((part): part is { type: 'text'; text: string } => part.type === 'text');
  return { ...(texts.length === 0 ? {} : { text: texts.map((part) => part.text).join('\n') }), ...flag };
}

/** How the user's yes came, as the audit says it (the gateway's yes is asked, or the confirmation step's). */
function auditedYes(confirmation: 'yes' | 'step' | 'observed' | 'no' | undefined): 'yes' | 'step' | 'no' | undefined {
  return confirmation === 'observed' ? undefined : confirmation;
}

function outcomeOf(outcome: UpstreamOutcome): AuditEntry['outcome'] {
  if (outcome.kind === 'answered') return outcome.result.isError === true ? 'error' : 'ok';
  return outcome.reached === 'maybe' ? 'unknown' : 'error';
}

function failureText(server: string, tool: string, outcome: Extract<UpstreamOutcome, { kind: 'failed' }>): string {
  const consequence =
    outcome.reached === 'no'
      ? 'The call did not reach it: nothing was done. Try again later, or tell the user the service is unavailable.'
      : outcome.reached === 'maybe'
        ? `The call may have reached it, and whether it took effect is unknown: do not call ${tool} again before checking (read what it would have changed).`
        : 'It refused the call.';
  return `The domain server ${server} could not answer ${tool}: ${outcome.reason}. ${consequence}`;
}

function resultText(result: CallToolResult): string {
  const text = (result.content ?? [])
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join(' ');
  return text.slice(0, 500);
}

/** A refusal or failure as the model reads it: JSON text, `isError` (no structured content: the domain tool's output schema is not ours to fill). */
function errorResult(answer: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], isError: true };
}
