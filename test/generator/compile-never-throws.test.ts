/**
 * The compiler never crashes on bad input: truncated and mutated SOPs (property-based, seeded so a failure
 * reproduces) always come back as diagnostics with valid codes and positions inside the file, never as an
 * exception.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSop } from '../../generator/compile-sop.js';
import { DIAGNOSTIC_CODES } from '../../generator/diagnostics/codes.js';
import { BASE_SOP } from '../support/sop-text.js';

const corpus = [
  BASE_SOP,
  ...readdirSync(new URL('../../sops/', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(new URL(`../../sops/${f}`, import.meta.url), 'utf8')),
];

const SNIPPETS = [
  '---',
  '```',
  '```mermaid',
  '```yaml',
  '## ',
  '### ',
  '-->',
  '-.->',
  '|',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '"',
  '%%',
  ':',
  '\n',
  '\t',
  '&',
  ';',
  ':::',
  'subgraph',
  'end',
  '\u2028',
  '\uFEFF',
  '\r\n',
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete-line' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 8 })),
  }),
  fc.record({ kind: fc.constant('duplicate-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap-lines' as const), at: fc.nat(), with: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function apply(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const line = m.at % Math.max(1, lines.length);
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'delete-line':
      lines.splice(line, 1);
      return lines.join('\n');
    case 'insert': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'duplicate-line':
      lines.splice(line, 0, lines[line] ?? '');
      return lines.join('\n');
    case 'swap-lines': {
      const other = m.with % Math.max(1, lines.length);
      [lines[line], lines[other]] = [lines[other] ?? '', lines[line] ?? ''];
      return lines.join('\n');
    }
  }
}

describe('compileSop on mutated input', () => {
  it('returns diagnostics with sane positions and never throws', () => {
    fc.assert(
      fc.property(fc.nat(corpus.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }), (which, mutations) => {
        const text = mutations.reduce(apply, corpus[which]!);
        const lineCount = text.split(/\r\n?|\n/).length;
        const result = compileSop('sops/fuzz.md', text);
        for (const d of result.diagnostics) {
          expect(d.code in DIAGNOSTIC_CODES).toBe(true);
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.line).toBeLessThanOrEqual(lineCount + 1);
          expect(d.column).toBeGreaterThanOrEqual(1);
        }
        if (result.model === null) expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
      }),
      { numRuns: 150, seed: 20261121 },
    );
  });
});
