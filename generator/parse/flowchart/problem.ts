/**
 * Problems as the stages find them: offsets into the block text (end exclusive), turned into block spans only
 * once, when the parse is reported (`report.ts`).
 */
import type { FlowchartProblem } from './ast.js';

/** A problem located by offsets in the block text (end exclusive). */
export interface RawProblem {
  readonly code: FlowchartProblem['code'];
  readonly message: string;
  readonly start: number;
  readonly end: number;
  readonly remediation?: string;
}

/** Builds an SOP012 (syntax error) raw problem. */
export function syntaxProblem(start: number, end: number, message: string, remediation?: string): RawProblem {
  return remediation === undefined ? { code: 'SOP012', message, start, end } : { code: 'SOP012', message, start, end, remediation };
}
