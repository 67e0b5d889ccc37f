/**
 * Turns offsets in the scanned text into block positions (1-based line and column, UTF-16 code units, end
 * exclusive). Built once per parse from the text's line starts; lookups are a binary search, so positions cost
 * nothing until a token or a problem needs one.
 */
import type { BlockPosition, BlockSpan } from './ast.js';

export class LineIndex {
  readonly #lineStarts: number[];
  readonly #length: number;
  /** The line of the last lookup: positions are mostly asked for in text order. */
  #hint = 0;

  /** @param text the block text with `\n` line breaks (the scanner's text without its appended newline). */
  constructor(text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.#lineStarts = starts;
    this.#length = text.length;
  }

  /** The position of an offset; offsets past the end are clamped to the end of the text. */
  position(offset: number): BlockPosition {
    const at = Math.min(Math.max(offset, 0), this.#length);
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    const hint = this.#hint;
    if ((starts[hint] as number) <= at && (hint + 1 > hi || (starts[hint + 1] as number) > at)) lo = hi = hint;
    else if (hint + 1 <= hi && (starts[hint + 1] as number) <= at && (hint + 2 > hi || (starts[hint + 2] as number) > at)) lo = hi = hint + 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    this.#hint = lo;
    return { line: lo + 1, column: at - (starts[lo] as number) + 1 };
  }

  span(start: number, end: number): BlockSpan {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }
}
