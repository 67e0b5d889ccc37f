/**
 * The flowchart's nodes and edges as the SOP format reads them: properties merged declaration by declaration,
 * subgraphs and edge ids never taken for nodes (SOP017 where an edge or a declaration would make one), with
 * positions in the `.md` file. Real SOP text through the real parser.
 */
import { describe, expect, it } from 'vitest';
import { compileSop } from '../../../generator/compile-sop.js';
import { BoundedDiagnostics } from '../../../generator/diagnostics/bounded-diagnostics.js';
import { flowchartGraph } from '../../../generator/model/flowchart-graph.js';
import { parseSop } from '../../../generator/parse/parse-sop.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

/** The base SOP with its two flowchart lines (13 and 14) replaced. */
function graphOf(lines: string) {
  const sink = new BoundedDiagnostics();
  const parsed = parseSop('sops/demo.md', withLine(14, lines, withLine(13, '    START([Start]) --> ASK["Ask"]')), sink);
  if (!parsed.flowchart) throw new Error(JSON.stringify(sink.result()));
  return flowchartGraph('sops/demo.md', parsed.flowchart);
}

const diagnostics = (lines: string) =>
  graphOf(lines).diagnostics.map((d) => `${d.code} ${d.severity} ${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.message}`);

describe('subgraphs are groupings, never states', () => {
  it('an edge to or from a subgraph id is an error at that end (SOP017), and no transition', () => {
    const lines = ['    subgraph CHECK [Checks]', '      DONE([Done])', '    end', '    ASK --> CHECK', '    CHECK -.-> START'].join('\n');
    const graph = graphOf(lines);
    expect(diagnostics(lines)).toEqual([
      "SOP017 error 17:13-17:18 `CHECK` is the subgraph at 14:5, not a node: Mermaid draws this edge to the subgraph's border, and the SOP format gives a transition to or from a group of nodes no meaning.",
      "SOP017 error 18:5-18:10 `CHECK` is the subgraph at 14:5, not a node: Mermaid draws this edge to the subgraph's border, and the SOP format gives a transition to or from a group of nodes no meaning.",
    ]);
    expect(graph.diagnostics[0]?.remediation).toBe(
      'Link to a node inside the subgraph instead; if `CHECK` is meant to be a node of its own, give the subgraph another id (`subgraph CHECK_group [Title]`).',
    );
    expect(graph.nodes.map((n) => n.id)).toEqual(['START', 'ASK', 'DONE']);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['START->ASK']);
  });

  it('says so wherever the subgraph is defined, before or after the edge', () => {
    expect(diagnostics('    ASK --> LATER\n    subgraph LATER\n      DONE\n    end').map((d) => d.slice(0, 56))).toEqual([
      'SOP017 error 14:13-14:18 `LATER` is the subgraph at 15:5',
    ]);
  });

  it('a node declared with a subgraph id is an error at the declaration', () => {
    expect(diagnostics('    subgraph S\n      DONE\n    end\n    S[Shipping] --> DONE')).toEqual([
      "SOP017 error 17:5-17:6 `S` is the id of the subgraph at 14:5, so Mermaid draws the subgraph here and this node's shape and label are lost.",
      "SOP017 error 17:5-17:6 `S` is the subgraph at 14:5, not a node: Mermaid draws this edge to the subgraph's border, and the SOP format gives a transition to or from a group of nodes no meaning.",
    ]);
  });

  it('naming a subgraph id alone, or giving it metadata, only groups or styles it', () => {
    const graph = graphOf('    subgraph S\n      DONE\n    end\n    S\n    S@{ view: collapsed }\n    ASK --> DONE');
    expect(graph.diagnostics).toEqual([]);
    expect(graph.nodes.map((n) => n.id)).toEqual(['START', 'ASK', 'DONE']);
  });
});

describe('edge ids are not nodes', () => {
  it('an edge to an edge id is an error (SOP017) naming the edge, and no transition', () => {
    const lines = '    ASK e1@--> DONE\n    START --> e1';
    expect(diagnostics(lines)).toEqual([
      'SOP017 error 15:15-15:17 `e1` is the id of the edge at 14:9, not a node: Mermaid 11 creates no node for it and fails to draw the chart.',
    ]);
    expect(graphOf(lines).edges.map((e) => `${e.from}->${e.to}`)).toEqual(['START->ASK', 'ASK->DONE']);
  });

  it('edge metadata lines change nothing', () => {
    const graph = graphOf('    ASK e1@--> DONE\n    e1@{ animate: true }');
    expect(graph.diagnostics).toEqual([]);
    expect(graph.nodes.map((n) => n.id)).toEqual(['START', 'ASK', 'DONE']);
  });
});

describe('declarations', () => {
  it('each property keeps the value its last declaration set; declarations that disagree warn (SOP015)', () => {
    const graph = graphOf('    ASK@{ shape: diamond }\n    ASK --> DONE@{ label: "Done" }\n    DONE([Finished])');
    expect(graph.nodes.map((n) => [n.id, n.type, n.description, `${n.span.start.line}:${n.span.start.column}`])).toEqual([
      ['START', 'stadium', 'Start', '13:5'],
      ['ASK', 'rhombus', 'Ask', '13:24'],
      ['DONE', 'stadium', 'Finished', '15:13'],
    ]);
    expect(graph.diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`)).toEqual([
      'SOP015 14:5 Node `ASK` is declared again with a different shape (first declared at 13:24); this declaration wins.',
      'SOP015 16:5 Node `DONE` is declared again with a different label (first declared at 15:13); this declaration wins.',
    ]);
  });

  it('Mermaid 11 shape names become the node type, and a decision is whatever Mermaid draws as a rhombus', () => {
    const graph = graphOf('    ASK@{ shape: question, label: "Go?" } -->|yes| DONE@{ shape: doc }\n    ASK -->|no| START');
    expect(graph.nodes.map((n) => [n.id, n.type, n.description])).toEqual([
      ['START', 'stadium', 'Start'],
      ['ASK', 'rhombus', 'Go?'],
      ['DONE', 'document', 'DONE'],
    ]);
    expect(compileSop('sops/demo.md', withLine(14, '    ASK@{ shape: decision } --> DONE([Done])')).facts?.decisionNodes).toEqual(['ASK']);
  });

  it('<--> runs both ways and ~~~ is layout only', () => {
    const graph = graphOf('    ASK <--> DONE\n    DONE ~~~ START');
    expect(graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['START->ASK', 'ASK->DONE', 'DONE->ASK']);
  });
});

describe('ids Mermaid accepts and the SOP format does not', () => {
  it.each([
    ['step.3', "`matches('a.b')` means state `b` inside `a`"],
    ['a#b', '`#` starts a state id'],
    ['a\\b', '`\\` escapes'],
    ['*', 'wildcard that matches every move'],
  ])('%s is read as Mermaid reads it, then refused with the reason (SOP034)', (id, reason) => {
    const { diagnostics: found } = compileSop('sops/demo.md', withLine(14, `    ASK --> ${id}[Step] --> DONE([Done])`));
    expect(found.map((d) => d.code)).toEqual(['SOP034']);
    expect([found[0]?.line, found[0]?.column]).toEqual([14, 13]);
    expect(found[0]?.message).toContain(reason);
  });
});

it('the base SOP has no flowchart diagnostics', () => {
  expect(compileSop('sops/demo.md', BASE_SOP).diagnostics).toEqual([]);
});

describe('style, class and click name nodes', () => {
  it('on nodes, subgraphs and edge ids they say nothing; elsewhere a warning (SOP026): style makes Mermaid draw a node', () => {
    const styledWell = [
      '    subgraph S',
      '      DONE([Done])',
      '    end',
      '    ASK e1@--> DONE',
      '    classDef hot stroke:#b45309',
      '    style ASK fill:#fde68a',
      '    style S fill:#eee',
      '    class START,ASK,S,e1 hot',
      '    click ASK "https://example.com"',
    ].join('\n');
    expect(diagnostics(styledWell)).toEqual([]);
    const stale = ['    ASK --> DONE([Done])', '    style AKS fill:#fde68a', '    click GONE "https://example.com"'].join('\n');
    expect(diagnostics(stale)).toEqual([
      'SOP026 warning 15:11-15:14 `style AKS` names no node of the flowchart: Mermaid draws a new, unconnected node `AKS` for it, which the SOP does not have.',
      'SOP026 warning 16:11-16:15 `click GONE` names no node of the flowchart, so it does nothing.',
    ]);
    expect(graphOf(stale).nodes.map((n) => n.id)).toEqual(['START', 'ASK', 'DONE']);
  });
});
