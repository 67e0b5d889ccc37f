/**
 * Lines of the block text: where the line holding an offset starts and ends (the one line-end helper every stage
 * uses), and `LineIndex`, which turns offsets in Mermaid's text into block positions in the author's text (1-based
 * line and column, UTF-16 code units, end exclusive). Line breaks are `\n` by then (the preprocessor normalises
 * them).
 */
import type { BlockPosition, BlockSpan } from '../ast.js';
import type { MappedText } from './mapped-text.js';

/** The offset of the `\n` ending the line that holds `from` (or the end of the text). */
export function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}

/** The offset of the first character of the line that holds `at`. */
export function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}

/**
 * Offsets to positions, built once per parse from the author's line starts. Positions are mostly asked for in text
 * order, so a lookup first tries the line of the previous one (and the next line), then falls back to a binary
 * search.
 */
export class LineIndex {
  readonly #lineStarts: number[];
  readonly #length: number;
  readonly #mapped: MappedText;
  /** The line of the last lookup: positions are mostly asked for in text order. */
  #hint = 0;

  /**
   * @param original the author's block text with `\n` line breaks.
   * @param mapped Mermaid's text made from it, whose offsets the scanner and parser use.
   */
  constructor(original: string, mapped: MappedText) {
    const starts = [0];
    for (let i = original.indexOf('\n'); i !== -1; i = original.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#lineStarts = starts;
    this.#length = original.length;
    this.#mapped = mapped;
  }

  /** The position of an offset in Mermaid's text. */
  position(offset: number): BlockPosition {
    return this.originalPosition(this.#mapped.originOf(offset));
  }

  /** The span from `start` to `end` in Mermaid's text (an end before the start is taken as the start). */
  span(start: number, end: number): BlockSpan {
    const from = this.#mapped.originOf(start);
    const to = end > start ? this.#mapped.originOf(end - 1) + 1 : from;
    return this.originalSpan(from, to);
  }

  /** The span from `start` to `end` in the author's text. */
  originalSpan(start: number, end: number): BlockSpan {
    return { start: this.originalPosition(start), end: this.originalPosition(Math.max(start, end)) };
  }

  /** The position of an offset in the author's text; offsets past the end are clamped to the end. */
  originalPosition(offset: number): BlockPosition {
    const at = Math.min(Math.max(offset, 0), this.#length);
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    if (this.#holds(this.#hint, at)) lo = hi = this.#hint;
    else if (this.#holds(this.#hint + 1, at)) lo = hi = this.#hint + 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    this.#hint = lo;
    return { line: lo + 1, column: at - (starts[lo] as number) + 1 };
  }

  /** Whether line `index` (0-based) holds the offset. */
  #holds(index: number, offset: number): boolean {
    const starts = this.#lineStarts;
    if (index >= starts.length || (starts[index] as number) > offset) return false;
    return index === starts.length - 1 || (starts[index + 1] as number) > offset;
  }
}
