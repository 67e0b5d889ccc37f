/**
 * The compiler counts lines and columns from 1, in UTF-16 code units, ends exclusive; LSP counts from 0, in UTF-16
 * code units by default (the encoding this server announces), ends exclusive. So a span maps by subtracting one,
 * and nothing is re-measured.
 */
import type { Position, Range } from 'vscode-languageserver';
import type { SourcePosition, SourceSpan } from '../../generator/diagnostics/diagnostic.js';

export function toRange(span: SourceSpan): Range {
  return { start: toPosition(span.start), end: toPosition(span.end) };
}

export function toPosition(p: SourcePosition): Position {
  return { line: Math.max(p.line - 1, 0), character: Math.max(p.column - 1, 0) };
}

export function fromPosition(p: Position): SourcePosition {
  return { line: p.line + 1, column: p.character + 1 };
}
