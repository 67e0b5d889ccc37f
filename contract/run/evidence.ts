/**
 * Evidence: what a run has proved by domain calls that found something, as opposed to what the agent declared by
 * moving. Gateway mode (and `sop replay` of a conversation whose calls it sees) keeps it on the run; `run-step.ts`
 * decides with it.
 *
 *   - **What counts.** A call that found something (`call-results.ts`: not an error, not an empty answer, and what
 *     its requirements' `shows` ask of the answer). Its record says which tool, where it was made, the entity it was
 *     about (`order_id` and its value: the call's argument of that name, else the value its answer names), and the
 *     answer's fields that the SOP's conditions read.
 *   - **How long.** For the rest of the run: real agents read first and decide after (the order read while answering
 *     a question, cancelled three steps later), and the user found at AUTH stays found for the next request. A newer
 *     answer of the same tool about the same entity replaces the older one. A requirement with `fresh` asks for a
 *     call made during the visit instead.
 *   - **What it allows.** Going on from a node that requires evidence (to a successor not already on the path;
 *     going back, restarting and escalating never need it). And the entities a change may name: a change (a tool a
 *     policy guards) naming `order_id` B when the run read only order A is refused; reading order A never allows
 *     changing order B. An entity no record is about yet binds nothing.
 *
 * Pure and browser-safe.
 */
import { entityInAnswer, type ReadAnswer, scalarAt } from './call-results.js';
import type { CompiledSop, ConditionValue, EvidenceRequirement } from '../compiled-sop.js';
import { entryOf } from '../name-table.js';
import { conditionHolds } from './conditions.js';
import type { EvidenceRecord } from './state.js';
import { fieldKey, type RunRules } from './rules.js';
import type { TransitionTable } from '../transitions.js';

/** At most this many records per run: past it the oldest goes (the run may have to read it again, never the other way). */
export const MAX_EVIDENCE_RECORDS = 256;

/** A node's requirement, own entries only (a node id such as `constructor` must not read `Object.prototype`). */
export function requirementOf(sop: Pick<CompiledSop, 'evidence'>, node: string): EvidenceRequirement | undefined {
  return entryOf(sop.evidence, node);
}

/** Whether moving to `target` goes on from the current node: a successor of it that is not already on the path. */
export function goesOn(table: TransitionTable, path: readonly string[], target: string): boolean {
  const current = path.at(-1);
  if (current === undefined || target === table.entry || path.includes(target)) return false;
  return Object.hasOwn(table.successors, current) && (table.successors[current] ?? []).includes(target);
}

/** Whether the records meet a node's requirement: a call of one of its tools, during the visit when it is `fresh`. */
export function requirementMet(
  requirement: EvidenceRequirement,
  node: string,
  path: readonly string[],
  records: readonly EvidenceRecord[],
): boolean {
  const depth = path.length - 1;
  return records.some(
    (record) => requirement.tools.includes(record.tool) && (requirement.fresh !== true || (record.node === node && record.depth === depth)),
  );
}

/** The current node's requirement that a move to `target` would leave unmet, or undefined when none is. */
export function unmetEvidence(
  rules: Pick<RunRules, 'sop' | 'requirements'>,
  path: readonly string[],
  target: string,
  records: readonly EvidenceRecord[],
): { readonly node: string; readonly requirement: EvidenceRequirement } | undefined {
  const node = path.at(-1);
  if (node === undefined || !goesOn(rules.sop.transitions, path, target)) return undefined;
  const requirement = rules.requirements.get(node);
  if (requirement === undefined || requirementMet(requirement, node, path, records)) return undefined;
  return { node, requirement };
}

/**
 * The record a call that answered `answer` adds, or undefined when it adds none: the tool's answers are not read by
 * any requirement or condition, or it found nothing (an error, an empty answer, or one that does not show what its
 * requirements' `shows` ask). `path` is the run's path when the call was made. An unseen answer (a transcript that keeps
 * none) counts as found, about the entity its arguments name, with no data.
 */
export function evidenceRecordOf(
  rules: RunRules,
  path: readonly string[],
  tool: string,
  args: unknown,
  answer: ReadAnswer | { readonly kind: 'unseen' },
): EvidenceRecord | undefined {
  const node = path.at(-1);
  if (node === undefined || (answer.kind !== 'found' && answer.kind !== 'unseen') || !rules.evidenceTools.has(tool)) return undefined;
  const found = answer.kind === 'found' ? answer.value : undefined;
  if (answer.kind === 'found') for (const condition of rules.shows.get(tool) ?? []) if (!conditionHolds(condition, found)) return undefined;
  const name = rules.entityOf.get(tool);
  const value =
    name === undefined ? undefined : (entityValue(args, name) ?? (answer.kind === 'found' ? entityInAnswer(found, name) : undefined));
  const data: (readonly [string, ConditionValue])[] = [];
  if (answer.kind === 'found') {
    for (const field of rules.fieldsRead.get(tool) ?? []) {
      const read = scalarAt(found, field);
      if (read !== undefined) data.push([fieldKey(field), read]);
    }
  }
  return {
    node,
    depth: path.length - 1,
    tool,
    ...(name === undefined || value === undefined ? {} : { about: { name, value } }),
    ...(data.length === 0 ? {} : { data }),
  };
}

/** The records with `record` added: it replaces an earlier answer of the same tool about the same entity. */
export function withRecord(records: readonly EvidenceRecord[], record: EvidenceRecord): readonly EvidenceRecord[] {
  const kept = records.filter((other) => other.tool !== record.tool || other.about?.value !== record.about?.value);
  kept.push(record);
  return kept.length > MAX_EVIDENCE_RECORDS ? kept.slice(kept.length - MAX_EVIDENCE_RECORDS) : kept;
}

/** The value a call gave an entity argument, as text (strings and finite numbers only), or undefined. */
export function entityValue(args: unknown, name: string): string | undefined {
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, name)) return undefined;
  const value = (args as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** The entities a call names: every entity name of the SOP it gives a value. */
export function entitiesNamed(rules: RunRules, args: unknown): { readonly name: string; readonly value: string }[] {
  return rules.entityNames.flatMap((name) => {
    const value = entityValue(args, name);
    return value === undefined ? [] : [{ name, value }];
  });
}

/**
 * An entity a change names with a value no evidence is about, or undefined. A call at a node whose own requirement is
 * about that entity gathers evidence and is never refused for it; an entity no record is about yet binds nothing; a
 * read (a tool no policy guards) is never refused for it.
 */
export function unprovenEntity(
  rules: RunRules,
  node: string,
  tool: string,
  args: unknown,
  records: readonly EvidenceRecord[],
): { readonly name: string; readonly value: string; readonly proven: readonly string[] } | undefined {
  if (!rules.changes.has(tool)) return undefined;
  const gathering = rules.requirements.get(node)?.about ?? null;
  for (const { name, value } of entitiesNamed(rules, args)) {
    if (name === gathering) continue;
    const proven = [...new Set(records.flatMap((record) => (record.about?.name === name ? [record.about.value] : [])))];
    if (proven.length > 0 && !proven.includes(value)) return { name, value, proven };
  }
  return undefined;
}
