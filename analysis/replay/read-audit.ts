/**
 * Reads a run's audit log, as `sop runs show RUN --format json` prints it (`{store, run, audit}`), into a
 * `Conversation`. An audit log holds the calls the SOP server answered (load_graph, goto_node, todo, inspect) with
 * their outcome, never what the user and the agent said. A gateway's (`sop serve --gateway`) also holds the domain
 * calls, each with what decided it: a call the gateway sent on is one event (its answer's entry; a forwarding that
 * no answer follows is a call whose outcome is unknown), a call it refused is one event that failed, and a
 * question put to the user is no call (the answer's entry says how it went: `confirmed`). Each domain call keeps
 * what it answered (`result`: the answered entry's, or a refused or failed call's error); a forwarding left
 * unanswered has none. Without domain entries a replay checks the moves, the visit limits and the terminal, and
 * says what it could not check.
 */
import type { RecordedResult } from '../../contract/run/call-results.js';
import type { Conversation, ConversationEvent } from './conversation.js';

export type AuditRead = { readonly ok: true; readonly conversation: Conversation } | { readonly ok: false; readonly error: string };

export function readAudit(value: { readonly run: unknown; readonly audit: unknown }): AuditRead {
  const run = value.run as Record<string, unknown> | null;
  if (run === null || typeof run !== 'object' || typeof run.agent !== 'string' || typeof run.sourceHash !== 'string') {
    return { ok: false, error: '`run` is not a run of `sop runs show --format json` (it needs agent and sourceHash)' };
  }
  if (!Array.isArray(value.audit)) return { ok: false, error: '`audit` is not a list of audit entries' };
  const events: ConversationEvent[] = [];
  let domainCalls = false;
  const entries = value.audit as unknown[];
  for (const [index, entry] of entries.entries()) {
    const e = entry as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || typeof e.seq !== 'number' || typeof e.tool !== 'string' || typeof e.outcome !== 'string') {
      return { ok: false, error: `audit entry ${index} is not an audit entry (it needs seq, tool and outcome)` };
    }
    const input = e.input;
    const args = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
    const detail = domainDetail(e.detail);
    // A run a gateway served sees its domain calls, even when it made none.
    if (isGatewayStart(e.detail)) domainCalls = true;
    if (detail !== undefined) {
      domainCalls = true;
      // A question to the user is no call; a forwarding is the call only when no answer of it follows (a crash).
      if (detail.phase === 'decided' && e.outcome === 'pending') continue;
      if (detail.phase === 'forwarding' && answeredLater(entries, index, e.tool)) continue;
    }
    const failed = detail !== undefined && e.outcome !== 'ok' && !(detail.phase === 'forwarding');
    const result = detail === undefined ? undefined : answerOf(detail, failed, e.error);
    events.push({
      kind: 'call',
      tool: e.tool,
      args: args === null ? null : withoutRunId(args, detail !== undefined),
      ...(args === null ? { argsProblem: 'the recorded input is not an object' } : {}),
      ...(e.tool === 'goto_node' ? { recorded: { valid: e.outcome === 'ok' } } : {}),
      ...(failed ? { failed: true as const } : {}),
      ...(result === undefined ? {} : { result }),
      // Sent, and no answer recorded (the gateway stopped), or answered that it may have reached the server.
      ...(detail !== undefined && (detail.phase === 'forwarding' || e.outcome === 'unknown') ? { unknown: true as const } : {}),
      ...(detail?.confirmation === 'yes' || detail?.confirmation === 'step' || detail?.confirmation === 'no'
        ? { confirmed: detail.confirmation }
        : {}),
      place: { seq: e.seq },
    });
  }
  return {
    ok: true,
    conversation: {
      format: 'audit',
      events,
      run: { runId: typeof run.runId === 'string' ? run.runId : '', agent: run.agent, sourceHash: run.sourceHash },
      ...(domainCalls ? { domainCalls: true as const } : {}),
    },
  };
}

interface DomainDetail {
  readonly phase: string;
  readonly confirmation?: string;
  readonly result?: RecordedResult;
}

/** The detail of a domain call's entry (gateway mode), or undefined for the toolkit's own calls. */
function domainDetail(value: unknown): DomainDetail | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const detail = value as Record<string, unknown>;
  if (detail.kind !== 'domain' || typeof detail.phase !== 'string') return undefined;
  const result = recordedResult(detail.result);
  return {
    phase: detail.phase,
    ...(typeof detail.confirmation === 'string' ? { confirmation: detail.confirmation } : {}),
    ...(result === undefined ? {} : { result }),
  };
}

/**
 * What a domain call answered: an answered entry's `result` (the server's structured content and text); a refused
 * or failed call's error; nothing for a forwarding that no answer follows (its outcome is unknown).
 */
function answerOf(detail: DomainDetail, failed: boolean, error: unknown): RecordedResult | undefined {
  const answered = detail.phase === 'answered' ? detail.result : undefined;
  if (answered !== undefined) return failed && answered.isError !== true ? { ...answered, isError: true } : answered;
  if (!failed) return undefined;
  return typeof error === 'string' ? { text: error, isError: true } : { isError: true };
}

/** A recorded result as the audit keeps it, read from JSON: only its known fields, each of its type. */
function recordedResult(value: unknown): RecordedResult | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { structured, text, isError } = value as Record<string, unknown>;
  return {
    ...(structured === undefined ? {} : { structured }),
    ...(typeof text === 'string' ? { text } : {}),
    ...(isError === true ? { isError: true as const } : {}),
  };
}

/** Whether an entry after `index` answers the domain call forwarded there (the next domain entry of that tool). */
function answeredLater(entries: readonly unknown[], index: number, tool: string): boolean {
  for (const later of entries.slice(index + 1)) {
    const e = later as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || e.tool !== tool) continue;
    return domainDetail(e.detail)?.phase === 'answered';
  }
  return false;
}

/** A domain call's arguments without the `run_id` the gateway added to every domain tool. */
function withoutRunId(args: Record<string, unknown>, domain: boolean): Record<string, unknown> {
  if (!domain || !Object.hasOwn(args, 'run_id')) return args;
  const { run_id: _run, ...rest } = args;
  return rest;
}

function isGatewayStart(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as { kind?: unknown }).kind === 'start' &&
    (value as { gateway?: unknown }).gateway === true
  );
}
