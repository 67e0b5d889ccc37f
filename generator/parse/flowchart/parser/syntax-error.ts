/**
 * `FlowchartSyntaxError` is the one exception type of the parser: a statement parser throws it at the first syntax
 * error of a statement, and the document loop catches it (`recovery.ts`), records it and resumes at the next
 * statement boundary, so authors see every broken statement at once. It never leaves the parser.
 */
import type { RawProblem } from '../problem.js';

/** How the document loop resumes after a syntax error. */
export type Resume =
  /** At the end of the text: what follows was swallowed by the construct that failed. */
  | { readonly kind: 'end' }
  /** At the next newline or `;` after the offending token (the default). */
  | { readonly kind: 'statement' }
  /** At the next newline after the offending token: the error is inside a label, where `;` is text. */
  | { readonly kind: 'line' }
  /** At the end of the line holding `offset`: an unclosed delimiter swallowed the lines after it. */
  | { readonly kind: 'after-line'; readonly offset: number };

/**
 * Thrown by statement parsers, caught by the document loop. Deliberately not an `Error`: a broken file may hold
 * thousands of them, and capturing a stack trace for each would dominate the parse time.
 */
export class FlowchartSyntaxError {
  constructor(
    readonly problem: RawProblem,
    /** End offset of the token the parser stopped at (the search for a resume point starts there). */
    readonly tokenEnd: number,
    readonly resume: Resume = { kind: 'statement' },
  ) {}
}
