/**
 * The markdown block scanner: CommonMark's block structure (spec 0.31, "Appendix: A parsing strategy"), one pass
 * over the lines, reporting the top-level blocks (`block.ts`). The compiler needs no inline markdown: prose is
 * sliced from the source as written, so this stage only has to know where headings and fenced code blocks are,
 * and which lines the containers (block quotes, list items) and opaque blocks (code, HTML) own, so that a
 * `## x` inside a list item or an HTML comment is not taken for a section.
 *
 * Why not remark-parse: micromark's edit maps made it superlinear (a 4.9 MB SOP took 9 s to parse, 1 MB of blank
 * lines 6 s, 500 KB of headings 7 s). This scanner does constant work per character and per open container on a
 * line, and keeps nothing of nested blocks but the top-level one they belong to; the differential test
 * (`test/generator/parse/markdown/`) holds it to remark's output.
 *
 * Known difference: a setext underline below a paragraph made only of link reference definitions makes a heading
 * here (CommonMark reads the definitions and no heading). No SOP writes that.
 */
import {
  type AtxHeading,
  atxHeading,
  type CodeFence,
  closesFence,
  codeFenceOpen,
  isThematicBreak,
  listMarker,
  setextUnderline,
} from './block-starts.js';
import type { MarkdownBlock, MarkdownPoint } from './block.js';
import { endsAtBlankLine, htmlBlockEndsOn, htmlBlockStart, type HtmlBlockKind } from './html-block.js';
import { LineCursor } from './line-cursor.js';

/** Columns of indentation that make a line indented code (or, in a container, too deep for a block start). */
const CODE_INDENT = 4;

type OpenKind = 'document' | 'blockquote' | 'list' | 'item' | 'paragraph' | 'fence' | 'indented' | 'html';

interface OpenBlock {
  readonly kind: OpenKind;
  readonly parent: OpenBlock | null;
  /** The open child, if any (only the last child of a block can be open). */
  child: OpenBlock | null;
  hasChildren: boolean;
  /** List items: the marker's delimiter, and the columns before the item's content (marker offset + padding). */
  readonly delimiter?: string;
  readonly contentIndent?: number;
  readonly fence?: CodeFence;
  /** Fences: columns of indentation of the opening fence, removed from each content line. */
  readonly fenceIndent?: number;
  readonly htmlKind?: HtmlBlockKind;
  /** For the block reported at the top level: what is reported when it closes. */
  readonly top?: TopRecord;
  /** The record of the top-level block that holds this one (itself included): O(1) however deep it nests. */
  readonly owner?: TopRecord;
}

/** What is known of a top-level block while it is open. */
interface TopRecord {
  readonly kind: 'paragraph' | 'blockquote' | 'list' | 'html' | 'fence' | 'indented';
  readonly start: MarkdownPoint;
  end: MarkdownPoint;
  /** Fences: the info string and the content lines (each without the fence's indentation). */
  readonly info?: string;
  readonly lines?: string[];
  /** Paragraphs: the offset in the text of each line's first non-blank character (for a setext heading's text). */
  readonly lineStarts?: number[];
}

const CAN_CONTAIN_BLOCKS = new Set<OpenKind>(['document', 'blockquote', 'item']);
const ACCEPTS_LINES = new Set<OpenKind>(['paragraph', 'fence', 'indented', 'html']);

/** The top-level blocks of `text` (`\n` line breaks), in order. */
export function scanBlocks(text: string): MarkdownBlock[] {
  return new BlockScanner(text).run();
}

class BlockScanner {
  readonly #text: string;
  readonly #out: MarkdownBlock[] = [];
  readonly #document: OpenBlock = { kind: 'document', parent: null, child: null, hasChildren: false };
  /** The deepest open block. */
  #tip: OpenBlock = this.#document;
  /** The tip when the current line started, and the deepest block the line continued. */
  #oldTip: OpenBlock = this.#document;
  #lastMatched: OpenBlock = this.#document;
  #allClosed = true;
  #cursor = new LineCursor('');
  #lineNumber = 0;
  #lineStart = 0;

  constructor(text: string) {
    this.#text = text;
  }

  run(): MarkdownBlock[] {
    const text = this.#text;
    // A final line break ends the last line; it does not start an empty one.
    for (let start = 0; start < text.length; ) {
      const newline = text.indexOf('\n', start);
      const end = newline < 0 ? text.length : newline;
      this.#line(start, end);
      start = end + 1;
    }
    const eof: MarkdownPoint =
      text.length === 0 || text.endsWith('\n')
        ? { line: this.#lineNumber + 1, column: 1, offset: text.length }
        : this.#pointAt(text.length);
    while (this.#tip !== this.#document) this.#close(this.#tip, eof);
    return this.#out;
  }

  #line(start: number, end: number): void {
    this.#lineNumber++;
    this.#lineStart = start;
    const cursor = new LineCursor(this.#text.slice(start, end));
    this.#cursor = cursor;
    this.#oldTip = this.#tip;

    // 1. Which open blocks does this line continue?
    let container = this.#document;
    let allMatched = true;
    while (container.child) {
      const child = container.child;
      cursor.findNextNonspace();
      const result = this.#continues(child);
      if (result === 'done') return;
      if (result === 'no') {
        allMatched = false;
        break;
      }
      container = child;
    }
    this.#allClosed = allMatched;
    this.#lastMatched = container;

    // 2. New block starts, as long as the container can hold them.
    let leaf = container.kind !== 'paragraph' && ACCEPTS_LINES.has(container.kind);
    while (!leaf) {
      cursor.findNextNonspace();
      const started = this.#blockStart(container);
      if (started === 'line-done') return;
      if (started === null) {
        cursor.advanceToNonspace();
        break;
      }
      container = this.#tip;
      leaf = started === 'leaf';
    }

    // 3. The rest of the line: lazy continuation, or content of the container, or a new paragraph.
    if (!this.#allClosed && !cursor.blank && this.#tip.kind === 'paragraph') {
      this.#addLine(this.#tip);
      return;
    }
    this.#closeUnmatched();
    if (ACCEPTS_LINES.has(container.kind)) {
      this.#addLine(container);
      if (container.kind === 'html' && !endsAtBlankLine(container.htmlKind!)) {
        if (htmlBlockEndsOn(container.htmlKind!, cursor.text.slice(cursor.offset))) this.#close(container, this.#lineEndPoint());
      }
    } else if (!cursor.blank) {
      cursor.advanceToNonspace();
      this.#addLine(this.#open('paragraph', this.#pointAt(this.#lineStart + cursor.offset)));
    }
  }

  /** Whether `block` continues on this line: 'yes' (the cursor moved past its marker), 'no', or 'done' (fence closed). */
  #continues(block: OpenBlock): 'yes' | 'no' | 'done' {
    const cursor = this.#cursor;
    switch (block.kind) {
      case 'blockquote':
        if (cursor.indent >= CODE_INDENT || cursor.peekNonspace() !== 62 /* > */) return 'no';
        cursor.advanceToNonspace();
        cursor.advanceChars(1);
        if (isBlankCode(cursor.text.charCodeAt(cursor.offset))) cursor.advanceColumns(1);
        return 'yes';
      case 'list':
        return 'yes';
      case 'item':
        if (cursor.blank) {
          // An item may start with one blank line, not two.
          if (!block.hasChildren) return 'no';
          cursor.advanceToNonspace();
          return 'yes';
        }
        if (cursor.indent < block.contentIndent!) return 'no';
        cursor.advanceColumns(block.contentIndent!);
        return 'yes';
      case 'fence':
        if (cursor.indent < CODE_INDENT && closesFence(cursor.text, cursor.nextNonspace, block.fence!)) {
          this.#close(block, this.#lineEndPoint());
          return 'done';
        }
        for (let i = block.fenceIndent!; i > 0 && isBlankCode(cursor.text.charCodeAt(cursor.offset)); i--) cursor.advanceColumns(1);
        return 'yes';
      case 'indented':
        if (cursor.indent >= CODE_INDENT) cursor.advanceColumns(CODE_INDENT);
        else if (cursor.blank) cursor.advanceToNonspace();
        else return 'no';
        return 'yes';
      case 'html':
        return cursor.blank && endsAtBlankLine(block.htmlKind!) ? 'no' : 'yes';
      case 'paragraph':
        return cursor.blank ? 'no' : 'yes';
      case 'document':
        return 'yes';
    }
  }

  /**
   * Opens the block that starts here, if any: a 'container' (look for more starts inside it), a 'leaf' that takes
   * the rest of the line as content, or a block that took the whole line ('line-done': headings, thematic breaks,
   * opening fences, whose info string is not content).
   */
  #blockStart(container: OpenBlock): 'container' | 'leaf' | 'line-done' | null {
    const cursor = this.#cursor;
    const line = cursor.text;
    const at = cursor.nextNonspace;
    const indented = cursor.indent >= CODE_INDENT;
    const c = cursor.peekNonspace();
    if (indented) {
      if (this.#tip.kind === 'paragraph' || cursor.blank) return null;
      cursor.advanceColumns(CODE_INDENT);
      this.#closeUnmatched();
      this.#open('indented', this.#pointAt(this.#lineStart));
      return 'leaf';
    }
    if (c === 62 /* > */) {
      cursor.advanceToNonspace();
      cursor.advanceChars(1);
      if (isBlankCode(line.charCodeAt(cursor.offset))) cursor.advanceColumns(1);
      this.#closeUnmatched();
      this.#open('blockquote', this.#pointAt(this.#lineStart + at));
      return 'container';
    }
    const heading = c === 35 /* # */ ? atxHeading(line, at) : null;
    if (heading) {
      this.#closeUnmatched();
      this.#leaf(heading, this.#pointAt(this.#lineStart + at));
      return 'line-done';
    }
    const fence = codeFenceOpen(line, at);
    if (fence) {
      this.#closeUnmatched();
      const start = this.#pointAt(this.#lineStart + at);
      this.#open('fence', start, { fence, fenceIndent: cursor.indent });
      return 'line-done';
    }
    if (c === 60 /* < */) {
      const lazyParagraph = !this.#allClosed && this.#tip.kind === 'paragraph';
      const kind = htmlBlockStart(line, at, container.kind !== 'paragraph' && !lazyParagraph);
      if (kind !== 0) {
        this.#closeUnmatched();
        this.#open('html', this.#pointAt(this.#lineStart + at), { htmlKind: kind });
        return 'leaf';
      }
    }
    const underline = container.kind === 'paragraph' ? setextUnderline(line, at) : null;
    if (underline !== null) {
      this.#closeUnmatched();
      this.#setextHeading(container, underline);
      return 'line-done';
    }
    if (isThematicBreak(line, at)) {
      this.#closeUnmatched();
      this.#leaf(null, this.#pointAt(this.#lineStart + at));
      return 'line-done';
    }
    return this.#listItemStart(container) ? 'container' : null;
  }

  #listItemStart(container: OpenBlock): boolean {
    const cursor = this.#cursor;
    const line = cursor.text;
    const marker = listMarker(line, cursor.nextNonspace);
    if (!marker) return false;
    if (container.kind === 'paragraph') {
      // Only a non-empty item, and for ordered lists one numbered 1, may interrupt a paragraph.
      let rest = marker.end;
      while (isBlankCode(line.charCodeAt(rest))) rest++;
      if (rest >= line.length || (marker.ordered && marker.start !== 1)) return false;
    }
    const markerIndent = cursor.indent;
    const markerLength = marker.end - cursor.nextNonspace;
    const markerStart = this.#pointAt(this.#lineStart + cursor.nextNonspace);
    cursor.advanceToNonspace();
    cursor.advanceChars(markerLength);
    const spacesOffset = cursor.offset;
    const spacesColumn = cursor.column;
    const spacesTab = cursor.partiallyConsumedTab;
    do cursor.advanceColumns(1);
    while (cursor.column - spacesColumn < 5 && isBlankCode(line.charCodeAt(cursor.offset)));
    const spaces = cursor.column - spacesColumn;
    let padding = markerLength + spaces;
    if (spaces >= 5 || spaces < 1 || cursor.offset >= line.length) {
      // Content five or more columns in is indented code inside the item, which then takes one space.
      cursor.offset = spacesOffset;
      cursor.column = spacesColumn;
      cursor.partiallyConsumedTab = spacesTab;
      if (isBlankCode(line.charCodeAt(cursor.offset))) cursor.advanceColumns(1);
      padding = markerLength + 1;
    }
    this.#closeUnmatched();
    if (this.#tip.kind !== 'list' || this.#tip.delimiter !== marker.delimiter)
      this.#open('list', markerStart, { delimiter: marker.delimiter });
    this.#open('item', markerStart, { delimiter: marker.delimiter, contentIndent: markerIndent + padding });
    return true;
  }

  #setextHeading(paragraph: OpenBlock, depth: 1 | 2): void {
    const end = this.#lineEndPoint();
    const top = paragraph.top;
    this.#detach(paragraph);
    if (top) this.#out.push({ kind: 'heading', depth, text: this.#setextText(top), start: top.start, end });
    else this.#extendTop(end);
  }

  /** The text of a setext heading: its paragraph's lines, as micromark joins them (a hard break joins with nothing). */
  #setextText(top: TopRecord): string {
    const text = this.#text;
    const parts: string[] = [];
    const starts = top.lineStarts!;
    for (let i = 0; i < starts.length; i++) {
      const from = starts[i]!;
      const newline = text.indexOf('\n', from);
      const lineEnd = newline < 0 ? text.length : newline;
      let end = lineEnd;
      while (end > from && isBlankCode(text.charCodeAt(end - 1))) end--;
      let spaces = lineEnd;
      while (spaces > from && text.charCodeAt(spaces - 1) === 32) spaces--;
      parts.push(text.slice(from, end));
      // Two or more trailing spaces make a hard break, which has no text of its own.
      if (i < starts.length - 1 && lineEnd - spaces < 2) parts.push('\n');
    }
    return parts.join('').trim();
  }

  /** A heading (ATX) or thematic break: a one-line leaf, closed at once. */
  #leaf(heading: AtxHeading | null, start: MarkdownPoint): void {
    while (!CAN_CONTAIN_BLOCKS.has(this.#tip.kind)) this.#close(this.#tip, this.#lastLineEnd(this.#tip));
    const end = this.#lineEndPoint();
    this.#tip.hasChildren = true;
    if (this.#tip === this.#document) {
      this.#out.push(
        heading ? { kind: 'heading', depth: heading.depth, text: heading.text, start, end } : { kind: 'thematicBreak', start, end },
      );
    } else this.#extendTop(end);
  }

  #open(
    kind: OpenKind,
    start: MarkdownPoint,
    extra: { delimiter?: string; contentIndent?: number; fence?: CodeFence; fenceIndent?: number; htmlKind?: HtmlBlockKind } = {},
  ): OpenBlock {
    // Close what cannot hold the new block (a list holds only items; leaves hold no blocks).
    while (kind === 'item' ? this.#tip.kind !== 'list' : !CAN_CONTAIN_BLOCKS.has(this.#tip.kind)) {
      this.#close(this.#tip, this.#lastLineEnd(this.#tip));
    }
    const parent = this.#tip;
    const atTop = parent === this.#document;
    const top: TopRecord | undefined = atTop
      ? {
          kind: kind as TopRecord['kind'],
          start,
          end: start,
          ...(kind === 'fence' ? { info: extra.fence!.info, lines: [] } : {}),
          ...(kind === 'paragraph' ? { lineStarts: [] } : {}),
        }
      : undefined;
    const owner = top ?? parent.owner;
    const block: OpenBlock = {
      kind,
      parent,
      child: null,
      hasChildren: false,
      ...extra,
      ...(top ? { top } : {}),
      ...(owner ? { owner } : {}),
    };
    parent.child = block;
    parent.hasChildren = true;
    this.#tip = block;
    return block;
  }

  /** Adds the rest of the current line to a leaf that holds lines. */
  #addLine(block: OpenBlock): void {
    const cursor = this.#cursor;
    const top = this.#topOf(block);
    if (block.top?.lines) {
      // A tab consumed in part leaves its remaining columns as spaces.
      const pad = cursor.partiallyConsumedTab ? ' '.repeat(4 - (cursor.column % 4)) : '';
      block.top.lines.push(pad + cursor.text.slice(cursor.partiallyConsumedTab ? cursor.offset + 1 : cursor.offset));
    }
    if (block.top?.lineStarts) block.top.lineStarts.push(this.#lineStart + cursor.offset);
    const blankLine = cursor.blank;
    // Indented code does not end on its trailing blank lines.
    if (top && !(block.kind === 'indented' && blankLine)) top.end = this.#lineEndPoint();
  }

  #extendTop(end: MarkdownPoint): void {
    const top = this.#topOf(this.#tip);
    if (top) top.end = end;
  }

  /** The record of the top-level block that holds `block`. */
  #topOf(block: OpenBlock): TopRecord | undefined {
    return block.owner;
  }

  #closeUnmatched(): void {
    if (this.#allClosed) return;
    while (this.#oldTip !== this.#lastMatched) {
      const parent = this.#oldTip.parent!;
      this.#close(this.#oldTip, this.#lastLineEnd(this.#oldTip));
      this.#oldTip = parent;
    }
    this.#allClosed = true;
  }

  /** Removes an open paragraph that became a setext heading (its parent gets the heading instead). */
  #detach(block: OpenBlock): void {
    const parent = block.parent!;
    parent.child = null;
    this.#tip = parent;
  }

  #close(block: OpenBlock, end: MarkdownPoint): void {
    const parent = block.parent!;
    if (parent.child === block) parent.child = null;
    if (this.#tip === block) this.#tip = parent;
    const top = block.top;
    if (!top) return;
    if (top.kind === 'fence') {
      const lang = top.info!.split(/[ \t]/, 1)[0] || null;
      this.#out.push({ kind: 'code', lang, value: top.lines!.join('\n'), start: top.start, end });
    } else if (top.kind === 'indented') {
      this.#out.push({ kind: 'code', lang: null, value: '', start: top.start, end: top.end });
    } else this.#out.push({ kind: top.kind, start: top.start, end: top.end });
  }

  /** Where a block closed by a later line ends: the end of the last line it holds. */
  #lastLineEnd(block: OpenBlock): MarkdownPoint {
    return this.#topOf(block)?.end ?? this.#pointAt(this.#lineStart);
  }

  #lineEndPoint(): MarkdownPoint {
    return this.#pointAt(this.#lineStart + this.#cursor.text.length);
  }

  #pointAt(offset: number): MarkdownPoint {
    return { line: this.#lineNumber, column: offset - this.#lineStart + 1, offset };
  }
}

const isBlankCode = (c: number) => c === 32 || c === 9;
