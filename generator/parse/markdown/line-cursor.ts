/**
 * A position inside one line of markdown, tracking both the character offset and the visual column, because
 * CommonMark measures indentation in columns with tab stops of 4: a tab may count as one to four spaces, and a
 * block marker may consume only part of one (`>\tcode` leaves two columns of that tab to the content).
 * The cursor reads the line in place (offsets are offsets into the whole text), so scanning a line allocates
 * nothing.
 */

export class LineCursor {
  /** The line is `text` from `start` (inclusive) to `end` (exclusive, before its line break). */
  start = 0;
  end = 0;
  /** Offset of the next character to consume. */
  offset = 0;
  /** Visual column (0-based, tabs expanded) of `offset`, minus any part of a tab already consumed. */
  column = 0;
  /** True when the tab at `offset` has been consumed in part (its remaining columns are still to come). */
  partiallyConsumedTab = false;
  /** Offset and column of the first character that is not a space or a tab, from `offset` on. */
  nextNonspace = 0;
  nextNonspaceColumn = 0;
  /** Columns of blank before `nextNonspace`, counted from `column`. */
  indent = 0;
  /** True when only spaces and tabs remain. */
  blank = false;

  constructor(readonly text: string) {}

  /** Moves to the line from `start` to `end`. */
  reset(start: number, end: number): void {
    this.start = start;
    this.end = end;
    this.offset = start;
    this.column = 0;
    this.partiallyConsumedTab = false;
    this.nextNonspace = -1;
    this.findNextNonspace();
  }

  /** Recomputes `nextNonspace`, `indent` and `blank` from the current position. */
  findNextNonspace(): void {
    // Moving inside the run of blanks does not move the next non-blank: only the indent changes.
    if (this.offset <= this.nextNonspace) {
      this.indent = this.nextNonspaceColumn - this.column;
      return;
    }
    const text = this.text;
    let i = this.offset;
    let cols = this.column;
    for (; i < this.end; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) cols++;
      else if (c === 9) cols += 4 - (cols % 4);
      else break;
    }
    this.blank = i >= this.end;
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = cols - this.column;
  }

  /** The character code at `nextNonspace` (NaN at the end of the line). */
  peekNonspace(): number {
    return this.nextNonspace < this.end ? this.text.charCodeAt(this.nextNonspace) : Number.NaN;
  }

  /** The character code at `offset` (NaN at the end of the line). */
  peek(): number {
    return this.offset < this.end ? this.text.charCodeAt(this.offset) : Number.NaN;
  }

  /** Moves to `nextNonspace`, consuming the blanks before it. */
  advanceToNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  /** Consumes `count` characters (a tab counts as one character). */
  advanceChars(count: number): void {
    const text = this.text;
    for (; count > 0 && this.offset < this.end; count--) {
      if (text.charCodeAt(this.offset) === 9) this.column += 4 - (this.column % 4);
      else this.column++;
      this.offset++;
      this.partiallyConsumedTab = false;
    }
  }

  /** Consumes `count` columns; a tab wider than what is left is consumed in part. */
  advanceColumns(count: number): void {
    const text = this.text;
    while (count > 0 && this.offset < this.end) {
      if (text.charCodeAt(this.offset) === 9) {
        const width = 4 - (this.column % 4);
        if (width > count) {
          this.partiallyConsumedTab = true;
          this.column += count;
          return;
        }
        this.partiallyConsumedTab = false;
        this.column += width;
        this.offset++;
        count -= width;
      } else {
        this.partiallyConsumedTab = false;
        this.column++;
        this.offset++;
        count--;
      }
    }
  }
}
