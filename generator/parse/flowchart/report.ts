/**
 * The last step: every stage's problems in source order, as block spans, and the AST withheld when there is a
 * syntax error (a half-read graph must not reach the model).
 */
import type { FlowchartAst, FlowchartParseResult, FlowchartProblem } from './ast.js';
import type { RawProblem } from './problem.js';
import type { LineIndex } from './source/lines.js';

export function report(ast: FlowchartAst | null, raw: readonly RawProblem[], lines: LineIndex): FlowchartParseResult {
  const sorted = [...raw].sort((a, b) => a.start - b.start || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const problems = sorted.map((p): FlowchartProblem => {
    const problem = { code: p.code, message: p.message, span: lines.span(p.start, p.end) };
    return p.remediation === undefined ? problem : { ...problem, remediation: p.remediation };
  });
  const failed = sorted.some((p) => p.code === 'SOP012');
  return { ast: failed ? null : ast, problems };
}
