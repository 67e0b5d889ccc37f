/** Per-file cap: errors survive it, the rest is counted in one final SOP091. */
import { describe, expect, it } from 'vitest';
import { capDiagnostics } from '../../../generator/diagnostics/cap-diagnostics.js';
import { diagnosticAt } from '../../../generator/diagnostics/diagnostic.js';

const warning = (line: number) => diagnosticAt('f.md', 'SOP041', { line, column: 1 }, `w${line}`);
const error = (line: number) => diagnosticAt('f.md', 'SOP020', { line, column: 1 }, `e${line}`);

describe('capDiagnostics', () => {
  it('leaves a file under the cap alone, sorted', () => {
    expect(capDiagnostics([warning(3), error(1)], 5).map((d) => d.message)).toEqual(['e1', 'w3']);
  });

  it('keeps errors first, in source order, and counts the rest in a final SOP091 at the last position', () => {
    const all = [...Array.from({ length: 10 }, (_, i) => warning(i + 1)), error(50), error(40)];
    const capped = capDiagnostics(all, 4);
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
    const capped = capDiagnostics(
      Array.from({ length: 5 }, (_, i) => error(i + 1)),
      2,
    );
    expect(capped.at(-1)).toMatchObject({
      code: 'SOP091',
      severity: 'error',
      message: '… and 3 more diagnostics in this file, not shown (3 errors).',
    });
  });
});
