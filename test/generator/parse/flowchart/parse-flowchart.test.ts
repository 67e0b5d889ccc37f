/**
 * Behaviour of the flowchart parser, one syntax item at a time, with exact block positions (line:column, end
 * exclusive, written "l:c-l:c"). The differential test checks the same items against Mermaid; these pin down
 * positions and the AST's shape.
 */
import { describe, expect, it } from 'vitest';
import type { BlockSpan, EdgeOccurrence, FlowchartAst, NodeOccurrence } from '../../../../generator/parse/flowchart/ast.js';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';

const at = (span: BlockSpan | undefined): string =>
  span ? `${span.start.line}:${span.start.column}-${span.end.line}:${span.end.column}` : 'none';

function ast(source: string): FlowchartAst {
  const result = parseFlowchart(source);
  expect(result.problems).toEqual([]);
  if (!result.ast) throw new Error('no AST');
  return result.ast;
}

/** A node occurrence in a compact form: id@span shape "label"@span. */
function node(n: NodeOccurrence): string {
  const shape = n.shape ? ` ${n.shape}` : '';
  const label = n.label === undefined ? '' : ` ${JSON.stringify(n.label)}@${at(n.labelSpan)}`;
  const classes = n.classes.length > 0 ? ` :::${n.classes.join(',')}` : '';
  return `${n.id}@${at(n.idSpan)}${shape}${label}${classes}`;
}

/** An edge in a compact form: from->to stroke arrowStart/arrowEnd "label" @span. */
function edge(e: EdgeOccurrence): string {
  const label = e.label === null ? '' : ` ${JSON.stringify(e.label)}@${at(e.labelSpan)}`;
  return `${e.from}->${e.to} ${e.stroke} ${e.arrowStart}/${e.arrowEnd}${label} @${at(e.span)}`;
}

describe('header', () => {
  it.each([
    ['flowchart TD\nA', 'flowchart', 'TD', '1:1-1:13'],
    ['graph LR\nA', 'graph', 'LR', '1:1-1:9'],
    ['flowchart\nA', 'flowchart', 'TD', '1:1-1:10'],
    ['flowchart BT;A', 'flowchart', 'BT', '1:1-1:13'],
    ['graph RL  \nA', 'graph', 'RL', '1:1-1:9'],
    ['flowchart TB\nA', 'flowchart', 'TB', '1:1-1:13'],
    ['graph >\nA', 'graph', 'LR', '1:1-1:8'],
    ['graph v\nA', 'graph', 'TB', '1:1-1:8'],
  ])('%j', (source, keyword, direction, span) => {
    const tree = ast(source);
    expect([tree.keyword, tree.direction, at(tree.headerSpan)]).toEqual([keyword, direction, span]);
  });

  it('comes after blank lines, comments, front matter and directives, which keep their lines', () => {
    const source = '\n%% title comment\n---\ntitle: Retail\n---\n%%{init: {"theme": "dark"}}%%\n  flowchart LR\n    A --> B\n';
    const tree = ast(source);
    expect(at(tree.headerSpan)).toBe('7:3-7:15');
    expect(tree.nodes.map(node)).toEqual(['A@8:5-8:6', 'B@8:11-8:12']);
  });

  it('counts lines the same with CRLF line breaks', () => {
    const tree = ast('flowchart TD\r\n    A[One] --> B\r\n');
    expect(tree.nodes.map(node)).toEqual(['A@2:5-2:6 rectangle "One"@2:7-2:10', 'B@2:16-2:17']);
  });
});

describe('node shapes', () => {
  it.each([
    ['A([stadium])', 'stadium', 'stadium', '2:4-2:11', 'text'],
    ['A[rect]', 'rectangle', 'rect', '2:3-2:7', 'text'],
    ['A["quoted rect"]', 'rectangle', 'quoted rect', '2:3-2:16', 'string'],
    ['A{rhombus}', 'rhombus', 'rhombus', '2:3-2:10', 'text'],
    ['A(round)', 'round', 'round', '2:3-2:8', 'text'],
    ['A((circle))', 'circle', 'circle', '2:4-2:10', 'text'],
    ['A(((double)))', 'double-circle', 'double', '2:5-2:11', 'text'],
    ['A[[sub]]', 'subroutine', 'sub', '2:4-2:7', 'text'],
    ['A[(db)]', 'cylinder', 'db', '2:4-2:6', 'text'],
    ['A{{hex}}', 'hexagon', 'hex', '2:4-2:7', 'text'],
    ['A>odd]', 'asymmetric', 'odd', '2:3-2:6', 'text'],
    ['A[/lean/]', 'parallelogram', 'lean', '2:4-2:8', 'text'],
    ['A[\\lean\\]', 'parallelogram-alt', 'lean', '2:4-2:8', 'text'],
    ['A[/trap\\]', 'trapezoid', 'trap', '2:4-2:8', 'text'],
    ['A[\\trap/]', 'trapezoid-alt', 'trap', '2:4-2:8', 'text'],
    ['A[|borders:lr|boxed]', 'rectangle', 'boxed', '2:15-2:20', 'text'],
    ['A["`**md**`"]', 'rectangle', '**md**', '2:3-2:13', 'markdown'],
  ])('%s', (written, shape, label, labelSpan, labelType) => {
    const [n] = ast(`flowchart TD\n${written}`).nodes;
    expect(n).toEqual({
      id: 'A',
      idSpan: { start: { line: 2, column: 1 }, end: { line: 2, column: 2 } },
      shape,
      label,
      labelSpan: expect.anything(),
      labelType,
      classes: [],
    });
    expect(at(n?.labelSpan)).toBe(labelSpan);
  });

  it('reads the (-ellipse-), which Mermaid 11 cannot draw, with a warning (SOP018)', () => {
    const result = parseFlowchart('flowchart TD\nA(-oval-) --> B');
    expect(result.ast?.nodes.map(node)).toEqual(['A@2:1-2:2 ellipse "oval"@2:4-2:8', 'B@2:15-2:16']);
    expect(result.problems.map((p) => [p.code, at(p.span)])).toEqual([['SOP018', '2:2-2:4']]);
    expect(result.problems[0]?.remediation).toContain('A([text])');
  });

  it('trims blanks around a label and keeps inner ones', () => {
    expect(ast('flowchart TD\nA[  two  words ]').nodes.map(node)).toEqual(['A@2:1-2:2 rectangle "two  words"@2:5-2:15']);
  });

  it('accepts a quoted string followed by more text, as Mermaid does', () => {
    expect(ast('flowchart TD\nA["quoted" tail]').nodes.map(node)).toEqual(['A@2:1-2:2 rectangle "quoted tail"@2:3-2:16']);
  });

  it('reads a markdown string without its backticks, decodes entity codes and keeps HTML as written', () => {
    const tree = ast('flowchart TD\nA["`**bold**`"] --> B[say #quot;hi#quot;<br>&amp;]');
    expect(tree.nodes.map((n) => [n.label, n.labelType])).toEqual([
      ['**bold**', 'markdown'],
      ['say "hi"<br>&amp;', 'text'],
    ]);
    expect(at(tree.nodes[0]?.labelSpan)).toBe('2:3-2:15');
  });

  it('reads a label over several lines', () => {
    expect(ast('flowchart TD\nA[first\n  second] --> B').nodes.map(node)).toEqual([
      'A@2:1-2:2 rectangle "first\\n  second"@2:3-3:9',
      'B@3:15-3:16',
    ]);
  });

  it('keeps an empty label of blanks (an empty span after the blanks)', () => {
    expect(ast('flowchart TD\nA[ ]').nodes.map(node)).toEqual(['A@2:1-2:2 rectangle ""@2:4-2:4']);
  });

  it('attaches a :::class', () => {
    expect(ast('flowchart TD\nA[x]:::hot --> B:::cold').nodes.map(node)).toEqual([
      'A@2:1-2:2 rectangle "x"@2:3-2:4 :::hot',
      'B@2:16-2:17 :::cold',
    ]);
  });
});

describe('node ids', () => {
  it.each([
    ['node_1', 'node-2', 'node.3'],
    ['4node', '12', 'v'],
    ['default', 'endpoint', 'ending'],
    ['Über', 'café', '東京'],
    ['a:b', 'c#d', 'e*f'],
    ['A&B', 'x-y', 'send'],
  ])('%s --> %s --> %s', (a, b, c) => {
    expect(ast(`flowchart TD\n${a} --> ${b} --> ${c}`).nodes.map((n) => n.id)).toEqual([a, b, c]);
  });

  it('keeps every occurrence of a node, declarations and references, in source order', () => {
    const tree = ast('flowchart TD\n  A --> B\n  A[Labelled]\n  B(First) --> C\n  B{Second}');
    expect(tree.nodes.map(node)).toEqual([
      'A@2:3-2:4',
      'B@2:9-2:10',
      'A@3:3-3:4 rectangle "Labelled"@3:5-3:13',
      'B@4:3-4:4 round "First"@4:5-4:10',
      'C@4:16-4:17',
      'B@5:3-5:4 rhombus "Second"@5:5-5:11',
    ]);
  });
});

describe('edges', () => {
  it.each([
    ['A --> B', 'A->B normal none/point @2:3-2:6'],
    ['A -->|yes| B', 'A->B normal none/point "yes"@2:7-2:10 @2:3-2:11'],
    ['A -->| spaced out |B', 'A->B normal none/point "spaced out"@2:8-2:18 @2:3-2:20'],
    ['A --> |late| B', 'A->B normal none/point "late"@2:8-2:12 @2:3-2:13'],
    ['A -->|"q | uoted"| B', 'A->B normal none/point "q | uoted"@2:7-2:18 @2:3-2:19'],
    ['A -.-> B', 'A->B dotted none/point @2:3-2:7'],
    ['A -.->|maybe| B', 'A->B dotted none/point "maybe"@2:8-2:13 @2:3-2:14'],
    ['A -- text --> B', 'A->B normal none/point "text"@2:6-2:10 @2:3-2:14'],
    ['A -. text .-> B', 'A->B dotted none/point "text"@2:6-2:10 @2:3-2:14'],
    ['A == text ==> B', 'A->B thick none/point "text"@2:6-2:10 @2:3-2:14'],
    ['A -- "quoted (x)" --> B', 'A->B normal none/point "quoted (x)"@2:6-2:18 @2:3-2:22'],
    ['A ==> B', 'A->B thick none/point @2:3-2:6'],
    ['A --- B', 'A->B normal none/none @2:3-2:6'],
    ['A -- open --- B', 'A->B normal none/none "open"@2:6-2:10 @2:3-2:14'],
    ['A === B', 'A->B thick none/none @2:3-2:6'],
    ['A -.- B', 'A->B dotted none/none @2:3-2:6'],
    ['A ---> B', 'A->B normal none/point @2:3-2:7'],
    ['A -...-> B', 'A->B dotted none/point @2:3-2:9'],
    ['A ====> B', 'A->B thick none/point @2:3-2:8'],
    ['A --o B', 'A->B normal none/circle @2:3-2:6'],
    ['A --x B', 'A->B normal none/cross @2:3-2:6'],
    ['A <--> B', 'A->B normal point/point @2:3-2:7'],
    ['A o--o B', 'A->B normal circle/circle @2:3-2:7'],
    ['A x--x B', 'A->B normal cross/cross @2:3-2:7'],
    ['A <-.-> B', 'A->B dotted point/point @2:3-2:8'],
    ['A <==> B', 'A->B thick point/point @2:3-2:7'],
    ['A <-- both --> B', 'A->B normal point/point "both"@2:7-2:11 @2:3-2:15'],
    ['A ~~~ B', 'A->B invisible none/none @2:3-2:6'],
    ['A-->B', 'A->B normal none/point @2:2-2:5'],
    ['A -- go--> B', 'A->B normal none/point "g"@2:6-2:7 @2:3-2:11'],
  ])('%s', (written, want) => {
    expect(ast(`flowchart TD\n${written}`).edges.map(edge)).toEqual([want]);
  });

  it('records the spans of both ends', () => {
    const [e] = ast('flowchart TD\n  START([Go]) -->|ok| END_1').edges;
    expect([at(e?.fromSpan), at(e?.toSpan)]).toEqual(['2:3-2:8', '2:23-2:28']);
  });

  it('chains: each link joins the node before it to the node after it', () => {
    expect(ast('flowchart TD\nA --> B -.->|x| C ==> D').edges.map(edge)).toEqual([
      'A->B normal none/point @2:3-2:6',
      'B->C dotted none/point "x"@2:14-2:15 @2:9-2:16',
      'C->D thick none/point @2:19-2:22',
    ]);
  });

  it('& groups: every node of one side to every node of the other, in Mermaid order', () => {
    const tree = ast('flowchart TD\nA & B --> C & D');
    expect(tree.edges.map((e) => `${e.from}->${e.to} from@${at(e.fromSpan)} to@${at(e.toSpan)}`)).toEqual([
      'A->C from@2:1-2:2 to@2:11-2:12',
      'A->D from@2:1-2:2 to@2:15-2:16',
      'B->C from@2:5-2:6 to@2:11-2:12',
      'B->D from@2:5-2:6 to@2:15-2:16',
    ]);
  });

  it('declares nodes inside edges', () => {
    expect(ast('flowchart TD\nA[Start] -->|go| B{Choose?}').nodes.map(node)).toEqual([
      'A@2:1-2:2 rectangle "Start"@2:3-2:8',
      'B@2:18-2:19 rhombus "Choose?"@2:20-2:27',
    ]);
  });

  it('lets a link continue on the next line, as Mermaid does', () => {
    expect(ast('flowchart TD\n  A -->\n  B').edges.map(edge)).toEqual(['A->B normal none/point @2:5-2:8']);
  });
});

describe('statements', () => {
  it('separates statements with semicolons, several per line', () => {
    const tree = ast('flowchart TD\nA --> B; B --> C;C-->D\nE[e];F[f]');
    expect(tree.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['A->B', 'B->C', 'C->D']);
    expect(tree.nodes.map(node).slice(-2)).toEqual(['E@3:1-3:2 rectangle "e"@3:3-3:4', 'F@3:6-3:7 rectangle "f"@3:8-3:9']);
  });

  it('skips comment lines, indented or not', () => {
    const tree = ast('flowchart TD\n    %% one\n%% two --> [x]\n    A --> B\n    %%\n');
    expect(tree.nodes.map(node)).toEqual(['A@4:5-4:6', 'B@4:11-4:12']);
  });

  it('parses and ignores styling and interaction statements', () => {
    const source = [
      'flowchart TD',
      '  A --> B',
      '  classDef hot fill:#f96,stroke:#333,stroke-width:2px;',
      '  classDef default fill:#eee',
      '  class A,B hot',
      '  style B fill:#bbf,stroke-dasharray: 5 5',
      '  linkStyle 0 stroke:#ff3,stroke-width:4px',
      '  linkStyle default interpolate basis',
      '  click A callback "Tooltip"',
      '  click B call notify(42)',
      '  click A href "https://example.com" "Open" _blank',
      '  accTitle: A title',
      '  accDescr: A description',
    ].join('\n');
    const tree = ast(source);
    expect(tree.nodes.map((n) => n.id)).toEqual(['A', 'B']);
    expect(tree.edges).toHaveLength(1);
  });

  it('reads direction statements and drops a line that mentions a direction, as Mermaid does', () => {
    const tree = ast('flowchart LR\n  direction TB\n  A --> B\n  C[go direction LR] --> D');
    expect(tree.nodes.map((n) => n.id)).toEqual(['A', 'B']);
  });
});

describe('subgraphs', () => {
  it('groups the nodes written directly inside, with ids and titles as Mermaid reads them', () => {
    const source = [
      'flowchart TB',
      '  subgraph one [Checkout]',
      '    A --> B',
      '    subgraph inner',
      '      direction LR',
      '      C',
      '    end',
      '    B --> A',
      '  end',
      '  subgraph "Payment step"',
      '    D',
      '  end',
      '  subgraph "quoted"',
      '  end',
    ].join('\n');
    const tree = ast(source);
    expect(tree.subgraphs.map((s) => [s.id, s.title, at(s.span), s.nodeIds])).toEqual([
      ['one', 'Checkout', '2:3-9:6', ['A', 'B']],
      ['inner', null, '4:5-7:8', ['C']],
      // Mermaid numbers generated ids in the order subgraphs close: inner, one, then this one.
      ['subGraph2', 'Payment step', '10:3-12:6', ['D']],
      ['quoted', 'quoted', '13:3-14:6', []],
    ]);
    expect(tree.nodes.map((n) => n.id)).toEqual(['A', 'B', 'C', 'B', 'A', 'D']);
  });
});

describe('warnings and unsupported syntax', () => {
  it('strips a %% comment after a statement and warns (SOP013), keeping the statement', () => {
    const result = parseFlowchart('flowchart TD %% header\n  A --> B %% note  \n  B --> C;%% after ;');
    expect(result.problems.map((p) => [p.code, at(p.span)])).toEqual([
      ['SOP013', '1:14-1:23'],
      ['SOP013', '2:11-2:18'],
      ['SOP013', '3:11-3:21'],
    ]);
    expect(result.ast?.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['A->B', 'B->C']);
  });

  it('reports flowchart-elk and the BR direction as not supported', () => {
    expect(parseFlowchart('flowchart-elk TD\nA').problems.map((p) => [p.code, at(p.span)])).toEqual([['SOP014', '1:1-1:14']]);
    expect(parseFlowchart('flowchart BR\nA').problems.map((p) => [p.code, at(p.span)])).toEqual([['SOP014', '1:11-1:13']]);
  });
});

describe("Mermaid 11's @{ … } shape data", () => {
  it('sets the shape and the label, read as markdown, with the span of the label as written', () => {
    const tree = ast('flowchart TD\nA@{ shape: diamond, label: "Ok?" } --> B');
    expect(tree.nodes.map(node)).toEqual(['A@2:1-2:2 rhombus "Ok?"@2:28-2:33', 'B@2:40-2:41']);
    expect(tree.nodes[0]?.labelType).toBe('markdown');
    expect(tree.edges.map(edge)).toEqual(['A->B normal none/point @2:36-2:39']);
  });

  it.each([
    ['rect', 'rectangle'],
    ['process', 'rectangle'],
    ['rounded', 'round'],
    ['pill', 'stadium'],
    ['fr-rect', 'subroutine'],
    ['db', 'cylinder'],
    ['diam', 'rhombus'],
    ['decision', 'rhombus'],
    ['question', 'rhombus'],
    ['choice', 'rhombus'],
    ['hex', 'hexagon'],
    ['lean-r', 'parallelogram'],
    ['out-in', 'parallelogram-alt'],
    ['trap-b', 'trapezoid'],
    ['inv-trapezoid', 'trapezoid-alt'],
    ['doublecircle', 'double-circle'],
    ['odd', 'asymmetric'],
    ['doc', 'document'],
    ['brace-r', 'curly-brace-right'],
    ['fork', 'filled-rectangle'],
    ['lin-cyl', 'lined-cylinder'],
    ['state', 'state'],
  ])('shape: %s is a %s', (name, type) => {
    expect(ast(`flowchart TD\nA@{ shape: ${name} }`).nodes[0]?.shape).toBe(type);
  });

  it('comes after the delimiters and :::class, and sets the shape they gave', () => {
    expect(ast('flowchart TD\nA[Ask]:::hot@{ shape: diamond } --> B').nodes.map(node)[0]).toBe('A@2:1-2:2 rhombus "Ask"@2:3-2:6 :::hot');
  });

  it('may set only the label, or nothing', () => {
    expect(ast('flowchart TD\nA@{ label: "Only text" }\nB@{ }').nodes.map(node)).toEqual(['A@2:1-2:2 "Only text"@2:12-2:23', 'B@3:1-3:2']);
  });

  it('applies to the last node of an & group, each node taking its own', () => {
    const tree = ast('flowchart TD\nA@{ shape: doc } & B@{ shape: cyl } --> C@{ shape: hex }');
    expect(tree.nodes.map((n) => `${n.id}:${n.shape}`)).toEqual(['A:document', 'B:cylinder', 'C:hexagon']);
    expect(tree.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['A->C', 'B->C']);
  });

  it('reads YAML over several lines, a line break inside quotes becoming <br/> as in Mermaid', () => {
    const tree = ast('flowchart TD\nA@{\n  shape: stadium\n  label: "first\n     second"\n} --> B');
    expect(tree.nodes.map(node)).toEqual(['A@2:1-2:2 stadium "first<br/>second"@4:10-5:13', 'B@6:7-6:8']);
  });

  it('decodes entity codes in the label, before YAML could read a # as a comment', () => {
    const tree = ast('flowchart TD\nA@{ label: "a #amp; b #35;1" }\nB@{ label: x #quot;y }');
    expect(tree.nodes.map((n) => n.label)).toEqual(['a & b #1', 'x "y']);
  });

  it('blanks the label of an icon node that shows its id, as Mermaid does', () => {
    const tree = ast('flowchart TD\nA@{ icon: "fa:user", form: circle }\nB[Named]@{ icon: "fa:user" }');
    expect(tree.nodes.map((n) => [n.id, n.label])).toEqual([
      ['A', ''],
      ['B', 'Named'],
    ]);
  });

  it("is a subgraph's metadata after a subgraph with that id, and an edge's after an edge with that id", () => {
    const tree = ast('flowchart TD\nsubgraph S\n  A\nend\nS@{ view: collapsed }\nA e1@--> B\ne1@{ animate: true, shape: none }');
    expect(tree.nodes.map(node)).toEqual(['A@3:3-3:4', 'S@5:1-5:2', 'A@6:1-6:2', 'B@6:10-6:11']);
  });

  it.each([
    ['A@{ shape: diamnd }', "SOP012@2:12-2:18 Mermaid has no shape 'diamnd'", "Did you mean 'diamond'?"],
    ['A@{ shape: Diamond }', "SOP012@2:12-2:19 Mermaid has no shape 'Diamond': shape names are lower case", "Did you mean 'diamond'?"],
    [
      'A@{ shape: lean_right }',
      "SOP012@2:12-2:22 Mermaid has no shape 'lean_right': shape names are lower case",
      "Did you mean 'lean-right'?",
    ],
    ['A@{ shape: 12 }', 'SOP012@2:12-2:14 The shape must be a name', 'diamond'],
    ['A@{ shape: rect label: "x" }', 'SOP012@2:', 'key: value'],
    ['A@{ shape: rect }@{ label: "x" }', 'SOP012@2:', 'key: value'],
    ['A@{ label: [1, 2] }', 'SOP012@2:12-2:18 The label must be text', 'Quote the label'],
    ['A@{ icon: "fa:user", label: 12 }', 'SOP012@2:29-2:31 The label of a node with an icon or an image must be text', 'label: "12"'],
    ['A@{ shape: rect', "SOP012@2:2-2:4 Unclosed '@{'", "'}'"],
    ['A@{\n}', 'SOP012@2:2-3:2 Empty shape data over several lines', 'key: value'],
    ['A@{ shape: rect }:::hot', "SOP012@2:18-2:21 A ':::class' must come before '@{ … }'", 'A:::class@{'],
  ])('%j is an error at its position', (written, want, remediation) => {
    const result = parseFlowchart(`flowchart TD\n${written}`);
    expect(result.ast).toBeNull();
    const [first] = result.problems.map((p) => `${p.code}@${at(p.span)} ${p.message}`);
    expect(first?.startsWith(want), first).toBe(true);
    expect(result.problems[0]?.remediation).toContain(remediation);
  });

  it('warns about keys Mermaid ignores (SOP019) and labels it cannot draw (SOP018), and keeps the node', () => {
    const result = parseFlowchart('flowchart TD\nA@{ shape: rect, lable: "x" }\nB@{ label: 12 }');
    expect(result.problems.map((p) => [p.code, at(p.span), p.remediation])).toEqual([
      ['SOP019', '2:18-2:23', "Did you mean 'label'?"],
      ['SOP018', '3:12-3:14', 'Quote the label: label: "12".'],
    ]);
    expect(result.ast?.nodes.map((n) => [n.id, n.shape, n.label])).toEqual([
      ['A', 'rectangle', undefined],
      ['B', undefined, '12'],
    ]);
  });
});

describe('edge ids', () => {
  it('reads an edge id, which becomes part of the link', () => {
    const tree = ast('flowchart TD\nA e1@-->|yes| B\nC e2@-- text --> D');
    expect(tree.edges.map((e) => `${e.id} ${edge(e)}`)).toEqual([
      'e1 A->B normal none/point "yes"@2:10-2:13 @2:3-2:14',
      'e2 C->D normal none/point "text"@3:9-3:13 @3:3-3:17',
    ]);
  });

  it('gives the id to the edge from the last source to the first target, and to the first edge that uses it', () => {
    const tree = ast('flowchart TD\nA & B e1@--> C & D\nA e1@--> D');
    expect(tree.edges.map((e) => `${e.from}->${e.to}:${e.id ?? '-'}`)).toEqual(['A->C:-', 'A->D:-', 'B->C:e1', 'B->D:-', 'A->D:-']);
  });

  it('makes no node of an id that names an edge defined above, as Mermaid does', () => {
    const tree = ast('flowchart TD\ne0 --> X\nA e1@--> B\ne1\nC --> e1\nD --> L_e0_X_0');
    expect([...new Set(tree.nodes.map((n) => n.id))]).toEqual(['e0', 'X', 'A', 'B', 'C', 'D']);
    expect(tree.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['e0->X', 'A->B', 'C->e1', 'D->L_e0_X_0']);
  });
});

describe('entity codes', () => {
  it.each([
    ['A[#quot;hi#quot;]', '"hi"'],
    ['A[#35; #amp; #lt;b#gt;]', '# & <b>'],
    ['A[#9829; #x41; #foo;]', '♥ &x41; &foo;'],
    ['A[#notit; #150; #0;]', '¬it; – \uFFFD'],
    ['A["x#nbsp;"]', 'x\u00A0'],
    ['A["`**#quot;md#quot;**`"]', '**"md"**'],
    ['A[style fill:#f00;]', 'style fill:#f00'],
  ])('%s shows %j', (written, label) => {
    expect(ast(`flowchart TD\n${written}`).nodes[0]?.label).toBe(label);
  });

  it('are decoded in edge text and subgraph titles too', () => {
    const tree = ast(
      'flowchart TD\nA -->|#lt;ok#gt;| B -- say #quot;x#quot; --> C\nsubgraph s1 [Ship #amp; bill]\nend\nsubgraph "Pay #amp; go"\nend',
    );
    expect(tree.edges.map((e) => e.label)).toEqual(['<ok>', 'say "x"']);
    expect(tree.subgraphs.map((s) => s.title)).toEqual(['Ship & bill', 'Pay & go']);
  });
});
