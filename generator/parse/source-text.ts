/**
 * Line/column bookkeeping for one source file. Every position the compiler reports is 1-based in the
 * original `.md`, so the stages that parse an embedded block (YAML, Mermaid) shift their block-relative
 * positions through here. CRLF is normalised to LF first; line numbers are unaffected.
 */
import type { SourcePosition, SourceSpan } from '../diagnostics/diagnostic.js';

export interface SourceText {
  readonly file: string;
  /** The text with `\r\n` normalised to `\n` and a leading BOM removed. */
  readonly text: string;
  /** Offsets at which each line starts (index 0 = line 1). */
  readonly lineStarts: readonly number[];
}

export function sourceText(file: string, raw: string): SourceText {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return { file, text, lineStarts };
}

export function positionAt(source: SourceText, offset: number): SourcePosition {
  let lo = 0;
  let hi = source.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((source.lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (source.lineStarts[lo] ?? 0) + 1 };
}

export function offsetAt(source: SourceText, position: SourcePosition): number {
  const start = source.lineStarts[position.line - 1] ?? source.text.length;
  return Math.min(start + position.column - 1, source.text.length);
}

export function spanOf(source: SourceText, start: number, end: number): SourceSpan {
  return { start: positionAt(source, start), end: positionAt(source, end) };
}

/** The text of one line (1-based), without its newline; used by the code frame. */
export function lineText(source: SourceText, line: number): string {
  const start = source.lineStarts[line - 1];
  if (start === undefined) return '';
  const next = source.lineStarts[line];
  return source.text.slice(start, next === undefined ? undefined : next - 1);
}
