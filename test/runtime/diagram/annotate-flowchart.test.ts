/**
 * Marking a run on the author's flowchart: the appended lines, that only the flowchart's own node ids are ever
 * written, and, with Mermaid itself as the judge, that every compiled agent's annotated flowchart still parses
 * to the same nodes (the marks add no node; refused moves add exactly their edges). That Mermaid applies the
 * classes is checked where it renders, in the browser test of the live page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { annotateFlowchart } from '../../../runtime/diagram/annotate-flowchart.js';
import { FIXTURE_BUNDLE } from '../../fixtures/runtime/agents.js';
import { loadMermaid, type MermaidReading } from '../../generator/parse/flowchart/mermaid-oracle.js';
import { PROJECT_ROOT } from '../helpers/fixture-process.js';

const SOURCE = 'flowchart TD\n    A --> B\n    B --> C\n    B -.-> A';
const IDS = ['A', 'B', 'C'];

describe('annotateFlowchart', () => {
  it('appends class lines for the visited nodes, the current node, traversed edges and refused moves', () => {
    const annotated = annotateFlowchart(SOURCE, IDS, {
      visited: ['A', 'B', 'A'],
      current: 'B',
      traversed: [
        ['A', 'B'],
        ['A', 'B'],
      ],
      refused: [
        ['B', 'B'],
        ['B', 'A'],
        ['A', 'C'],
      ],
    });
    expect(annotated).toBe(
      `${SOURCE}\n` +
        [
          '%% sop-toolkit: what the run did (appended; the flowchart above is the author’s)',
          'classDef sop_visited fill:#dbeafe,stroke:#1d4ed8,stroke-width:2px',
          'class A sop_visited',
          'classDef sop_current fill:#fde68a,stroke:#b45309,stroke-width:4px',
          'class B sop_current',
          'classDef sop_traversed stroke:#1d4ed8,stroke-width:3px',
          'class L_A_B_0 sop_traversed',
          'B sop_refused_0@-.->|refused| A',
          'A sop_refused_1@-.->|refused| C',
          'classDef sop_refused stroke:#dc2626,stroke-width:2px,stroke-dasharray:6 4',
          'class sop_refused_0,sop_refused_1 sop_refused',
        ].join('\n') +
        '\n',
    );
  });

  it('leaves the source as it is when there is nothing to mark', () => {
    expect(annotateFlowchart(SOURCE, IDS, { visited: [], current: null })).toBe(SOURCE);
  });

  it('writes only ids of the flowchart, so run data cannot add Mermaid statements', () => {
    const injected = 'A\nclick A href "javascript:alert(1)"';
    const annotated = annotateFlowchart(SOURCE, IDS, {
      visited: [injected],
      current: injected,
      traversed: [[injected, 'B']],
      refused: [['A', injected]],
    });
    expect(annotated).toBe(SOURCE);
  });

  it('marks the branches of forks by state and decided joins by outcome, after the visited and current marks', () => {
    const source = 'flowchart TD\n    F --> A\n    F --> B\n    F --> C\n    A --> J\n    B --> J\n    C --> J';
    const annotated = annotateFlowchart(source, ['F', 'A', 'B', 'C', 'J'], {
      visited: ['F', 'A'],
      current: 'C',
      branches: [
        ['A', 'passed'],
        ['B', 'failed'],
        ['C', 'open'],
        ['NOT_A_NODE', 'open'],
      ],
      joins: [['J', 'failed']],
    });
    expect(annotated.split('\n').slice(7)).toEqual([
      '%% sop-toolkit: what the run did (appended; the flowchart above is the author’s)',
      'classDef sop_visited fill:#dbeafe,stroke:#1d4ed8,stroke-width:2px',
      'class F,A sop_visited',
      'classDef sop_current fill:#fde68a,stroke:#b45309,stroke-width:4px',
      'class C sop_current',
      'classDef sop_branch_passed stroke:#15803d,stroke-width:4px',
      'class A sop_branch_passed',
      'classDef sop_branch_failed stroke:#dc2626,stroke-width:4px',
      'class B sop_branch_failed',
      'classDef sop_branch_open stroke-dasharray:5 4',
      'class C sop_branch_open',
      'classDef sop_join_failed stroke:#dc2626,stroke-width:4px',
      'class J sop_join_failed',
      '',
    ]);
  });

  it('gives a node in two fork records its last mark, and writes no fork mark for an id not in the flowchart', () => {
    const injected = 'A sop_x\nclick A href "javascript:alert(1)"';
    const annotated = annotateFlowchart(SOURCE, IDS, {
      visited: [],
      current: null,
      branches: [
        ['A', 'open'],
        [injected, 'passed'],
        ['A', 'passed'],
      ],
      joins: [[injected, 'passed']],
    });
    expect(annotated).toBe(
      `${SOURCE}\n${[
        '%% sop-toolkit: what the run did (appended; the flowchart above is the author’s)',
        'classDef sop_branch_passed stroke:#15803d,stroke-width:4px',
        'class A sop_branch_passed',
      ].join('\n')}\n`,
    );
  });
});

describe('annotated flowcharts, read by Mermaid', () => {
  let readWithMermaid: (text: string) => Promise<MermaidReading>;
  beforeAll(async () => {
    readWithMermaid = await loadMermaid();
  });

  const bundle = JSON.parse(readFileSync(join(PROJECT_ROOT, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;
  const agents: CompiledSop[] = [...Object.values(bundle.agents), ...Object.values(FIXTURE_BUNDLE.agents)];

  it.each(agents.map((sop) => [sop.meta.agent, sop] as const))('%s: same nodes, one more edge per refused move', async (_name, sop) => {
    const walk = [sop.transitions.entry, ...(sop.transitions.successors[sop.transitions.entry] ?? []).slice(0, 1)];
    const first = walk[0]!;
    const last = walk.at(-1)!;
    const far = sop.nodeIds.find((id) => !walk.includes(id))!;
    const annotated = annotateFlowchart(sop.flowchart, sop.nodeIds, {
      visited: walk,
      current: last,
      traversed: [[first, last]],
      refused: [[last, far]],
    });
    expect(annotated).not.toBe(sop.flowchart);
    const [plain, marked] = [await readWithMermaid(sop.flowchart), await readWithMermaid(annotated)];
    if (!plain.ok || !marked.ok) throw new Error(`Mermaid refused it: ${JSON.stringify([plain, marked])}`);
    expect(marked.vertices.map((vertex) => vertex.id)).toEqual(plain.vertices.map((vertex) => vertex.id));
    expect(marked.edges.length).toBe(plain.edges.length + 1);
    expect(marked.edges.at(-1)).toMatchObject({ start: last, end: far, stroke: 'dotted', text: 'refused' });
  });

  it('a fork/join flowchart with its branches and join marked: the same nodes and edges', async () => {
    const compose = JSON.parse(
      readFileSync(join(PROJECT_ROOT, 'test/fixtures/golden/compose/generated/sop-bundle.json'), 'utf8'),
    ) as SopBundle;
    const sop = compose.agents['incident_triage']!;
    const annotated = annotateFlowchart(sop.flowchart, sop.nodeIds, {
      visited: ['START', 'TRIAGE', 'INVESTIGATE', 'STATUS'],
      current: 'FINDINGS',
      branches: [
        ['CHECK_LOGS', 'passed'],
        ['REPRODUCE', 'failed'],
        ['STATUS', 'open'],
      ],
      joins: [['FINDINGS', 'failed']],
    });
    const [plain, marked] = [await readWithMermaid(sop.flowchart), await readWithMermaid(annotated)];
    if (!plain.ok || !marked.ok) throw new Error(`Mermaid refused it: ${JSON.stringify([plain, marked])}`);
    expect(marked.vertices.map((vertex) => vertex.id)).toEqual(plain.vertices.map((vertex) => vertex.id));
    expect(marked.edges).toEqual(plain.edges);
  });
});
