// Tables keyed by author names: built without a prototype, read by own entries only, whatever the names.
import { describe, expect, it } from 'vitest';
import { entryOf, hasEntry, nameTable } from '../../contract/name-table.js';
import { prototypeNames } from '../support/name-probes.js';

const NAMES = prototypeNames();

describe('nameTable', () => {
  it('keeps every name as an entry of its own, in order, `__proto__` included, with no prototype', () => {
    const table = nameTable(NAMES.map((name, i) => [name, i]));
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(Object.keys(table)).toEqual(NAMES);
    expect(Object.values(table)).toEqual(NAMES.map((_, i) => i));
    expect(JSON.parse(JSON.stringify(table))).toEqual(Object.fromEntries(NAMES.map((name, i) => [name, i])));
  });

  it('lets a later entry for a name win', () => {
    expect(
      Object.entries(
        nameTable([
          ['a', 1],
          ['b', 2],
          ['a', 3],
        ]),
      ),
    ).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });
});

describe('entryOf and hasEntry', () => {
  it('read only the entries a table holds itself, also from a table with Object.prototype (a parsed bundle)', () => {
    const parsed = JSON.parse('{"constructor": 1, "__proto__": 2}') as Record<string, number>;
    for (const name of NAMES) {
      const held = name === 'constructor' || name === '__proto__';
      expect(hasEntry(parsed, name), name).toBe(held);
      expect(entryOf(parsed, name), name).toBe(name === 'constructor' ? 1 : name === '__proto__' ? 2 : undefined);
      expect(entryOf(nameTable<number>([]), name), name).toBeUndefined();
    }
    expect(entryOf(undefined, 'x')).toBeUndefined();
    expect(hasEntry(null, 'x')).toBe(false);
  });
});
