/**
 * Positions in a SOP's text as the compiler gives them (1-based lines and columns, columns in UTF-16 code units,
 * end exclusive) turned into offsets, and the text of a span. Over the text the compiler reads (line endings made
 * LF, no BOM), so a span always covers what the compiler saw.
 */
import { normaliseSource } from '../../contract/source-hash.js';
import type { SourcePosition, SourceSpan } from '../../generator/diagnostics/diagnostic.js';

export interface SourceLines {
  /** The text as the compiler reads it. */
  readonly text: string;
  readonly lineCount: number;
  /** The offset of a 1-based position, clamped to its line and to the text. */
  offsetOf(position: SourcePosition): number;
  /** The 1-based position of an offset. */
  positionOf(offset: number): SourcePosition;
  textOf(span: SourceSpan): string;
  /** The text of a 1-based line, without its line break ('' past the end). */
  line(line: number): string;
}

export function sourceLines(raw: string): SourceLines {
  const text = normaliseSource(raw);
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineEnd = (index: number) => (index + 1 < starts.length ? starts[index + 1]! - 1 : text.length);
  const offsetOf = (p: SourcePosition) => {
    const index = Math.min(Math.max(p.line - 1, 0), starts.length - 1);
    return Math.min(starts[index]! + Math.max(p.column - 1, 0), lineEnd(index));
  };
  return {
    text,
    lineCount: starts.length,
    offsetOf,
    positionOf(offset) {
      const at = Math.min(Math.max(offset, 0), text.length);
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid]! <= at) low = mid;
        else high = mid - 1;
      }
      return { line: low + 1, column: at - starts[low]! + 1 };
    },
    textOf: (span) => text.slice(offsetOf(span.start), offsetOf(span.end)),
    line: (n) => (n >= 1 && n <= starts.length ? text.slice(starts[n - 1]!, lineEnd(n - 1)) : ''),
  };
}

/** Whether a 1-based position lies in a span (its end included: a cursor just after a name is on it). */
export function spanContains(span: SourceSpan, p: SourcePosition): boolean {
  const afterStart = p.line > span.start.line || (p.line === span.start.line && p.column >= span.start.column);
  const beforeEnd = p.line < span.end.line || (p.line === span.end.line && p.column <= span.end.column);
  return afterStart && beforeEnd;
}
