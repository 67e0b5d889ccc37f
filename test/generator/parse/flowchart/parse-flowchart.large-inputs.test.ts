/**
 * Large and pathological inputs: the parser gets through 100,000-line charts and inputs built to hit every rule
 * that scans ahead, and still reports what it should. No wall-clock assertion here (the machines are shared and
 * noisy): a super-linear rule would blow the test timeout on these sizes, and speed itself is measured by
 * `npm run bench` (the build rows).
 */
import { describe, expect, it } from 'vitest';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';

/** Inputs built to hit every rule that scans ahead: long runs, unclosed delimiters, errors on every line. */
const PATHOLOGICAL: Readonly<Record<string, (n: number) => string>> = {
  edges: (n) => `flowchart TD\n${'  A["x"] -->|y| B{z}\n'.repeat(n)}`,
  'a line of blanks': (n) => `flowchart TD\nA${' '.repeat(n * 10)}B\n`,
  'a run of dashes': (n) => `flowchart TD\nA ${'-'.repeat(n * 10)}> B\n`,
  'a run of @': (n) => `flowchart TD\n${'a@'.repeat(n * 5)}\n`,
  'unclosed brackets': (n) => `flowchart TD\n${'A[foo\n'.repeat(n)}`,
  'unclosed strings': (n) => `flowchart TD\n${'A["foo\n'.repeat(n)}`,
  'unclosed edge text': (n) => `flowchart TD\n${'A -- x\n'.repeat(n)}`,
  'unclosed dotted text then plain lines': (n) => `flowchart TD\nA -. x\n${'B x\n'.repeat(n)}`,
  'unclosed shape data': (n) => `flowchart TD\n${'A@{ shape: rect\n'.repeat(n)}`,
  'shape data on every node': (n) => `flowchart TD\n${'A@{ shape: diamond, label: "Ok #amp; go?" } --> B@{ shape: doc }\n'.repeat(n)}`,
  'shape data over several lines': (n) => `flowchart TD\n${'A@{\n  shape: rect\n  label: "x"\n}\n'.repeat(n / 4)}`,
  'shape data that is not YAML': (n) => `flowchart TD\n${'A@{ shape: rect label: x }\n'.repeat(n)}`,
  'an unclosed string in shape data': (n) => `flowchart TD\n${'A@{ label: "x\n'.repeat(n)}`,
  'a long shape data value': (n) => `flowchart TD\nA@{ label: "${'x #amp; '.repeat(n)}" }\n`,
  'edge ids': (n) => `flowchart TD\n${Array.from({ length: n }, (_, i) => `A e${i}@--> B\ne${i}@{ animate: true }\n`).join('')}`,
  'references to an edge id': (n) => `flowchart TD\nA e1@--> B\n${'C --> e1\n'.repeat(n)}`,
  'entity codes in labels': (n) => `flowchart TD\n${'A[#quot;x#quot; #35; #nbsp;] -->|#amp;| B\n'.repeat(n)}`,
  'a long line of entity codes': (n) => `flowchart TD\nA[${'#amp;'.repeat(n * 5)}]\n`,
  'style keywords on one line': (n) => `flowchart TD\nA[${'style:#a;classDef'.repeat(n)}]\n`,
  'braces and blanks on one line': (n) => `flowchart TD\nA["${'}   '.repeat(n)}"]\n`,
  'comment lines inside a label': (n) => `flowchart TD\nA[x\n${'  %% c\n\n'.repeat(n)}y]\n`,
  'directives everywhere': (n) => `flowchart TD\n${'A%%{init: {}}%%B --> C %%{wrap}%%\n'.repeat(n)}`,
  'HTML tags in labels': (n) => `flowchart TD\n${'A[<b class="x">y</b>] --> B\n'.repeat(n)}`,
  'front matter fences never closed': (n) => `---\n${'x: 1\n --- \n'.repeat(n)}flowchart TD\nA\n`,
  'a callback without parentheses': (n) => `flowchart TD\n${'A call foo\n'.repeat(n)}`,
  'comments after statements': (n) => `flowchart TD\n${'A --> B %% note\n'.repeat(n)}`,
  'direction on every line': (n) => `flowchart TD\n${'A --> B direction LR\n'.repeat(n)}`,
  'nested subgraphs': (n) => `flowchart TD\n${'subgraph s\nA\n'.repeat(n)}${'end\n'.repeat(n)}`,
  'a long & group': (n) => `flowchart TD\n${'A & '.repeat(n)}B\n`,
  'a long chain': (n) => `flowchart TD\n${'A --> '.repeat(n)}B\n`,
  'a missing target on every line': (n) => `flowchart TD\n${'A -->\n\n'.repeat(n)}`,
};

describe('large inputs', () => {
  it('parses a 100,000-line chart', () => {
    const result = parseFlowchart(`flowchart TD\n${'  N1[Step] -->|ok| N2{Check?}\n'.repeat(100_000)}`);
    expect(result.ast?.edges).toHaveLength(100_000);
    expect(result.ast?.edges[99_999]).toMatchObject({ from: 'N1', to: 'N2', label: 'ok', span: { start: { line: 100_001 } } });
  });

  it.each(Object.keys(PATHOLOGICAL))('gets through 32,000 repetitions of %s', (name) => {
    const make = PATHOLOGICAL[name] as (n: number) => string;
    const result = parseFlowchart(make(32_000));
    expect(result.ast !== null || result.problems.length > 0).toBe(true);
    for (const p of result.problems) expect(p.span.start.line).toBeGreaterThanOrEqual(1);
  });
});
