/**
 * Differential fuzzing against Mermaid 11, with fixed seeds (reproducible). Three properties:
 * - random statements assembled from the pieces of the flowchart syntax (ids, shapes, links, labels, keywords,
 *   Mermaid 11's `@{ … }` and edge ids, entity codes, blanks and stray punctuation);
 * - random `@{ … }` shape data: keys, values and separators as authors write them, and as YAML reads them;
 * - random labels full of entity codes, in every place a label can be.
 * For each input, Mermaid accepts it if and only if we report no SOP012, and then reads the same graph
 * (`graph-views.ts`). Inputs that hit a documented divergence are skipped: SOP013 and SOP014, a bare `%%` line,
 * `style` naming an undeclared node (Mermaid creates it), and HTML in a label (Mermaid sanitizes it, we keep it).
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';
import { viewOfAst, viewOfMermaid } from './graph-views.js';
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
  // Mermaid 11
  '@{ shape: diamond }',
  '@{ shape: doc, label: "a #amp; b" }',
  '@{ label: "x" }',
  '@{ shape: Diamond }',
  '@{ icon: "fa:user" }',
  '@{',
  '}',
  ' e1@',
  'e1@',
  'e2@',
  'e1@{ animate: true }\n',
  '#amp;',
  '#35;',
  '#nbsp;',
  'step.3',
  'A.b',
  '(-',
  '-)',
  '[|k:v|',
];

let read: (text: string) => Promise<MermaidReading>;

beforeAll(async () => {
  read = await loadMermaid();
});

/** Checks one flowchart against Mermaid; returns whether Mermaid accepted it (undefined when skipped). */
async function agree(source: string): Promise<boolean | undefined> {
  const ours = parseFlowchart(source);
  const codes = new Set(ours.problems.map((p) => p.code));
  if (codes.has('SOP013') || codes.has('SOP014') || /(^|\n)\s*%%\s*(\n|$)/.test(source) || /style |</.test(source)) return undefined;
  // The corpus's diverge-label-not-text.mmd: a list as label, which Mermaid parses and cannot draw.
  if (ours.problems.some((p) => p.message.startsWith('The label must be text'))) return undefined;
  const mermaid = await read(source);
  expect(!codes.has('SOP012'), mermaid.ok ? JSON.stringify(ours.problems) : mermaid.error).toBe(mermaid.ok);
  if (mermaid.ok && ours.ast) expect(viewOfAst(ours.ast)).toEqual(viewOfMermaid(mermaid));
  return mermaid.ok;
}

/**
 * Runs a property; returns how many inputs Mermaid accepted and rejected, so each test can check that it exercised
 * what it is about (a fuzz whose inputs all fail to parse tests little).
 */
async function fuzz(inputs: fc.Arbitrary<string>, seed: number, numRuns: number): Promise<{ accepted: number; rejected: number }> {
  const seen = { accepted: 0, rejected: 0 };
  await fc.assert(
    fc.asyncProperty(inputs, async (source) => {
      const accepted = await agree(source);
      if (accepted === true) seen.accepted++;
      if (accepted === false) seen.rejected++;
    }),
    { seed, numRuns },
  );
  return seen;
}

it('agrees with Mermaid on random statements', async () => {
  const body = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((parts) => `flowchart TD\n${parts.join('')}\n`);
  const seen = await fuzz(body, 20_251, 600);
  expect(seen.accepted).toBeGreaterThan(20);
  expect(seen.rejected).toBeGreaterThan(200);
});

const KEYS = ['shape', 'shape', 'label', 'label', 'labelType', 'icon', 'img', 'form', 'lable', 'w', 'view', 'animate'];
const VALUES = [
  'diamond',
  'rect',
  'decision',
  'lean-r',
  'doc',
  'Diamond',
  'lean_right',
  'nope',
  'text',
  'markdown',
  '12',
  'true',
  'null',
  '~',
  '"quoted"',
  '"with, comma: and colon"',
  '"#quot;hi#quot; #35;"',
  '"esc \\"q\\" \\u00e9"',
  "'single'",
  '"two\n   lines"',
  '[1, 2]',
  '{a: 1}',
  'two words',
  '#amp; plain',
  '""',
  '"  "',
  "'it''s'",
  '60',
  '007',
  '1.5',
  'two  spaces',
];
const SEPARATORS = [', ', ',', ' , ', ',\n  ', '\n  ', ' '];

it('agrees with Mermaid on random @{ … } shape data', async () => {
  const entry = fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(':', ': ', ':  ', ' : '), fc.constantFrom(...VALUES));
  const data = fc
    .tuple(
      fc.array(fc.tuple(entry, fc.constantFrom(...SEPARATORS)), { minLength: 0, maxLength: 4 }),
      fc.constantFrom('', ' ', '\n', '\n  '),
      fc.constantFrom('', ',', ', '),
      fc.constantFrom('A', 'A[Text]', 'e1', 'S'),
      fc.constantFrom('', ' --> B', '\nA e1@--> B'),
    )
    .map(([entries, pad, trailing, target, after]) => {
      const text = entries.map(([[k, colon, v], sep], i) => `${i > 0 ? sep : ''}${k}${colon}${v}`).join('');
      return `flowchart TD\nsubgraph S\n  X\nend\nA e1@--> X\n${target}@{${pad}${text}${trailing}${pad}}${after}\n`;
    });
  const seen = await fuzz(data, 20_252, 300);
  expect(seen.accepted).toBeGreaterThan(60);
  expect(seen.rejected).toBeGreaterThan(60);
});

it('agrees with Mermaid on labels full of entity codes', async () => {
  const CODES = [
    '#quot;',
    '#amp;',
    '#35;',
    '#nbsp;',
    '#x41;',
    '#9829;',
    '#notit;',
    '#foo;',
    '#0;',
    '#150;',
    '#;',
    '#',
    ';',
    'a',
    ' ',
    '\u00e9',
  ];
  const text = fc.array(fc.constantFrom(...CODES), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
  const PLACES = [
    (t: string) => `A[${t}]`,
    (t: string) => `A["${t}"]`,
    (t: string) => `A["\`${t}\`"]`,
    (t: string) => `A -->|${t}| B`,
    (t: string) => `A -- ${t} --> B`,
    (t: string) => `A@{ label: "${t}" }`,
    (t: string) => `subgraph s [${t}]\nend`,
    (t: string) => `subgraph "${t}"\nend`,
    (t: string) => `A[${t}] --> B; style B fill:#f00;`,
  ];
  const source = fc.tuple(fc.constantFrom(...PLACES), text).map(([place, t]) => `flowchart TD\n${place(t)}\n`);
  const seen = await fuzz(source, 20_253, 300);
  expect(seen.accepted).toBeGreaterThan(200);
});
