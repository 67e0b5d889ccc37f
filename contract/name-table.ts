/**
 * Names are data. A table keyed by names an author chose (node ids, tool names, policy ids, agent names, YAML keys)
 * is a `Map`, or, where the shape must stay a plain JSON object (the `CompiledSop` tables, YAML maps), a record that
 * is read and written only through this module:
 *   - `entryOf` / `hasEntry` read the record's own entries, so `constructor`, `toString` or `__proto__` is a missing
 *     name like any other, never a member every object inherits;
 *   - `nameTable` builds a record without a prototype: with no `Object.prototype` above it there is no `__proto__`
 *     accessor to call, so `__proto__` is a key like any other instead of the record's prototype.
 * A record read from JSON (the bundle) or written as a literal (the generated modules) has `Object.prototype` again:
 * that is why reads go through `entryOf`, whoever built the record.
 *
 * Pure, dependency-free and browser-safe: the generated machines import the contract at run time.
 */

/** A record from names to values, as the contract's tables are. */
export interface NameRecord<V> {
  readonly [name: string]: V;
}

/** The value `table` holds for `name` itself, or undefined (also for a missing table). */
export function entryOf<V>(table: NameRecord<V | undefined> | null | undefined, name: string): V | undefined {
  return table != null && Object.hasOwn(table, name) ? table[name] : undefined;
}

/** Whether `table` holds `name` itself. */
export function hasEntry(table: object | null | undefined, name: string): boolean {
  return table != null && Object.hasOwn(table, name);
}

/** A record without a prototype holding `entries` in their order; a later entry for the same name wins. */
export function nameTable<V>(entries: Iterable<readonly [string, V]>): { [name: string]: V } {
  const table: { [name: string]: V } = Object.create(null);
  // Assignment defines an own entry here, `__proto__` included (no inherited setter); defineProperty costs 5× more.
  for (const [name, value] of entries) table[name] = value;
  return table;
}
