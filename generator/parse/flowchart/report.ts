/**
 * The last step: every stage's problems in source order, as block spans of the author's text (the preprocessor's
 * are at offsets in that text, the others at offsets in Mermaid's), and the AST withheld when there is a syntax
 * error (a half-read graph must not reach the model).
 */
import type { BlockSpan, FlowchartAst, FlowchartParseResult, FlowchartProblem } from './ast.js';
import type { RawProblem } from './problem.js';
import type { LineIndex } from './source/lines.js';

export function report(
  ast: FlowchartAst | null,
  raw: { readonly preprocessing: readonly RawProblem[]; readonly parsing: readonly RawProblem[] },
  lines: LineIndex,
): FlowchartParseResult {
  const located = [
    ...raw.preprocessing.map((p) => ({ p, span: lines.originalSpan(p.start, p.end) })),
    ...raw.parsing.map((p) => ({ p, span: lines.span(p.start, p.end) })),
  ];
  const problems = located.sort(bySourceOrder).map(({ p, span }): FlowchartProblem => {
    const problem = { code: p.code, message: p.message, span };
    return p.remediation === undefined ? problem : { ...problem, remediation: p.remediation };
  });
  const failed = problems.some((p) => p.code === 'SOP012');
  return { ast: failed ? null : ast, problems };
}

function bySourceOrder(a: { p: RawProblem; span: BlockSpan }, b: { p: RawProblem; span: BlockSpan }): number {
  const x = a.span.start;
  const y = b.span.start;
  return x.line - y.line || x.column - y.column || (a.p.code < b.p.code ? -1 : a.p.code > b.p.code ? 1 : 0);
}
