/**
 * The markdown block scanner: CommonMark's block structure (spec 0.31, "Appendix: A parsing strategy"), one pass
 * over the lines, reporting the top-level blocks (`block.ts`). The compiler needs no inline markdown: prose is
 * sliced from the source as written, so this stage only has to know where headings and fenced code blocks are,
 * and which lines the containers (block quotes, list items) and opaque blocks (code, HTML) own, so that a
 * `## x` inside a list item or an HTML comment is not taken for a section.
 *
 * Why not remark-parse: micromark's edit maps made it superlinear (a 4.9 MB SOP took 9 s to parse, 1 MB of blank
 * lines 6 s, 500 KB of headings 7 s). This scanner does constant work per character and per open container on a
 * line, reads lines in place, and keeps nothing of nested blocks: one record per top-level heading or code block,
 * one per run of prose between them, the content of a fence sliced from the text when it closes. What it holds
 * is bounded by `LIMITS.markdownBlocks` (headings and code blocks) and `LIMITS.markdownNesting` (open containers);
 * past either it stops and says where. The differential test (`test/generator/parse/markdown/`) holds it to remark.
 *
 * Known difference: a setext underline below a paragraph made only of link reference definitions makes a heading
 * here (CommonMark reads the definitions and no heading). No SOP writes that.
 */
import { LIMITS } from '../../limits.js';
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
  /** Open containers from the document down to this block (the document is 0). */
  readonly depth: number;
  /** List items: the marker's delimiter, and the columns before the item's content (marker offset + padding). */
  readonly delimiter?: string;
  readonly contentIndent?: number;
  readonly fence?: CodeFence;
  /** Fences: columns of indentation of the opening fence, removed from each content line. */
  readonly fenceIndent?: number;
  readonly htmlKind?: HtmlBlockKind;
  /** The record of the top-level block that holds this one (itself included): O(1) however deep it nests. */
  readonly owner?: TopRecord;
}

/** What is known of a top-level block while it is open. */
interface TopRecord {
  readonly kind: 'paragraph' | 'blockquote' | 'list' | 'html' | 'fence' | 'indented';
  readonly start: MarkdownPoint;
  /** The end of its last line so far, as numbers (a point object per line would be garbage by the million). */
  endLine: number;
  endColumn: number;
  endOffset: number;
  /** Fences: the info string, and where the content starts (the line after the opening fence). */
  readonly info?: string;
  readonly contentStart?: number;
}

const CAN_CONTAIN_BLOCKS = new Set<OpenKind>(['document', 'blockquote', 'item']);
const ACCEPTS_LINES = new Set<OpenKind>(['paragraph', 'fence', 'indented', 'html']);

export interface ScannedBlocks {
  /** The top-level blocks in order; consecutive prose blocks make one `prose` block. */
  readonly blocks: readonly MarkdownBlock[];
  /** Where scanning stopped at a limit, if it did: too many headings and code blocks, or containers nested too deep. */
  readonly stopped: { readonly at: MarkdownPoint; readonly reason: 'blocks' | 'nesting' } | null;
}

/**
 * The top-level blocks of `text` (`\n` line breaks), in order.
 * @param from where to start (a line start; the frontmatter before it is not markdown), and `line` its line number.
 */
export function scanBlocks(text: string, from = 0, line = 1): ScannedBlocks {
  return new BlockScanner(text, from, line).run();
}

/** Thrown by the scanner at a limit; caught in `run`. */
class Stop {
  constructor(readonly stopped: NonNullable<ScannedBlocks['stopped']>) {}
}

class BlockScanner {
  readonly #text: string;
  readonly #out: MarkdownBlock[] = [];
  readonly #document: OpenBlock = { kind: 'document', parent: null, child: null, hasChildren: false, depth: 0 };
  /** The deepest open block. */
  #tip: OpenBlock = this.#document;
  /** The tip when the current line started, and the deepest block the line continued. */
  #oldTip: OpenBlock = this.#document;
  #lastMatched: OpenBlock = this.#document;
  #allClosed = true;
  readonly #cursor: LineCursor;
  #lineNumber: number;
  readonly #from: number;
  /** Headings and code blocks recorded (what `LIMITS.markdownBlocks` bounds). */
  #structural = 0;

  constructor(text: string, from: number, line: number) {
    this.#text = text;
    this.#cursor = new LineCursor(text);
    this.#from = from;
    this.#lineNumber = line - 1;
  }

  run(): ScannedBlocks {
    const text = this.#text;
    try {
      // A final line break ends the last line; it does not start an empty one.
      for (let start = this.#from; start < text.length; ) {
        const newline = text.indexOf('\n', start);
        const end = newline < 0 ? text.length : newline;
        this.#line(start, end);
        start = end + 1;
      }
      const finalBreak = text.length === 0 || text.endsWith('\n');
      const eof: MarkdownPoint = finalBreak ? { line: this.#lineNumber + 1, column: 1, offset: text.length } : this.#pointAt(text.length);
      // A fence still open holds everything to the end, but not the text's final line break.
      while (this.#tip !== this.#document) this.#close(this.#tip, eof, finalBreak ? text.length - 1 : text.length);
      return { blocks: this.#out, stopped: null };
    } catch (stop) {
      if (stop instanceof Stop) return { blocks: this.#out, stopped: stop.stopped };
      throw stop;
    }
  }

  #line(start: number, end: number): void {
    this.#lineNumber++;
    const cursor = this.#cursor;
    cursor.reset(start, end);
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
        if (htmlBlockEndsOn(container.htmlKind!, this.#text.slice(cursor.offset, cursor.end))) this.#close(container, this.#lineEndPoint());
      }
    } else if (!cursor.blank) {
      cursor.advanceToNonspace();
      this.#addLine(this.#open('paragraph', this.#pointAt(cursor.offset)));
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
        if (isBlankCode(cursor.peek())) cursor.advanceColumns(1);
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
        if (cursor.indent < CODE_INDENT && closesFence(this.#text, cursor.nextNonspace, cursor.end, block.fence!)) {
          this.#close(block, this.#lineEndPoint(), cursor.start - 1);
          return 'done';
        }
        for (let i = block.fenceIndent!; i > 0 && isBlankCode(cursor.peek()); i--) cursor.advanceColumns(1);
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
    const text = this.#text;
    const at = cursor.nextNonspace;
    const end = cursor.end;
    const c = cursor.peekNonspace();
    if (cursor.indent >= CODE_INDENT) {
      if (this.#tip.kind === 'paragraph' || cursor.blank) return null;
      const start = this.#pointAt(cursor.start);
      cursor.advanceColumns(CODE_INDENT);
      this.#closeUnmatched();
      this.#open('indented', start);
      return 'leaf';
    }
    if (c === 62 /* > */) {
      cursor.advanceToNonspace();
      cursor.advanceChars(1);
      if (isBlankCode(cursor.peek())) cursor.advanceColumns(1);
      this.#closeUnmatched();
      this.#open('blockquote', this.#pointAt(at));
      return 'container';
    }
    const heading = c === 35 /* # */ ? atxHeading(text, at, end) : null;
    if (heading) {
      this.#closeUnmatched();
      this.#leaf(heading, this.#pointAt(at));
      return 'line-done';
    }
    const fence = codeFenceOpen(text, at, end);
    if (fence) {
      this.#closeUnmatched();
      this.#open('fence', this.#pointAt(at), { fence, fenceIndent: cursor.indent });
      return 'line-done';
    }
    if (c === 60 /* < */) {
      const lazyParagraph = !this.#allClosed && this.#tip.kind === 'paragraph';
      const kind = htmlBlockStart(text, at, end, container.kind !== 'paragraph' && !lazyParagraph);
      if (kind !== 0) {
        this.#closeUnmatched();
        this.#open('html', this.#pointAt(at), { htmlKind: kind });
        return 'leaf';
      }
    }
    const underline = container.kind === 'paragraph' ? setextUnderline(text, at, end) : null;
    if (underline !== null) {
      this.#closeUnmatched();
      this.#setextHeading(container, underline);
      return 'line-done';
    }
    if (isThematicBreak(text, at, end)) {
      this.#closeUnmatched();
      this.#leaf(null, this.#pointAt(at));
      return 'line-done';
    }
    return this.#listItemStart(container) ? 'container' : null;
  }

  #listItemStart(container: OpenBlock): boolean {
    const cursor = this.#cursor;
    const text = this.#text;
    const marker = listMarker(text, cursor.nextNonspace, cursor.end);
    if (!marker) return false;
    if (container.kind === 'paragraph') {
      // Only a non-empty item, and for ordered lists one numbered 1, may interrupt a paragraph.
      let rest = marker.end;
      while (rest < cursor.end && isBlankCode(text.charCodeAt(rest))) rest++;
      if (rest >= cursor.end || (marker.ordered && marker.start !== 1)) return false;
    }
    const markerIndent = cursor.indent;
    const markerLength = marker.end - cursor.nextNonspace;
    const markerStart = this.#pointAt(cursor.nextNonspace);
    cursor.advanceToNonspace();
    cursor.advanceChars(markerLength);
    const spacesOffset = cursor.offset;
    const spacesColumn = cursor.column;
    const spacesTab = cursor.partiallyConsumedTab;
    do cursor.advanceColumns(1);
    while (cursor.column - spacesColumn < 5 && isBlankCode(cursor.peek()));
    const spaces = cursor.column - spacesColumn;
    let padding = markerLength + spaces;
    if (spaces >= 5 || spaces < 1 || cursor.offset >= cursor.end) {
      // Content five or more columns in is indented code inside the item, which then takes one space.
      cursor.offset = spacesOffset;
      cursor.column = spacesColumn;
      cursor.partiallyConsumedTab = spacesTab;
      if (isBlankCode(cursor.peek())) cursor.advanceColumns(1);
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
    const parent = paragraph.parent!;
    parent.child = null;
    this.#tip = parent;
    if (paragraph.owner && parent === this.#document) {
      this.#record({ kind: 'heading', depth, text: this.#setextText(paragraph.owner.start.offset), start: paragraph.owner.start, end });
    } else this.#extendTop(paragraph);
  }

  /**
   * The text of a top-level setext heading, from its paragraph's first character to the underline: the lines as
   * micromark joins them (leading and trailing blanks dropped; a hard break, two trailing spaces, joins with nothing).
   */
  #setextText(from: number): string {
    const text = this.#text;
    const parts: string[] = [];
    for (let start = from; start < this.#cursor.start; ) {
      const newline = text.indexOf('\n', start);
      let first = start;
      while (isBlankCode(text.charCodeAt(first))) first++;
      let end = newline;
      while (end > first && isBlankCode(text.charCodeAt(end - 1))) end--;
      let spaces = newline;
      while (spaces > first && text.charCodeAt(spaces - 1) === 32) spaces--;
      parts.push(text.slice(first, end));
      start = newline + 1;
      if (start < this.#cursor.start && newline - spaces < 2) parts.push('\n');
    }
    return parts.join('').trim();
  }

  /** A heading (ATX) or thematic break: a one-line leaf, closed at once. */
  #leaf(heading: AtxHeading | null, start: MarkdownPoint): void {
    while (!CAN_CONTAIN_BLOCKS.has(this.#tip.kind)) this.#close(this.#tip, this.#lastLineEnd(this.#tip));
    this.#tip.hasChildren = true;
    if (this.#tip !== this.#document) this.#extendTop(this.#tip);
    else if (heading) this.#record({ kind: 'heading', depth: heading.depth, text: heading.text, start, end: this.#lineEndPoint() });
    else this.#prose(start, this.#lineEndPoint());
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
    const container = kind === 'blockquote' || kind === 'list' || kind === 'item';
    const depth = parent.depth + (container ? 1 : 0);
    if (depth > LIMITS.markdownNesting) throw new Stop({ at: start, reason: 'nesting' });
    const owner: TopRecord | undefined =
      parent === this.#document
        ? {
            kind: kind as TopRecord['kind'],
            start,
            endLine: start.line,
            endColumn: start.column,
            endOffset: start.offset,
            ...(kind === 'fence' ? { info: extra.fence!.info, contentStart: Math.min(this.#cursor.end + 1, this.#text.length) } : {}),
          }
        : parent.owner;
    const block: OpenBlock = { kind, parent, child: null, hasChildren: false, depth, ...extra, ...(owner ? { owner } : {}) };
    parent.child = block;
    parent.hasChildren = true;
    this.#tip = block;
    return block;
  }

  /** The rest of the current line belongs to `block` (a leaf that holds lines): its top-level block extends to it. */
  #addLine(block: OpenBlock): void {
    // Indented code does not end on its trailing blank lines.
    if (!(block.kind === 'indented' && this.#cursor.blank)) this.#extendTop(block);
  }

  /** The top-level block holding `block` now ends at the end of the current line. */
  #extendTop(block: OpenBlock): void {
    const owner = block.owner;
    if (!owner) return;
    owner.endLine = this.#lineNumber;
    owner.endColumn = this.#cursor.end - this.#cursor.start + 1;
    owner.endOffset = this.#cursor.end;
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

  /** Closes `block` at `end`; a top-level fence's content runs to `contentEnd` (its closing line's line break). */
  #close(block: OpenBlock, end: MarkdownPoint, contentEnd = end.offset): void {
    const parent = block.parent!;
    if (parent.child === block) parent.child = null;
    if (this.#tip === block) this.#tip = parent;
    const top = block.owner;
    if (!top || parent !== this.#document) return;
    if (top.kind === 'fence') {
      const lang = top.info!.split(/[ \t]/, 1)[0] || null;
      this.#record({
        kind: 'code',
        lang,
        value: this.#fenceValue(top.contentStart!, contentEnd, block.fenceIndent!),
        start: top.start,
        end,
      });
    } else if (top.kind === 'indented') this.#record({ kind: 'code', lang: null, value: '', start: top.start, end: endOf(top) });
    else this.#prose(top.start, endOf(top));
  }

  /**
   * A top-level fence's content, from `from` to `to`: its lines without the fence's indentation (a tab consumed in
   * part leaves its remaining columns as spaces), joined with `\n`. Sliced in one piece when nothing is removed.
   */
  #fenceValue(from: number, to: number, fenceIndent: number): string {
    const text = this.#text;
    if (to <= from) return '';
    if (fenceIndent === 0) return text.slice(from, to);
    const cursor = new LineCursor(text);
    const parts: string[] = [];
    for (let start = from; start <= to; ) {
      const newline = text.indexOf('\n', start);
      const lineEnd = newline < 0 || newline > to ? to : newline;
      cursor.reset(start, lineEnd);
      for (let i = fenceIndent; i > 0 && isBlankCode(cursor.peek()); i--) cursor.advanceColumns(1);
      const pad = cursor.partiallyConsumedTab ? ' '.repeat(4 - (cursor.column % 4)) : '';
      parts.push(pad + text.slice(cursor.partiallyConsumedTab ? cursor.offset + 1 : cursor.offset, lineEnd));
      start = lineEnd + 1;
    }
    return parts.join('\n');
  }

  /** Records a top-level heading or code block, within `LIMITS.markdownBlocks`. */
  #record(block: MarkdownBlock): void {
    if (++this.#structural > LIMITS.markdownBlocks) throw new Stop({ at: block.start, reason: 'blocks' });
    this.#out.push(block);
  }

  /** Records top-level prose, merged with the prose just before it. */
  #prose(start: MarkdownPoint, end: MarkdownPoint): void {
    const last = this.#out.at(-1);
    if (last?.kind === 'prose') this.#out[this.#out.length - 1] = { kind: 'prose', start: last.start, end };
    else this.#out.push({ kind: 'prose', start, end });
  }

  /** Where a block closed by a later line ends: the end of the last line it holds. */
  #lastLineEnd(block: OpenBlock): MarkdownPoint {
    return block.owner ? endOf(block.owner) : this.#pointAt(this.#cursor.start);
  }

  #lineEndPoint(): MarkdownPoint {
    return this.#pointAt(this.#cursor.end);
  }

  #pointAt(offset: number): MarkdownPoint {
    return { line: this.#lineNumber, column: offset - this.#cursor.start + 1, offset };
  }
}

const isBlankCode = (c: number) => c === 32 || c === 9;
const endOf = (top: TopRecord): MarkdownPoint => ({ line: top.endLine, column: top.endColumn, offset: top.endOffset });
