/**
 * Differential fuzzing against Mermaid 11: random statements assembled from the pieces of the flowchart syntax
 * (ids, shapes, links, labels, keywords, blanks and stray punctuation). For each, Mermaid accepts it if and only if
 * we report no SOP012, and then reads the same node ids and edges. Inputs that hit a documented divergence
 * (SOP013, SOP014, a bare `%%` line, a `style` naming an undeclared node) are skipped. Fixed seed: reproducible.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';
import { loadMermaid, type MermaidReading } from './mermaid-oracle.js';

const PIECES = [
  'A',
  'B',
  'c1',
  'x',
  'o',
  'v',
  'end',
  'default',
  'é',
  '12',
  '_',
  ' ',
  ' ',
  '  ',
  '\n',
  '\n    ',
  ';',
  '&',
  ' & ',
  '-->',
  '---',
  '-.->',
  '==>',
  '--o',
  '--x',
  '<-->',
  'o--o',
  '~~~',
  '--',
  '-.',
  '==',
  ' --> ',
  ' -->|l| ',
  ' -- t --> ',
  ' -. t .-> ',
  ' == t ==> ',
  '|x|',
  '|',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  '"',
  '"q"',
  '"`md`"',
  'txt',
  ':::',
  ':',
  '#',
  '*',
  '@',
  'e1@',
  '>',
  '<',
  '/',
  '\\',
  '.',
  '-',
  '=',
  ',',
  '?',
  '!',
  '`',
  '([',
  '])',
  '[[',
  ']]',
  '[(',
  ')]',
  '((',
  '))',
  '{{',
  '}}',
  '[/',
  '/]',
  '[\\',
  '\\]',
  'A[lbl]',
  'B(r)',
  'C{d}',
  'D([s])',
  'A-->B\n',
  '\n%% c\n',
  'subgraph s\n',
  '\nend\n',
  'subgraph a [T]\n',
  'class A c',
  'classDef c fill:#f00',
  'click A cb',
  'linkStyle 0 stroke:#f00',
  'direction TB\n',
  'accTitle: t\n',
  '#quot;',
  'call ',
  'href ',
  '_blank',
];

let read: (text: string) => Promise<MermaidReading>;

beforeAll(async () => {
  read = await loadMermaid();
});

it('agrees with Mermaid on random statements', async () => {
  const body = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
  await fc.assert(
    fc.asyncProperty(body, async (text) => {
      const source = `flowchart TD\n${text}\n`;
      const ours = parseFlowchart(source);
      const codes = new Set(ours.problems.map((p) => p.code));
      if (codes.has('SOP013') || codes.has('SOP014') || /(^|\n)\s*%%\s*(\n|$)/.test(source) || /style /.test(text)) return;
      const mermaid = await read(source);
      expect(!codes.has('SOP012'), mermaid.ok ? JSON.stringify(ours.problems) : mermaid.error).toBe(mermaid.ok);
      if (!mermaid.ok || !ours.ast) return;
      expect([...new Set(ours.ast.nodes.map((n) => n.id))]).toEqual(mermaid.vertices.map((v) => v.id));
      expect(ours.ast.edges.map((e) => [e.from, e.to, e.stroke])).toEqual(mermaid.edges.map((e) => [e.start, e.end, e.stroke]));
    }),
    { seed: 20_251, numRuns: 400 },
  );
});
