/**
 * One source file's text and line starts. Positions come from remark as lines and columns; sections and
 * prompts are sliced from the text as written, so `offsetAt` turns a position back into an offset. CRLF is
 * normalised to LF first; line numbers are unaffected.
 */
import type { SourcePosition } from '../diagnostics/diagnostic.js';

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

export function offsetAt(source: SourceText, position: SourcePosition): number {
  const start = source.lineStarts[position.line - 1] ?? source.text.length;
  return Math.min(start + position.column - 1, source.text.length);
}
