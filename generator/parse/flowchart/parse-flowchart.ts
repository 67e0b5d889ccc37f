/**
 * Entry point of the flowchart parser: the text of a ```mermaid block in, its AST and problems out, all in block
 * coordinates. This module only composes the stages, each in its folder:
 * `source/` (the text: preprocess what Mermaid strips, character classes, lines) → `scanner/` (tokens: Mermaid's
 * lexer rule for rule) → `parser/` (Mermaid's grammar, with error recovery, building the AST; `semantics/` says
 * what shapes, links and labels mean) → `report.ts` (problems in source order, as block spans).
 *
 * It accepts what Mermaid 11 accepts, and reads the same graph, Mermaid 11's `@{ … }` shape data, edge ids and
 * entity codes included, except on purpose:
 * - a `%%` comment after a statement is stripped with a warning (SOP013); Mermaid fails on it;
 * - `flowchart-elk` and direction `BR` are reported as not supported yet (SOP014);
 * - a bare `%%` line is an empty comment (Mermaid draws a node called `%%`);
 * - `A <-- text --x B`, whose arrowheads disagree, is an error (Mermaid keeps an edge of type INVALID);
 * - a list or a map as `@{ label: … }` is an error (Mermaid's renderer fails on it);
 * - `style X …` does not make X a node (Mermaid creates a node for an undeclared X);
 * - labels keep their HTML as written: Mermaid's HTML sanitizer is not applied.
 * Where Mermaid reads what it then cannot draw (`(-text-)`, a numeric label), we read it too and warn (SOP018).
 * Not checked: that front matter is valid YAML, and Mermaid's default limit of 500 edges.
 */
import type { BlockPosition, FlowchartParseResult } from './ast.js';
import { parseChart } from './parser/parse-chart.js';
import { report } from './report.js';
import { Lexer } from './scanner/lexer.js';
import { EntityRule } from './source/entity-rule.js';
import { LineIndex } from './source/lines.js';
import { preprocess } from './source/preprocess.js';

/**
 * Parses a Mermaid flowchart.
 * @param source the text inside the ```mermaid fence (line 1 = its first line).
 * @param origin where that first line starts in the file: positions quoted inside messages ("opened at 14:5") are
 *   file positions, like the spans of problems once shifted. Spans stay block positions.
 * @returns the AST (null when the text is not a flowchart or has a syntax error, SOP012) and every problem found,
 *   in source order.
 */
export function parseFlowchart(source: string, origin: BlockPosition = { line: 1, column: 1 }): FlowchartParseResult {
  const pre = preprocess(source);
  const lines = new LineIndex(pre.original, pre.text);
  const entities = new EntityRule(pre.text.text);
  const lexer = new Lexer(pre.text.text, entities);
  const chart = parseChart(lexer, { written: pre.text.written, entities, lines, origin }, pre.problems.length > 0);
  return report(chart.ast, { preprocessing: pre.problems, parsing: [...chart.problems, ...lexer.comments] }, lines);
}
