/** "Did you mean": the right suggestions, and bounded work however many or however long the names are. */
import { describe, expect, it } from 'vitest';
import { boundedDistance, suggester } from '../../../generator/diagnostics/closest-match.js';

/** Optimal string alignment distance, computed in full: the reference for the banded version. */
function fullDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('boundedDistance', () => {
  it('equals the full distance when within the bound, and bound + 1 beyond it', () => {
    let seed = 7;
    const next = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * n);
    const word = () => Array.from({ length: next(9) }, () => 'abc'[next(3)]).join('');
    for (let i = 0; i < 3000; i++) {
      const [a, b, bound] = [word(), word(), next(5)];
      const full = fullDistance(a, b);
      expect(boundedDistance(a, b, bound), `${a} ${b} ${bound}`).toBe(full <= bound ? full : bound + 1);
    }
  });
});

describe('suggester', () => {
  const ids = suggester(['START', 'CHK_CANCEL', 'COLLECT_CANCEL', 'ROUTE', 'END']);

  it('finds plausible typos, case-insensitively, transpositions included', () => {
    expect(ids.closest('CHK_CANCL')).toBe('CHK_CANCEL');
    expect(ids.closest('rotue')).toBe('ROUTE');
    expect(ids.closest('STRAT')).toBe('START');
    expect(ids.closest('FOO')).toBeUndefined();
    expect(ids.suggestion('CHK_CANCL', 'node id')).toBe('Did you mean `CHK_CANCEL`?');
    expect(ids.suggestion('FOO', 'node id')).toBe('Valid node ids: `START`, `CHK_CANCEL`, `COLLECT_CANCEL`, `ROUTE`, `END`.');
    expect(suggester([]).suggestion('x', 'tool')).toBe('There are no tools.');
  });

  it('breaks ties by name, whatever the order of the candidates', () => {
    expect(suggester(['AB', 'AC']).closest('AA')).toBe('AB');
    expect(suggester(['AC', 'AB']).closest('AA')).toBe('AB');
  });

  it('does not compare megabyte names, and lists long candidates shortened', () => {
    const long = 'A'.repeat(1_000_000);
    expect(suggester(['A', long]).closest(long)).toBeUndefined();
    expect(suggester([long]).suggestion('B', 'node id')).toMatch(/^Valid node ids: `A{30}…A{30}` \(1,000,000 characters\)\.$/);
  });

  it('stops suggesting once its work budget is spent, and never throws', () => {
    // 5,000 candidates of one length and 5,000 lookups: without buckets, bands and a budget, 25 million comparisons.
    const candidates = Array.from({ length: 5000 }, (_, i) => `NODE_${String(i).padStart(6, '0')}`);
    const many = suggester(candidates);
    const answers = Array.from({ length: 5000 }, (_, i) => many.closest(`NODE_${String(i).padStart(6, '0')}X`));
    expect(answers[0]).toBe('NODE_000000');
    expect(answers.at(-1)).toBeUndefined();
    expect(many.suggestion('NODE_000001X', 'node id')).toMatch(/^Valid node ids: .*\(5000 in all\)\.$/);
  });
});
