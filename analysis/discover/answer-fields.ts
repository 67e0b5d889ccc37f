/**
 * The data each change was decided on, for the draft's `when:` conditions: while a conversation is read, each read's
 * answer about an entity (the call's scalar arguments: `order_id="#W1"`) keeps its top-level text and boolean
 * fields, and each change counts, per read tool, the values the last such answer about an entity it names showed
 * (the status of the order read before it was cancelled); successes and the others apart, so that
 * `--only-successes` counts what worked, and the entities each value was seen on (two at most), so that a value
 * one order had, however often it was cancelled, is no rule. A field that identifies an entity rather than tells
 * its state is not kept: named so (`id`, `order_id`, `orderId`, `item_ids`), or echoing a value the call named (the
 * `order_id` of `get_order_details(order_id="#W1")`). Bounded: a few fields per answer, a few values per field.
 */
import type { ReadAnswer } from '../../contract/run/call-results.js';
import type { ToolCallEvent } from '../replay/conversation.js';
import type { ToolKind } from './tool-kinds.js';

/** The fields a change followed, counted: per field, per value (as JSON), its calls and entities. */
export interface FieldsBefore {
  readonly calls: [number, number];
  readonly fields: Map<string, Map<string, ValueBefore>>;
}

/** A value a change followed: its calls [in successes, in the others], and the entities it was seen on (as many apart). */
export interface ValueBefore {
  readonly calls: [number, number];
  /** Up to ENTITIES_KEPT of each: `order_id="#W1"`. */
  readonly entities: [Set<string>, Set<string>];
}

/** Entities kept per value (and bucket): a rule's value must have been seen on two. */
export const ENTITIES_KEPT = 2;

/** One conversation's answers so far: per entity (`order_id="#W1"`), per read tool, the fields of its last answer about it. */
export type ConversationAnswers = Map<string, Map<string, ReadonlyMap<string, string>>>;

/** Fields of one answer kept, values counted per field, and a value's length, at most. */
const FIELDS_PER_ANSWER = 64;
const VALUES_PER_FIELD = 16;
const VALUE_CHARACTERS = 64;

export class AnswerFields {
  /** Per read tool, per field: up to two values seen (a field that never varies decides nothing). */
  readonly values = new Map<string, Map<string, Set<string>>>();
  /** Per change tool, per read tool: the fields the last answer of the read about the entity the change named showed. */
  readonly before = new Map<string, Map<string, FieldsBefore>>();

  /** A fresh record of one conversation's answers. */
  conversation(): ConversationAnswers {
    return new Map();
  }

  /** A read that found an object keeps its fields per entity it named; a change counts the fields it followed. */
  follow(
    tool: string,
    kind: ToolKind,
    event: ToolCallEvent,
    answer: ReadAnswer | undefined,
    answers: ConversationAnswers,
    bucket: 0 | 1,
  ): void {
    if (event.args === null) return;
    const entities = Object.entries(event.args).flatMap(([name, value]) =>
      typeof value === 'string' || typeof value === 'number' ? [`${name}=${JSON.stringify(value)}`] : [],
    );
    if (entities.length === 0) return;
    if (kind === 'read') {
      const fields = this.fieldsOf(tool, answer, event.args);
      if (fields === undefined) return;
      for (const entity of entities) {
        const byTool = answers.get(entity) ?? new Map<string, ReadonlyMap<string, string>>();
        byTool.set(tool, fields);
        answers.set(entity, byTool);
      }
      return;
    }
    const counted = new Set<string>();
    for (const entity of entities) {
      for (const [read, fields] of answers.get(entity) ?? []) {
        if (counted.has(read)) continue;
        counted.add(read);
        this.count(tool, read, fields, entity, bucket);
      }
    }
  }

  /**
   * The text and boolean fields of an answer that found an object, each noted among the values its field takes;
   * not those that identify an entity (`identifier`, or a value the call named: `args`).
   */
  private fieldsOf(
    tool: string,
    answer: ReadAnswer | undefined,
    args: Readonly<Record<string, unknown>>,
  ): ReadonlyMap<string, string> | undefined {
    if (
      answer === undefined ||
      answer.kind !== 'found' ||
      answer.value === null ||
      typeof answer.value !== 'object' ||
      Array.isArray(answer.value)
    )
      return undefined;
    const fields = new Map<string, string>();
    const seen = this.values.get(tool) ?? new Map<string, Set<string>>();
    const named = new Set(Object.values(args).flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : [])));
    for (const [field, value] of Object.entries(answer.value as Record<string, unknown>)) {
      if (fields.size >= FIELDS_PER_ANSWER) break;
      if (!(typeof value === 'boolean' || (typeof value === 'string' && value.length <= VALUE_CHARACTERS))) continue;
      if (identifier(field) || (typeof value === 'string' && named.has(value))) continue;
      const text = JSON.stringify(value);
      fields.set(field, text);
      const values = seen.get(field) ?? new Set<string>();
      if (values.size < 2) values.add(text);
      seen.set(field, values);
    }
    this.values.set(tool, seen);
    return fields;
  }

  private count(change: string, read: string, fields: ReadonlyMap<string, string>, entity: string, bucket: 0 | 1): void {
    const byRead = this.before.get(change) ?? new Map<string, FieldsBefore>();
    const stats = byRead.get(read) ?? { calls: [0, 0], fields: new Map() };
    stats.calls[bucket] += 1;
    for (const [field, value] of fields) {
      const values = stats.fields.get(field) ?? new Map<string, ValueBefore>();
      const count =
        values.get(value) ??
        (values.size < VALUES_PER_FIELD
          ? { calls: [0, 0] as [number, number], entities: [new Set<string>(), new Set<string>()] as [Set<string>, Set<string>] }
          : undefined);
      if (count === undefined) continue;
      count.calls[bucket] += 1;
      if (count.entities[bucket].size < ENTITIES_KEPT) count.entities[bucket].add(entity);
      values.set(value, count);
      stats.fields.set(field, values);
    }
    byRead.set(read, stats);
    this.before.set(change, byRead);
  }
}

/** A field named as an identifier: `id`, `order_id`, `orderId`, `item_ids`, `ID`. */
export function identifier(field: string): boolean {
  return /^(?:id|ids|ID|IDs|Id|Ids)$|[_-](?:id|ids|ID|IDs)$|[a-z0-9](?:Id|Ids|ID|IDs)$/.test(field);
}
