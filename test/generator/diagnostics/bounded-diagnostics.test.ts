/** One file's diagnostics, bounded while produced: errors survive the bound, the rest is counted in one final SOP091. */
import { describe, expect, it } from 'vitest';
import { BoundedDiagnostics } from '../../../generator/diagnostics/bounded-diagnostics.js';
import { diagnosticAt } from '../../../generator/diagnostics/diagnostic.js';

const warning = (line: number) => diagnosticAt('f.md', 'SOP041', { line, column: 1 }, `w${line}`);
const error = (line: number) => diagnosticAt('f.md', 'SOP020', { line, column: 1 }, `e${line}`);
const bounded = (max: number, ...ds: ReturnType<typeof error>[]) => {
  const b = new BoundedDiagnostics(max);
  for (const d of ds) b.push(d);
  return b.result();
};

describe('BoundedDiagnostics', () => {
  it('gives a file under the bound its diagnostics, sorted', () => {
    expect(bounded(5, warning(3), error(1)).map((d) => d.message)).toEqual(['e1', 'w3']);
  });

  it('keeps errors first, in source order, and counts the rest in a final SOP091 at the last position', () => {
    const capped = bounded(4, ...Array.from({ length: 10 }, (_, i) => warning(i + 1)), error(50), error(40));
    expect(capped.map((d) => d.message)).toEqual([
      'w1',
      'w2',
      'e40',
      'e50',
      '… and 8 more diagnostics in this file, not shown (8 warnings).',
    ]);
    expect(capped.at(-1)).toMatchObject({ code: 'SOP091', severity: 'warning', line: 50 });
  });

  it('gives the SOP091 the severity of the worst diagnostic it stands for', () => {
    expect(bounded(2, ...Array.from({ length: 5 }, (_, i) => error(i + 1))).at(-1)).toMatchObject({
      code: 'SOP091',
      severity: 'error',
      message: '… and 3 more diagnostics in this file, not shown (3 errors).',
    });
  });

  it('keeps the right ones and counts every other one however many are pushed, in any order', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 100_000);
    const capped = bounded(3, ...lines.map((line) => (line % 2 ? warning(line + 1) : error(line + 1))));
    expect(capped.map((d) => d.message)).toEqual([
      'e1',
      'e3',
      'e5',
      '… and 99,997 more diagnostics in this file, not shown (49,997 errors, 50,000 warnings).',
    ]);
    expect(capped.at(-1)).toMatchObject({ line: 100_000 });
  });
});
