/**
 * Syntax errors: each is SOP012 at the offending token (line:column in the block), worded like a compiler, with
 * a remediation where one can be given; parsing goes on after a broken statement so every error is reported,
 * and the AST is then null.
 */
import { describe, expect, it } from 'vitest';
import type { FlowchartProblem } from '../../../../generator/parse/flowchart/ast.js';
import { compileSop } from '../../../../generator/compile-sop.js';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';

const where = (p: FlowchartProblem): string => `${p.span.start.line}:${p.span.start.column}`;

describe('syntax errors (SOP012)', () => {
  it.each([
    [
      'not a flowchart',
      'sequenceDiagram\n  A->>B: hi',
      '1:1',
      "Expected 'flowchart' or 'graph' at the start of the diagram but found 'sequenceDiagram'",
    ],
    ['empty block', '\n', '2:1', 'The mermaid block is empty'],
    ['upper-case keyword', 'Flowchart TD\nA', '1:1', "(keywords are lower case: 'flowchart')"],
    ['unknown direction', 'flowchart XY\nA', '1:11', "Unknown direction 'XY'"],
    ['statement on the header line', 'flowchart TD A --> B', '1:14', "Expected a new line or ';' after 'flowchart TD' but found 'A'"],
    ['unclosed front matter', '---\ntitle: x\nflowchart TD\nA', '1:1', "Front matter opened with '---' is never closed"],
    ['unclosed directive', '%%{init: {}\nflowchart TD\nA', '1:1', "Unclosed directive '%%{'"],
    ['missing target', 'flowchart TD\n  A -->', '2:8', "Expected a node id after '-->' but found end of input"],
    ['label without target', 'flowchart TD\n  A -->|yes|\n  B', '2:13', "Expected a node id after '-->|yes|' but found end of line"],
    ['label but no node', 'flowchart TD\n  A --> B --> |x|', '2:18', "Expected a node id after '--> |x|' but found end of line"],
    ['two spaces after an edge label', 'flowchart TD\n  A -->|x|  B', '2:12', "Expected a node id after '|x|' but found a second space"],
    [
      'unclosed bracket',
      'flowchart TD\n  A[Start --> B\n  B --> C[end]',
      '2:4',
      "Unclosed '[' opened at 2:4: expected ']' before '[' at 3:10",
    ],
    ['unclosed edge label', 'flowchart TD\n  A -->|yes B', '2:8', "Unclosed '|' opened at 2:8: expected '|' before end of input"],
    [
      'mismatched brackets',
      'flowchart TD\n  A[text) --> B',
      '2:9',
      "Expected ']' to close '[' opened at 2:4 in the label of node 'A' but found ')'",
    ],
    ['parenthesis in a label', 'flowchart TD\n  A[Call f(x)] --> B', '2:11', "'(' cannot appear inside the label of node 'A'"],
    ['quote inside a label', 'flowchart TD\n  A[Say "hi"] --> B', '2:9', "Quotes must enclose the whole label of node 'A'"],
    ['empty label', 'flowchart TD\n  A[] --> B', '2:5', "Empty label: node 'A' has nothing between '[' and ']'"],
    ['empty quoted label', 'flowchart TD\n  A[""] --> B', '2:7', 'Empty label'],
    ['space before a shape', 'flowchart TD\n  A [Start] --> B', '2:5', 'A shape must follow its node id directly'],
    ['end as a node id', 'flowchart TD\n  A --> end', '2:9', "'end' is a Mermaid keyword and cannot be used as a node id"],
    ['class as a node id', 'flowchart TD\n  class --> B', '2:3', "'class' is a Mermaid keyword"],
    ['subgraph as a node id', 'flowchart TD\n  subgraph-->B\n  end', '2:3', "'subgraph' is a Mermaid keyword"],
    ['quoted node id', 'flowchart TD\n  A --> "B"', '2:9', 'Expected a node id after \'-->\' but found the string "B"'],
    ['single equals', 'flowchart TD\n  A = B', '2:5', "Unexpected '=': a thick link is written '==>'"],
    ['stray closing bracket', 'flowchart TD\n  A] --> B', '2:4', "Unexpected ']' without a matching opening bracket"],
    ['ampersand without space', 'flowchart TD\n  A &B --> C', '2:6', "Expected a space after '&' but found 'B'"],
    ['two classes', 'flowchart TD\n  A:::x:::y', '2:8', "Node 'A' already has a ':::class'"],
    ['unclosed inline edge text', 'flowchart TD\n  A -- text B', '2:5', "Edge text opened with '--' at 2:5 is never closed"],
    ['double dash inside edge text', 'flowchart TD\n  A -- a -- b --> B', '2:10', "Unexpected '--' inside edge text"],
    ['dot inside dotted edge text', 'flowchart TD\n  A -. e.g. .-> B', '2:9', "A '.' cannot appear inside dotted edge text"],
    ['mismatched arrowheads', 'flowchart TD\n  A <-- x --x B', '2:5', "The arrowheads of '<-- x --x' do not match"],
    ['@ in an unquoted label', 'flowchart TD\n  A[me@home]', '2:3', "Mermaid reads 'A[me@' as an edge id"],
    ['entity outside a label', 'flowchart TD\n  A --> B\n  linkStyle 0 stroke:#f00;', '3:22', "Mermaid reads '#f00;' as an entity"],
    ['emoji as a node id', 'flowchart TD\n  A --> 🙂', '2:9', "Unexpected character '🙂'"],
    ['subgraph without id', 'flowchart TD\n  subgraph\n  A\n  end', '2:3', 'A subgraph needs an id or a title'],
    [
      'blanks after a subgraph title',
      'flowchart TD\n  subgraph one [Title]  \n  A\n  end',
      '2:23',
      'after the subgraph title but found spaces',
    ],
    ['unclosed subgraph', 'flowchart TD\n  subgraph one\n  A', '2:3', "Unclosed 'subgraph' opened at 2:3: expected 'end'"],
    ['end without subgraph', 'flowchart TD\n  A\n  end', '3:3', "'end' without a matching 'subgraph'"],
    [
      'linkStyle out of range',
      'flowchart TD\n  A --> B\n  linkStyle 1 stroke:#f00',
      '3:13',
      'linkStyle 1 is out of range: the links above are numbered 0 to 0',
    ],
    ['linkStyle before any link', 'flowchart TD\n  linkStyle 0 stroke:#f00\n  A --> B', '2:13', 'no link is defined above it'],
    ['style with parentheses', 'flowchart TD\n  A\n  style A fill:rgb(1,2,3)', '3:19', 'Mermaid styles cannot contain parentheses'],
    ['two spaces in a style', 'flowchart TD\n  A\n  style  A fill:#f00', '3:9', "Expected a single space after 'style' but found several"],
    [
      'click without action',
      'flowchart TD\n  A\n  click A',
      '3:10',
      "Expected a callback name, 'call', 'href' or a quoted URL after 'click A' but found end of input",
    ],
  ])('%s', (_, source, position, message) => {
    const result = parseFlowchart(source);
    expect(result.ast).toBeNull();
    const [first] = result.problems.filter((p) => p.code === 'SOP012');
    expect(first && [where(first), first.message.includes(message) ? message : first.message]).toEqual([position, message]);
  });

  it('gives remediations that say what to write instead', () => {
    const remediation = (source: string): string | undefined => parseFlowchart(source).problems[0]?.remediation;
    expect(remediation('flowchart TD\n  A[Call f(x)]')).toContain('A["f(x) | y"]');
    expect(remediation('flowchart TD\n  A [x]')).toBe("Write 'A[…' without the space.");
    expect(remediation('flowchart TD\n  A --> end')).toBe("Rename the node, e.g. 'End' or 'end_node'.");
    expect(remediation('flowchart TD\n  A -->|x|  B')).toBe('Leave at most one space between the edge label and the target node.');
  });

  it('reports every broken statement, resuming at the next line or semicolon', () => {
    const source = [
      'flowchart TD',
      '  A --> B',
      '  C[x(y)] --> D; E --> F',
      '  D --> E',
      '  E [bad] --> F',
      '  subgraph s1',
      '    G{{x}',
      '    H --> I',
      '    J]',
      '  end',
      '  K --> end',
    ].join('\n');
    const result = parseFlowchart(source);
    expect(result.ast).toBeNull();
    expect(result.problems.map((p) => `${p.code} ${where(p)}`)).toEqual([
      'SOP012 3:6',
      'SOP012 5:5',
      'SOP012 7:6',
      'SOP012 9:6',
      'SOP012 11:9',
    ]);
  });

  it('resumes after the line that opened an unclosed label', () => {
    const result = parseFlowchart('flowchart TD\n  A[Start --> B\n  B --> C\n  C --> D(\n  D --> E');
    expect(result.problems.map((p) => `${where(p)} ${p.message.split(':')[0]}`)).toEqual([
      "2:4 Unclosed '[' opened at 2",
      "4:10 Unclosed '(' opened at 4",
    ]);
  });

  it('keeps warnings next to errors, in source order', () => {
    const result = parseFlowchart('flowchart TD\n  A --> B %% note\n  B -->');
    expect(result.problems.map((p) => `${p.code} ${where(p)}`)).toEqual(['SOP013 2:11', 'SOP012 3:8']);
  });
});

describe('positions quoted in messages', () => {
  it('are file positions when the block does not start the file', () => {
    const origin = { line: 12, column: 3 };
    const messages = parseFlowchart('flowchart TD\n  A[Start --> B\n  B --> C[end]\n  C -- never\n  subgraph s\n', origin).problems.map(
      (p) => `${where(p)} ${p.message}`,
    );
    expect(messages).toEqual([
      "2:4 Unclosed '[' opened at 13:6: expected ']' before '[' at 14:12",
      "4:5 Edge text opened with '--' at 15:7 is never closed",
      "5:3 Unclosed 'subgraph' opened at 16:5: expected 'end'",
    ]);
  });

  it('are file positions in the diagnostics of a SOP', () => {
    const sop = [
      '---',
      'agent: demo',
      'version: "1"',
      'tools: []',
      '---',
      '## SOP Flowchart',
      '```mermaid',
      'flowchart TD',
      '  A[x --> B',
      '```',
      '',
    ];
    const found = compileSop('sops/demo.md', sop.join('\n')).diagnostics.find((d) => d.code === 'SOP012');
    expect([found?.line, found?.column, found?.message]).toEqual([9, 4, "Unclosed '[' opened at 9:4: expected ']' before end of input"]);
  });
});
