/**
 * The preprocessor makes Mermaid's text, step for step, and maps every character back to where the author wrote
 * it. Table tests: the author's text in, Mermaid's text out (with the `\n` Mermaid appends). The differential test
 * checks the same steps against Mermaid itself through the graphs it reads.
 */
import { describe, expect, it } from 'vitest';
import { preprocess } from '../../../../../generator/parse/flowchart/source/preprocess.js';

const mermaidText = (source: string): string => preprocess(source).text.text;

describe("Mermaid's text", () => {
  it.each([
    ['nothing to do', 'flowchart TD\nA --> B', 'flowchart TD\nA --> B\n'],
    ['line breaks', 'flowchart TD\r\nA\rB', 'flowchart TD\nA\nB\n'],
    ['front matter', '---\ntitle: x\n---\nflowchart TD', 'flowchart TD\n'],
    ['indented front matter', '  ---\n  title: x\n  ---\n\nflowchart TD', 'flowchart TD\n'],
    ['front matter after a comment (second pass)', '%% c\n---\ntitle: x\n---\nflowchart TD', 'flowchart TD\n'],
    ['fences one line apart are not front matter (reported, the rest dropped)', '---\n---\nflowchart TD', '\n'],
    ['the closing fence after the last blank line wins', '---\n\n---\nx\n---\nflowchart TD', 'flowchart TD\n'],
    ['a directive', '%%{init: {"theme": "dark"}}%%\nflowchart TD', 'flowchart TD\n'],
    ['a directive inside a statement', 'flowchart TD\nA%%{init: {}}%%B', 'flowchart TD\nAB\n'],
    ['a directive whose value is a word ends after it', 'flowchart TD\nA %%{init: word rest}%%', 'flowchart TD\nA rest}%%\n'],
    ['comment lines, with the blank lines before them', 'flowchart TD\nA[x\n\n  %% c\n  y]', 'flowchart TD\nA[x\n  y]\n'],
    ['a bare %% line (ours: a comment)', 'flowchart TD\n%%\nA', 'flowchart TD\nA\n'],
    ['%%{ that is no directive stays', 'flowchart TD\n%%{ }\nA', 'flowchart TD\n%%{ }\nA\n'],
    ['leading blanks', '\n\n   flowchart TD', 'flowchart TD\n'],
    ['the last ; of a style line', 'flowchart TD\nstyle A fill:#f00;', 'flowchart TD\nstyle A fill:#f00\n'],
    [
      'then, on what is left, of a classDef line',
      'flowchart TD\nclassDef c stroke-style:#0f0;x;',
      'flowchart TD\nclassDef c stroke-style:#0f0x\n',
    ],
    ['no # after a colon: nothing', 'flowchart TD\nstyle A fill:red;', 'flowchart TD\nstyle A fill:red;\n'],
    ['blanks between } and the end of its line', 'flowchart TD\nA{x}   \n\n  B', 'flowchart TD\nA{x}\n  B\n'],
    ['quotes of attributes in HTML tags', 'flowchart TD\nA[<b class="x">y</b>]', "flowchart TD\nA[<b class='x'>y</b>]\n"],
  ])('%s', (_, source, want) => {
    expect(mermaidText(source)).toBe(want);
  });

  it('keeps the characters as written beside the rewritten ones', () => {
    expect(preprocess('flowchart TD\nA[<b class="x">y</b>]').text.written).toBe('flowchart TD\nA[<b class="x">y</b>]\n');
  });

  it('maps every character back to where it was written', () => {
    const { text, original } = preprocess('%% comment\n---\ntitle: x\n---\n  flowchart TD\n  %% c\n  A%%{init: {}}%%B');
    expect(text.text).toBe('flowchart TD\n  AB\n');
    const at = (offset: number): string => original.slice(text.originOf(offset), text.originOf(offset) + 2);
    expect([at(0), at(15), at(16)]).toEqual(['fl', 'A%', 'B']);
  });

  it("reports an unclosed directive and unclosed front matter at the author's offsets", () => {
    expect(preprocess('flowchart TD\n  %%{init: {\nA').problems.map((p) => [p.start, p.message])).toEqual([
      [15, "Unclosed directive '%%{': expected '}%%'"],
    ]);
    expect(preprocess('\n---\ntitle: x\nflowchart TD').problems.map((p) => [p.start, p.message.slice(0, 32)])).toEqual([
      [1, "Front matter opened with '---' i"],
    ]);
  });
});
