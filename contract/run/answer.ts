/**
 * What a domain call's outcome does to a run: the gateway records it once the server answered (or failed to), and a
 * replay once the conversation shows the answer.
 *   - An answer that found something adds evidence (`evidence.ts`): for the rest of the run, about the entity it
 *     named, with the fields the SOP's conditions read. An error or an empty answer adds nothing.
 *   - A read that found an entity settles it: a change of it whose outcome was unknown may be made again.
 *   - A change whose outcome is unknown (it timed out, or the server died after it may have received it) unsettles
 *     what it named: that entity (or, naming none, that tool) may not be changed again until it is read again. A change
 *     that succeeded keeps the evidence: agents change an order's address, then its payment, without reading between.
 *
 * Pure and browser-safe.
 */
import { answerKind, entityInAnswer, type ReadAnswer, readAnswer, type RecordedResult } from './call-results.js';
import { entitiesNamed, evidenceRecordOf, withRecord } from './evidence.js';
import type { RunRules } from './rules.js';
import type { EvidenceRecord, RunState, Unsettled } from './state.js';

/**
 * How a forwarded call came out: answered (its result says whether it failed); unknown (it may have reached the
 * server, and no answer came); or unseen (a transcript that shows the call happened and keeps no answers: it counts as
 * found, by its arguments, with no data).
 */
export type CallOutcome =
  | { readonly kind: 'answered'; readonly result: RecordedResult }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'unseen' };

export interface AnswerRecorded {
  /** What the answer told: found something, found nothing, an error, or unknown. */
  readonly found: ReadAnswer['kind'] | 'unknown';
  /** The evidence it added, if any. */
  readonly record?: EvidenceRecord;
}

/**
 * The state after a call's outcome. `at` is the run's path when the call was decided (the node it was made at, even
 * if the run moved meanwhile on another instance).
 */
export function recordAnswer(
  rules: RunRules,
  state: RunState,
  tool: string,
  args: unknown,
  at: readonly string[],
  outcome: CallOutcome,
): { readonly recorded: AnswerRecorded; readonly state: RunState } {
  if (outcome.kind === 'unknown') {
    if (!rules.changes.has(tool)) return { recorded: { found: 'unknown' }, state };
    const named = entitiesNamed(rules, args);
    const added: Unsettled[] = named.length === 0 ? [{ tool }] : named.map((entity) => ({ tool, entity }));
    const kept = (state.unsettled ?? []).filter((entry) => !added.some((other) => sameUnsettled(entry, other)));
    return { recorded: { found: 'unknown' }, state: { ...state, unsettled: [...kept, ...added] } };
  }
  // Only an answer kept as evidence, or one that may settle a change, is read whole: the others only found or not.
  const settles = (state.unsettled?.length ?? 0) > 0 && !rules.changes.has(tool);
  if (outcome.kind === 'answered' && !rules.evidenceTools.has(tool) && !settles) {
    return { recorded: { found: answerKind(outcome.result) }, state };
  }
  const answer: ReadAnswer | { readonly kind: 'unseen' } = outcome.kind === 'unseen' ? outcome : readAnswer(outcome.result);
  let next = state;
  const record = evidenceRecordOf(rules, at, tool, args, answer);
  if (record !== undefined) next = { ...next, evidence: withRecord(next.evidence ?? [], record) };
  if (answer.kind === 'found' && !rules.changes.has(tool) && (next.unsettled?.length ?? 0) > 0) {
    next = settled(rules, next, args, answer.value);
  }
  return {
    recorded: { found: answer.kind === 'unseen' ? 'found' : answer.kind, ...(record === undefined ? {} : { record }) },
    state: next,
  };
}

/** A read that found something settles the entities it named or found; a read naming none settles the changes that named none. */
function settled(rules: RunRules, state: RunState, args: unknown, value: unknown): RunState {
  const named = entitiesNamed(rules, args);
  for (const name of rules.entityNames) {
    const found = entityInAnswer(value, name);
    if (found !== undefined && !named.some((entity) => entity.name === name && entity.value === found)) named.push({ name, value: found });
  }
  const left = (state.unsettled ?? []).filter((entry) =>
    entry.entity === undefined
      ? named.length > 0
      : !named.some((entity) => entity.name === entry.entity!.name && entity.value === entry.entity!.value),
  );
  if (left.length === (state.unsettled ?? []).length) return state;
  const { unsettled: _before, ...rest } = state;
  return left.length === 0 ? rest : { ...rest, unsettled: left };
}

function sameUnsettled(a: Unsettled, b: Unsettled): boolean {
  return a.tool === b.tool && a.entity?.name === b.entity?.name && a.entity?.value === b.entity?.value;
}
