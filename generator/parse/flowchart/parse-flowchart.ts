/**
 * Entry point of the flowchart parser: the text of a ```mermaid block in, its AST and problems out, all in block
 * coordinates. The pipeline is visible here: preprocess (blank what Mermaid strips) → scan (`Lexer`, Mermaid's
 * lexer rule for rule) → parse (header, then statements, with error recovery) → AST.
 *
 * It accepts what Mermaid 11 accepts, and reads the same graph, except on purpose:
 * - a `%%` comment after a statement is stripped with a warning (SOP013); Mermaid fails on it;
 * - Mermaid 11's `A@{ … }` shapes and edge ids (`e1@-->`), the `(-text-)` and `[|field:value|text]` forms,
 *   `flowchart-elk` and direction `BR` are reported as not supported yet (SOP014);
 * - a bare `%%` line is an empty comment (Mermaid draws a node called `%%`);
 * - `A <-- text --x B`, whose arrowheads disagree, is an error (Mermaid keeps an edge of type INVALID);
 * - `style X …` does not make X a node (Mermaid creates a node for an undeclared X);
 * - labels are kept as written: Mermaid's HTML sanitizer is not applied, and markdown strings keep their backticks.
 * Not checked: that front matter is valid YAML, and Mermaid's default limit of 500 edges.
 */
import type { FlowchartParseResult, FlowchartProblem } from './ast.js';
import { AstBuilder } from './ast-builder.js';
import { Lexer } from './lexer.js';
import { LineIndex } from './line-index.js';
import type { ParseContext } from './parse-context.js';
import { parseDocument } from './parse-document.js';
import { parseHeader } from './parse-header.js';
import { preprocess } from './preprocess.js';
import type { RawProblem } from './problem.js';
import { TokenStream } from './token-stream.js';

/**
 * Parses a Mermaid flowchart.
 * @param source the text inside the ```mermaid fence (line 1 = its first line).
 * @param origin where that first line starts in the `.md` file: spans stay block positions, but positions quoted
 *   inside messages ("opened at 14:9") are file positions, as the author reads them.
 * @returns the AST (null when the text is not a flowchart or has a syntax error, SOP012) and every problem found,
 *   in source order.
 */
export function parseFlowchart(source: string, origin = { line: 1, column: 1 }): FlowchartParseResult {
  const pre = preprocess(source);
  const lines = new LineIndex(pre.original);
  const text = `${pre.text}\n`;
  const comments = new Map<number, RawProblem>();
  const lexer = new Lexer(text, (start, end) => {
    comments.set(start, {
      code: 'SOP013',
      message: "A '%%' comment shares a line with a statement; Mermaid renderers reject it, so it was ignored",
      start,
      end,
      remediation: 'Move the comment to a line of its own.',
    });
  });
  const ctx: ParseContext = {
    stream: new TokenStream(lexer),
    ast: new AstBuilder(lines),
    problems: [...pre.problems],
    text,
    lines,
    origin,
  };
  const start = parseHeader(ctx);
  const header = 'header' in start ? start.header : null;
  if (header) parseDocument(ctx);
  // After an unclosed front matter or directive swallowed the text, "not a flowchart" would only repeat it.
  else if ('notAFlowchart' in start && pre.problems.length === 0) ctx.problems.push(start.notAFlowchart);
  const raw = [...ctx.problems, ...comments.values()].sort((a, b) => a.start - b.start || (a.code < b.code ? -1 : 1));
  const problems = raw.map((p): FlowchartProblem => {
    const problem = { code: p.code, message: p.message, span: lines.span(p.start, p.end) };
    return p.remediation === undefined ? problem : { ...problem, remediation: p.remediation };
  });
  const failed = raw.some((p) => p.code === 'SOP012');
  return { ast: header && !failed ? ctx.ast.build(header) : null, problems };
}
