/**
 * Text that remembers where each of its characters came from. Mermaid deletes and rewrites parts of a chart before
 * its lexer runs (front matter, directives, comment lines, a `;`, blanks after `}`, quotes in HTML tags); the
 * preprocessor does the same to a `MappedText`, so the scanner reads exactly Mermaid's text while every position
 * still points into the author's text, and `written` keeps the characters as the author wrote them (labels are
 * shown with those). Until something is deleted the map is the identity and costs nothing; after, it is one offset
 * per character.
 */

/** A range to delete, `[start, end)` in the text's own offsets. */
export interface Deletion {
  readonly start: number;
  readonly end: number;
}

export class MappedText {
  /**
   * @param text the current text.
   * @param written the same characters before any rewrite (the same length as `text`).
   * @param origins for each character, its offset in the author's text; null while they are the same.
   * @param length the length of the author's text.
   */
  private constructor(
    readonly text: string,
    readonly written: string,
    private readonly origins: Int32Array | null,
    private readonly length: number,
  ) {}

  /** Whether some characters were rewritten (then `written` differs from `text`). */
  private get rewritten(): boolean {
    return this.written !== this.text;
  }

  /** The author's text, unchanged. */
  static of(text: string): MappedText {
    return new MappedText(text, text, null, text.length);
  }

  /** Where the character at `offset` came from; an offset at or past the end maps just past the last character. */
  originOf(offset: number): number {
    const origins = this.origins;
    if (!origins) return Math.min(offset, this.length);
    if (offset < origins.length) return origins[Math.max(offset, 0)] as number;
    return origins.length === 0 ? this.length : (origins[origins.length - 1] as number) + 1;
  }

  /** The text without the given ranges (sorted, not overlapping); the same object when there are none. */
  delete(ranges: readonly Deletion[]): MappedText {
    if (ranges.length === 0) return this;
    const kept = this.text.length - ranges.reduce((sum, r) => sum + (r.end - r.start), 0);
    const origins = new Int32Array(kept);
    let text = '';
    let written = '';
    let from = 0;
    let to = 0;
    for (const range of [...ranges, { start: this.text.length, end: this.text.length }]) {
      text += this.text.slice(from, range.start);
      if (this.rewritten) written += this.written.slice(from, range.start);
      for (let i = from; i < range.start; i++) origins[to++] = this.originOf(i);
      from = range.end;
    }
    return new MappedText(text, this.rewritten ? written : text, origins, this.length);
  }

  /** The text with `suffix` appended; its characters map just past the author's text. */
  append(suffix: string): MappedText {
    const text = this.text + suffix;
    const written = this.rewritten ? this.written + suffix : text;
    if (!this.origins) return new MappedText(text, written, null, this.length);
    const origins = new Int32Array(this.origins.length + suffix.length);
    origins.set(this.origins);
    origins.fill(this.length, this.origins.length);
    return new MappedText(text, written, origins, this.length);
  }

  /** The text with characters replaced one for one (`edit` returns the new text, of the same length). */
  rewrite(edit: (text: string) => string): MappedText {
    const text = edit(this.text);
    return text === this.text ? this : new MappedText(text, this.written, this.origins, this.length);
  }
}
