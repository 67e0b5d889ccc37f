/**
 * Error recovery. A statement parser throws `FlowchartSyntaxError` at its first syntax error; `recovering` records
 * the problem and restarts the scanner at the next statement boundary, so the following statements are still
 * checked. Recovery never loops (it always moves past the failed statement's start) and never makes parsing
 * quadratic (once recovery has sent the scanner back over as much text as the block holds, it stops).
 */
import type { ParseContext } from './parse-context.js';
import { CH } from '../source/char-class.js';
import { lineEnd } from '../source/lines.js';
import { FlowchartSyntaxError } from './syntax-error.js';

/**
 * Runs `parse`; on a syntax error, records it and resumes at the next statement boundary.
 * @param statementStart offset of the statement's first token (recovery always moves past it).
 * @returns what `parse` returned, or undefined after an error.
 */
export function recovering<T>(ctx: ParseContext, statementStart: number, parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof FlowchartSyntaxError)) throw error;
    ctx.problems.push(error.problem);
    ctx.tally.syntaxErrors++;
    ctx.stream.reset(resumeOffset(ctx, error, statementStart));
    return undefined;
  }
}

/**
 * Where to go on after a syntax error: past the offending token to the next new line (or `;`, unless the error is
 * inside a label, where `;` is text), or, for an unclosed delimiter, to the end of the line that opened it.
 */
function resumeOffset(ctx: ParseContext, error: FlowchartSyntaxError, statementStart: number): number {
  const text = ctx.text;
  if (error.resume.kind === 'end' || ctx.stream.rescanned > 2 * text.length) return text.length;
  if (error.resume.kind === 'after-line') return Math.max(lineEnd(text, error.resume.offset), statementStart + 1);
  const from = Math.max(error.problem.start, error.tokenEnd - 1);
  let at = lineEnd(text, from);
  if (error.resume.kind === 'statement') {
    for (let p = from; p < at; p++) {
      if (text.charCodeAt(p) === CH.semi) {
        at = p;
        break;
      }
    }
  }
  return Math.max(at, statementStart + 1);
}
