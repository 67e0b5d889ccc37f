/**
 * What a transcript's calls proved, position by position, as the gateway would have kept it: the step function's own
 * `recordAnswer` (`contract/run/answer.ts`) is given each call's answer in order. Evidence lasts the run, so what is
 * proved before an event does not depend on the walk the alignment chooses; only `fresh` requirements (a call during
 * the visit) do, and the search tracks those itself.
 *
 * For each position (before each event): which nodes' requirements are met, which edges decided by data hold for
 * some entity read, and the records, for the messages. For each call of a change: what the gateway's call rules that
 * read evidence would say of it (an entity the run never read; a change repeated after one of unknown outcome).
 */
import { type CallOutcome, recordAnswer } from '../../contract/run/answer.js';
import { answerKind } from '../../contract/run/call-results.js';
import { branchData } from '../../contract/run/conditions.js';
import { entitiesNamed, requirementMet, unprovenEntity } from '../../contract/run/evidence.js';
import { EMPTY_RUN_STATE, type EvidenceRecord, type RunState } from '../../contract/run/state.js';
import type { ConversationEvent, ToolCallEvent } from '../replay/conversation.js';
import type { AlignModel } from './align-model.js';

/** What was proved before one position of the trace. */
export interface PositionFacts {
  /** Per node: 1 when its requirement (not `fresh`) is met by the calls before. */
  readonly met: Uint8Array;
  /** Per condition of the model (`model.conditions`): 1 when it holds for some entity read before. */
  readonly holds: Uint8Array;
  /** Per tool of the model: 1 when a call of it found something before (a read made earlier counts for a later step). */
  readonly read: Uint8Array;
  readonly records: readonly EvidenceRecord[];
}

/** What the gateway's evidence rules say of one call of a change, before it was made. */
export interface CallFacts {
  /** An entity it names that the run never read (others were): the values read. */
  readonly unproven?: { readonly name: string; readonly value: string; readonly proven: readonly string[] };
  /** A change it repeats after one of unknown outcome, with nothing read between. */
  readonly unsettled?: string;
}

export interface TraceFacts {
  /** Whether the transcript shows what the calls answered (else data conditions cannot be judged). */
  readonly answers: boolean;
  /** Facts before trace position `position` (0 … trace length). */
  at(position: number): PositionFacts;
  /** For each trace position that is a call, what the evidence rules say of it (absent: nothing). */
  call(position: number): CallFacts | undefined;
  /** Whether the call at this trace position found something (for the nodes it passes). */
  found(position: number): boolean;
}

/** Text of an error answer that says the call may have reached the server and no answer came. */
const UNKNOWN_OUTCOME =
  /\b(timed? ?out|time-?out|may have reached|outcome is unknown|whether it took effect is unknown|connection (was )?(lost|closed|reset))\b/i;

/**
 * The facts of a trace: `calls` lists, per trace position, the call's event (or undefined for a move or a reset, or
 * 'reset' for a fresh run).
 */
export function traceFacts(model: AlignModel, events: readonly (ToolCallEvent | 'reset' | undefined)[]): TraceFacts {
  const rules = model.rules;
  const rows: PositionFacts[] = [];
  const calls = new Map<number, CallFacts>();
  const found: boolean[] = [];
  const answers = events.some((event) => typeof event === 'object' && (event.result !== undefined || event.failed === true));
  let state: RunState = EMPTY_RUN_STATE;
  let read = new Uint8Array(model.tools.length);
  let row = factsOf(model, state, read);
  for (const [position, event] of events.entries()) {
    rows.push(row);
    found.push(false);
    if (event === 'reset') {
      state = EMPTY_RUN_STATE;
      read = new Uint8Array(model.tools.length);
      row = factsOf(model, state, read);
      continue;
    }
    if (event === undefined) continue;
    const facts = callFacts(model, state, event);
    if (facts !== undefined) calls.set(position, facts);
    const outcome = outcomeOf(event);
    const { recorded, state: next } = recordAnswer(rules, state, event.tool, event.args, ANYWHERE, outcome);
    found[position] = recorded.found === 'found';
    const tool = model.toolIndex.get(event.tool);
    const newlyRead = found[position] && tool !== undefined && read[tool] !== 1;
    if (newlyRead) {
      read = Uint8Array.from(read);
      read[tool] = 1;
    }
    if (next.evidence !== state.evidence || newlyRead) row = factsOf(model, next, read);
    state = next;
  }
  rows.push(row);
  return {
    answers,
    at: (position) => rows[Math.min(position, rows.length - 1)]!,
    call: (position) => calls.get(position),
    found: (position) => found[position] === true,
  };
}

/** The path a transcript's call is recorded at: evidence lasts the run, so where does not matter here. */
const ANYWHERE: readonly string[] = Object.freeze(['']);

/** How a call came out, as its event shows it. */
export function outcomeOf(event: ToolCallEvent): CallOutcome {
  if (event.unknown === true) return { kind: 'unknown' };
  if (event.result === undefined) {
    if (event.failed !== true) return { kind: 'unseen' };
    return { kind: 'answered', result: { isError: true } };
  }
  const result = event.failed === true && event.result.isError !== true ? { ...event.result, isError: true as const } : event.result;
  // An error that says the call may have reached the server (logs without an error flag keep it as `{"error": …}`).
  // Only an error's text is searched: most answers are not errors, and theirs can be long.
  if (answerKind(result) !== 'error') return { kind: 'answered', result };
  const text = event.result.text ?? JSON.stringify(event.result.structured) ?? '';
  return UNKNOWN_OUTCOME.test(text) ? { kind: 'unknown' } : { kind: 'answered', result };
}

function callFacts(model: AlignModel, state: RunState, event: ToolCallEvent): CallFacts | undefined {
  const rules = model.rules;
  if (!rules.changes.has(event.tool)) return undefined;
  const records = state.evidence ?? [];
  const unproven = unprovenEntity(rules, '', event.tool, event.args, records);
  const named = entitiesNamed(rules, event.args);
  const unsettled = (state.unsettled ?? []).find((entry) =>
    entry.entity === undefined
      ? entry.tool === event.tool
      : named.some((entity) => entity.name === entry.entity!.name && entity.value === entry.entity!.value),
  );
  if (unproven === undefined && unsettled === undefined) return undefined;
  return {
    ...(unproven === undefined ? {} : { unproven }),
    ...(unsettled === undefined
      ? {}
      : {
          unsettled: unsettled.entity === undefined ? unsettled.tool : `${unsettled.entity.name} ${JSON.stringify(unsettled.entity.value)}`,
        }),
  };
}

function factsOf(model: AlignModel, state: RunState, read: Uint8Array): PositionFacts {
  const records = state.evidence ?? [];
  const met = new Uint8Array(model.nodes.length);
  for (const [node, requirement] of model.rules.requirements) {
    const index = model.nodeIndex.get(node);
    if (index !== undefined && requirement.fresh !== true && requirementMet(requirement, node, [node], records)) met[index] = 1;
  }
  const holds = new Uint8Array(model.conditions.length);
  for (const [c, edge] of model.conditions.entries()) {
    if (branchData(edge.condition, records).some((value) => value.holds)) holds[c] = 1;
  }
  return { met, holds, read, records };
}

/** The events of a trace, as `traceFacts` reads them. */
export function traceEvents(
  events: readonly ConversationEvent[],
  trace: readonly { readonly kind: string; readonly index: number }[],
): (ToolCallEvent | 'reset' | undefined)[] {
  return trace.map((entry) =>
    entry.kind === 'reset' ? 'reset' : entry.kind === 'call' ? (events[entry.index] as ToolCallEvent) : undefined,
  );
}
