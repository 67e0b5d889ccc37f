/**
 * Conditions over what domain calls answered: `shows` on an answer (what counts as found), and the edges decided by
 * data (`when:`), held against the answers a run keeps as evidence.
 *
 * Exact: `==` compares the type and the value (the text `12` is not the number 12; `pending (item modified)` is not
 * `pending`), and a field an answer does not have, or that holds a list or an object, satisfies no comparison. An
 * edge's condition is about the last answer of its tool for each entity the run read (orders A and B): it holds for
 * those entities whose answer satisfies it, and the move along the edge needs at least one.
 *
 * Pure and browser-safe.
 */
import { presentAt, scalarAt } from './call-results.js';
import type { ConditionValue, DataCondition, FieldCondition } from '../compiled-sop.js';
import type { EvidenceRecord } from './state.js';
import { fieldKey } from './rules.js';

/** Whether an answer's value satisfies a condition over its fields. */
export function conditionHolds(condition: FieldCondition, value: unknown): boolean {
  if (condition.op === 'present') return presentAt(value, condition.field);
  return compares(condition, scalarAt(value, condition.field));
}

/** Whether a field's value (undefined: the answer has none) satisfies the condition. */
export function compares(condition: FieldCondition, value: ConditionValue | undefined): boolean {
  if (value === undefined) return false;
  const [first] = condition.values;
  switch (condition.op) {
    case '==':
      return value === first;
    case '!=':
      return value !== first;
    case 'in':
      return condition.values.includes(value);
    case 'not in':
      return !condition.values.includes(value);
    case '<':
      return typeof value === 'number' && typeof first === 'number' && value < first;
    case '<=':
      return typeof value === 'number' && typeof first === 'number' && value <= first;
    case '>':
      return typeof value === 'number' && typeof first === 'number' && value > first;
    case '>=':
      return typeof value === 'number' && typeof first === 'number' && value >= first;
    case 'present':
      return value !== null && value !== '';
  }
}

/** One answer a condition was held against: the entity (null when the tool's answers are about none) and the field read. */
export interface ReadValue {
  readonly entity: { readonly name: string; readonly value: string } | null;
  /** The field's value in the answer; undefined when the answer has no such field (or not a scalar there). */
  readonly value: ConditionValue | undefined;
  readonly holds: boolean;
}

/** What a data condition finds in the run's evidence: every answer of its tool it was held against, in the order read. */
export function branchData(condition: DataCondition, records: readonly EvidenceRecord[]): readonly ReadValue[] {
  const key = fieldKey(condition.field);
  const read: ReadValue[] = [];
  for (const record of records) {
    if (record.tool !== condition.tool) continue;
    const field = record.data?.find(([name]) => name === key);
    const value = field === undefined ? undefined : field[1];
    read.push({ entity: record.about ?? null, value, holds: compares(condition, value) });
  }
  return read;
}

/** A value as the SOP would write it in a condition: JSON (`"pending"`, `12`, `null`), or "no such field". */
export function shownValue(value: ConditionValue | undefined): string {
  return value === undefined ? 'no such field' : JSON.stringify(value);
}
