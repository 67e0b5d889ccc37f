/**
 * The scanner: Mermaid's flowchart lexer, rule for rule, without regular expressions. Mermaid's lexer is a stack
 * of states (inside a label, inside edge text, after `click` …) where, at each position, the first rule of the
 * current state that matches wins; this class keeps the same stack and tries the same rules in the same order,
 * so it accepts and splits text exactly as Mermaid does (including its quirks, such as `A-- go--> B` reading
 * `o-->` as the arrow). Runs Mermaid scans one character at a time (edge text, spaces) come out as one token.
 *
 * Our one addition: at a token start outside labels, a `%%` after a statement is a same-line comment. It is
 * skipped and reported through `onComment` (Mermaid itself would fail on it).
 *
 * Linear time: each rule looks at a bounded number of characters past the ones it consumes, and the `\s*`
 * prefixes and the `direction` rule use caches (`RunCache`, `DirectionTable`).
 */
import {
  isDigit,
  isInlineWhitespace,
  isNodeStringChar,
  isNodeStringDash,
  isUnicodeLetter,
  isWhitespace,
  isWordChar,
} from './char-class.js';
import { DirectionTable } from './direction-table.js';
import { EntityRule } from './entity-rule.js';
import {
  DASH,
  EQUALS,
  matchDottedLink,
  matchDottedStart,
  matchInvisibleLink,
  matchSolidLink,
  matchSolidStart,
  mayStartLink,
} from './link-scan.js';
import { RunCache } from './run-cache.js';
import type { Token, TokenKind } from './token.js';

type LexState =
  | 'INITIAL'
  | 'dir'
  | 'string'
  | 'md_string'
  | 'text'
  | 'ellipseText'
  | 'trapText'
  | 'edgeText'
  | 'thickEdgeText'
  | 'dottedEdgeText'
  | 'click'
  | 'callbackname'
  | 'callbackargs'
  | 'acc_title'
  | 'acc_descr'
  | 'acc_descr_multiline'
  | 'shapeData'
  | 'shapeDataStr';

type EdgeState = 'edgeText' | 'thickEdgeText' | 'dottedEdgeText';

const C = {
  tab: 0x09,
  lf: 0x0a,
  space: 0x20,
  quote: 0x22,
  hash: 0x23,
  percent: 0x25,
  amp: 0x26,
  lparen: 0x28,
  rparen: 0x29,
  star: 0x2a,
  comma: 0x2c,
  dash: 0x2d,
  dot: 0x2e,
  slash: 0x2f,
  colon: 0x3a,
  semi: 0x3b,
  less: 0x3c,
  equals: 0x3d,
  greater: 0x3e,
  question: 0x3f,
  at: 0x40,
  lbracket: 0x5b,
  backslash: 0x5c,
  rbracket: 0x5d,
  caret: 0x5e,
  backtick: 0x60,
  v: 0x76,
  lbrace: 0x7b,
  pipe: 0x7c,
  rbrace: 0x7d,
  tilde: 0x7e,
} as const;

const KEYWORDS: readonly (readonly [string, TokenKind])[] = [
  ['style', 'STYLE'],
  ['default', 'DEFAULT'],
  ['linkStyle', 'LINKSTYLE'],
  ['interpolate', 'INTERPOLATE'],
  ['classDef', 'CLASSDEF'],
  ['class', 'CLASS'],
];
const GRAPH_KEYWORDS = ['flowchart-elk', 'swimlane-beta', 'graph', 'flowchart'];
const LINK_TARGETS = ['_self', '_blank', '_parent', '_top'];
const DIRECTION_WORDS = ['LR', 'RL', 'TB', 'BT', 'TD', 'BR'];

export class Lexer {
  readonly #text: string;
  #pos = 0;
  #stack: LexState[] = ['INITIAL'];
  #firstGraph = true;
  readonly #ws: RunCache;
  readonly #inlineWs: RunCache;
  readonly #directions: DirectionTable;
  readonly #entities: EntityRule;
  // The run `[^\s"]+` that the LINK_ID rule last measured, and the last `@` in it that may end a LINK_ID.
  #idRunFrom = -1;
  #idRunEnd = -1;
  #idRunAt = -1;

  /**
   * @param text the preprocessed block text, ending with the `\n` Mermaid appends before parsing.
   * @param onComment called with the offsets of each same-line `%%` comment it skips.
   */
  constructor(
    text: string,
    private readonly onComment: (start: number, end: number) => void,
  ) {
    this.#text = text;
    this.#ws = new RunCache(this.#text, isWhitespace);
    this.#inlineWs = new RunCache(this.#text, isInlineWhitespace);
    this.#directions = new DirectionTable(this.#text);
    this.#entities = new EntityRule(this.#text);
  }

  /** Restarts scanning at `offset` in the initial state (error recovery). */
  reset(offset: number): void {
    this.#pos = Math.min(offset, this.#text.length);
    this.#stack = ['INITIAL'];
  }

  /** The next token; `EOF` forever at the end. */
  next(): Token {
    for (;;) {
      const p = this.#pos;
      if (p >= this.#text.length) return { kind: 'EOF', start: this.#text.length, end: this.#text.length, text: '' };
      const token = this.#scan(p);
      if (token) return token;
    }
  }

  // ---- state machinery ---------------------------------------------------------------------------------------

  #push(state: LexState): void {
    this.#stack.push(state);
  }

  #pop(): void {
    if (this.#stack.length > 1) this.#stack.pop();
  }

  #tok(kind: TokenKind, start: number, end: number): Token {
    this.#pos = end;
    return { kind, start, end, text: this.#text.slice(start, end) };
  }

  #error(start: number, message: string): Token {
    const text = String.fromCodePoint(this.#text.codePointAt(start) ?? 0);
    this.#pos = start + text.length;
    return { kind: 'ERROR', start, end: this.#pos, text, message };
  }

  #entityError(p: number, end: number): Token {
    const entity = this.#text.slice(p, end);
    this.#pos = end;
    return {
      kind: 'ERROR',
      start: p,
      end,
      text: entity,
      message: `Mermaid reads '${entity}' as an entity (like #quot;), and entities are only allowed inside labels`,
    };
  }

  /** Consumes input without producing a token (Mermaid rules that only change state). */
  #skip(to: number): null {
    this.#pos = to;
    return null;
  }

  #code(p: number): number {
    return this.#text.charCodeAt(p);
  }

  #at(p: number, word: string): boolean {
    return this.#text.startsWith(word, p);
  }

  #keyword(p: number, word: string): boolean {
    return this.#at(p, word) && !isWordChar(this.#code(p + word.length));
  }

  #wsEnd = (from: number): number => this.#ws.end(from);

  #scan(p: number): Token | null {
    const state = this.#stack[this.#stack.length - 1] as LexState;
    switch (state) {
      case 'INITIAL':
        return this.#initial(p);
      case 'dir':
        return this.#dir(p);
      case 'string':
        return this.#string(p);
      case 'md_string':
        return this.#mdString(p);
      case 'text':
        return this.#textState(p);
      case 'trapText':
        return this.#trapText(p);
      case 'ellipseText':
        return this.#ellipseText(p);
      case 'edgeText':
      case 'thickEdgeText':
      case 'dottedEdgeText':
        return this.#edgeText(p, state);
      case 'click':
        return this.#click(p);
      case 'callbackname':
        return this.#callbackName(p);
      case 'callbackargs':
        return this.#callbackArgs(p);
      case 'acc_title':
      case 'acc_descr':
        this.#pop();
        return this.#tok('ACC_VALUE', p, this.#lineEnd(p));
      case 'acc_descr_multiline':
        return this.#accDescrBlock(p);
      case 'shapeData':
        return this.#shapeData(p);
      case 'shapeDataStr':
        return this.#shapeDataStr(p);
    }
  }

  #lineEnd(p: number): number {
    const nl = this.#text.indexOf('\n', p);
    return nl === -1 ? this.#text.length : nl;
  }

  // ---- INITIAL ---------------------------------------------------------------------------------------------

  #initial(p: number): Token | null {
    const c = this.#code(p);
    if ((c === C.space || c === C.tab || c === C.percent) && this.#sameLineComment(p)) return null;
    if (c === 0x61 /* a */) {
      const acc = this.#accessibility(p);
      if (acc !== undefined) return acc;
    }
    if (c === C.at && this.#code(p + 1) === C.lbrace) {
      this.#push('shapeData');
      return this.#tok('SHAPE_DATA', p, p + 2);
    }
    if (this.#at(p, 'call') && isWhitespace(this.#code(p + 4))) {
      this.#push('callbackname');
      return this.#tok('CALL_KEYWORD', p, this.#wsEnd(p + 4));
    }
    if (c === C.quote) return this.#openString(p);
    const word = this.#keywordToken(p);
    if (word) return word;
    const direction = this.#directions.match(p);
    if (direction !== -1) return this.#tok('DIRECTION', p, direction);
    const linkId = this.#linkIdEnd(p);
    if (linkId !== -1) return this.#tok('LINK_ID', p, linkId);
    if (isDigit(c)) {
      let e = p + 1;
      while (isDigit(this.#code(e))) e++;
      return this.#tok('NUM', p, e);
    }
    switch (c) {
      case C.hash: {
        const entity = this.#entities.end(p);
        if (entity !== -1) return this.#entityError(p, entity);
        return this.#tok('BRKT', p, p + 1);
      }
      case C.colon:
        return this.#at(p, ':::') ? this.#tok('STYLE_SEPARATOR', p, p + 3) : this.#tok('COLON', p, p + 1);
      case C.amp:
        return this.#tok('AMP', p, p + 1);
      case C.semi:
        return this.#tok('SEMI', p, p + 1);
      case C.comma:
        return this.#tok('COMMA', p, p + 1);
      case C.star:
        return this.#tok('MULT', p, p + 1);
    }
    if (isWhitespace(c) || mayStartLink(c)) {
      const link = this.#link(p);
      if (link) return link;
    }
    const shape = this.#shapeOpener(p, true);
    if (shape) return shape;
    switch (c) {
      case C.greater:
        this.#push('text');
        return this.#tok('TAGEND', p, p + 1);
      case C.less:
        return this.#tok('TAGSTART', p, p + 1);
      case C.caret:
        return this.#tok('UP', p, p + 1);
      case C.backslash:
        if (this.#code(p + 1) === C.pipe) return this.#tok('SEP', p, p + 2);
        break;
      case C.v:
        if (!isWordChar(this.#code(p + 1))) return this.#tok('DOWN', p, p + 1);
        break;
    }
    const nodeString = this.#nodeStringEnd(p);
    if (nodeString > p) return this.#tok('NODE_STRING', p, nodeString);
    if (c === C.dash) return this.#tok('MINUS', p, p + 1);
    if (isUnicodeLetter(c)) return this.#tok('UNICODE_TEXT', p, p + 1);
    const bracket = this.#commonBracket(p);
    if (bracket) return bracket;
    if (c === C.lf) {
      let e = p + 1;
      while (this.#code(e) === C.lf) e++;
      return this.#tok('NEWLINE', p, e);
    }
    if (isWhitespace(c)) return this.#tok('SPACE', p, this.#inlineWs.end(p));
    return this.#error(p, initialErrorMessage(this.#text, p));
  }

  /** A `%%` after a statement: skipped to the end of the line and reported (`%%{` is text, as in Mermaid). */
  #sameLineComment(p: number): boolean {
    const at = this.#inlineWs.end(p);
    if (this.#code(at) !== C.percent || this.#code(at + 1) !== C.percent || this.#code(at + 2) === C.lbrace) return false;
    const lineEnd = this.#lineEnd(at);
    let end = lineEnd;
    while (end > at && isInlineWhitespace(this.#code(end - 1))) end--;
    this.onComment(at, end);
    this.#pos = lineEnd;
    return true;
  }

  #accessibility(p: number): Token | undefined {
    for (const [word, kind, state] of [
      ['accTitle', 'ACC_TITLE', 'acc_title'],
      ['accDescr', 'ACC_DESCR', 'acc_descr'],
    ] as const) {
      if (!this.#at(p, word)) continue;
      const q = this.#wsEnd(p + word.length);
      if (this.#code(q) === C.colon) {
        this.#push(state);
        return this.#tok(kind, p, this.#wsEnd(q + 1));
      }
      if (kind === 'ACC_DESCR' && this.#code(q) === C.lbrace) {
        this.#push('acc_descr_multiline');
        return this.#tok('ACC_DESCR', p, this.#wsEnd(q + 1));
      }
    }
    return undefined;
  }

  #keywordToken(p: number): Token | null {
    const c = this.#code(p);
    if (c < 0x5f /* _ */ || c > 0x7a /* z */) return null;
    for (const [word, kind] of KEYWORDS) if (this.#keyword(p, word)) return this.#tok(kind, p, p + word.length);
    if (this.#at(p, 'href') && isWhitespace(this.#code(p + 4))) return this.#tok('HREF', p, p + 5);
    if (this.#at(p, 'click') && isWhitespace(this.#code(p + 5))) {
      this.#push('click');
      return this.#tok('CLICK_KEYWORD', p, this.#wsEnd(p + 5));
    }
    for (const word of GRAPH_KEYWORDS) {
      if (!this.#keyword(p, word)) continue;
      if (this.#firstGraph) {
        this.#firstGraph = false;
        this.#push('dir');
      }
      return this.#tok('GRAPH', p, p + word.length);
    }
    if (this.#keyword(p, 'subgraph')) return this.#tok('SUBGRAPH', p, p + 8);
    if (this.#keyword(p, 'end')) return this.#tok('END', p, this.#wsEnd(p + 3));
    for (const word of LINK_TARGETS) if (this.#keyword(p, word)) return this.#tok('LINK_TARGET', p, p + word.length);
    return null;
  }

  /** Mermaid's `[^\s"]+@(?=[^{"])`: an edge id such as `e1@-->`. */
  #linkIdEnd(p: number): number {
    const text = this.#text;
    const c = this.#code(p);
    if (isWhitespace(c) || c === C.quote) return -1;
    if (p < this.#idRunFrom || p >= this.#idRunEnd) {
      let e = p;
      let lastAt = -1;
      while (e < text.length) {
        const code = text.charCodeAt(e);
        if (isWhitespace(code) || code === C.quote) break;
        if (code === C.at) {
          const next = text.charCodeAt(e + 1);
          if (e + 1 < text.length && next !== C.lbrace && next !== C.quote) lastAt = e;
        }
        e++;
      }
      this.#idRunFrom = p;
      this.#idRunEnd = e;
      this.#idRunAt = lastAt;
    }
    return this.#idRunAt > p ? this.#idRunAt + 1 : -1;
  }

  /** Links in the order of Mermaid's rules: solid, solid text start, thick, thick start, dotted, dotted start, invisible. */
  #link(p: number): Token | null {
    const text = this.#text;
    let end = matchSolidLink(text, p, this.#wsEnd, DASH);
    if (end !== -1) return this.#tok('LINK', p, end);
    end = matchSolidStart(text, p, this.#wsEnd, DASH);
    if (end !== -1) return this.#startEdgeText(p, end, 'edgeText');
    end = matchSolidLink(text, p, this.#wsEnd, EQUALS);
    if (end !== -1) return this.#tok('LINK', p, end);
    end = matchSolidStart(text, p, this.#wsEnd, EQUALS);
    if (end !== -1) return this.#startEdgeText(p, end, 'thickEdgeText');
    end = matchDottedLink(text, p, this.#wsEnd);
    if (end !== -1) return this.#tok('LINK', p, end);
    end = matchDottedStart(text, p, this.#wsEnd);
    if (end !== -1) return this.#startEdgeText(p, end, 'dottedEdgeText');
    end = matchInvisibleLink(text, p, this.#wsEnd);
    return end === -1 ? null : this.#tok('LINK', p, end);
  }

  #startEdgeText(p: number, end: number, state: EdgeState): Token {
    this.#push(state);
    return this.#tok('START_LINK', p, end);
  }

  /**
   * Openers Mermaid tries before a plain node id: `(-`, `([`, `[[`, `[|` (INITIAL only), `[(`, `(((`, `[/`, `[\`.
   */
  #shapeOpener(p: number, initial: boolean): Token | null {
    const c = this.#code(p);
    const next = this.#code(p + 1);
    if (c === C.lparen) {
      if (next === C.dash) {
        this.#push('ellipseText');
        return this.#tok('ELLIPSE_START', p, p + 2);
      }
      if (next === C.lbracket) return this.#pushText('STADIUMSTART', p, 2);
      if (next === C.lparen && this.#code(p + 2) === C.lparen) return this.#pushText('DOUBLECIRCLESTART', p, 3);
      return null;
    }
    if (c !== C.lbracket) return null;
    switch (next) {
      case C.lbracket:
        return this.#pushText('SUBROUTINESTART', p, 2);
      case C.pipe:
        return initial ? this.#tok('VERTEX_WITH_PROPS_START', p, p + 2) : null;
      case C.lparen:
        return this.#pushText('CYLINDERSTART', p, 2);
      case C.slash:
        this.#push('trapText');
        return this.#tok('TRAPSTART', p, p + 2);
      case C.backslash:
        this.#push('trapText');
        return this.#tok('INVTRAPSTART', p, p + 2);
    }
    return null;
  }

  #pushText(kind: TokenKind, p: number, length: number): Token {
    this.#push('text');
    return this.#tok(kind, p, p + length);
  }

  /** The single-character openers every state knows: `|`, `(`, `[`, `{` (each opens a label). */
  #commonBracket(p: number): Token | null {
    switch (this.#code(p)) {
      case C.pipe:
        return this.#pushText('PIPE', p, 1);
      case C.lparen:
        return this.#pushText('PS', p, 1);
      case C.lbracket:
        return this.#pushText('SQS', p, 1);
      case C.lbrace:
        return this.#pushText('DIAMOND_START', p, 1);
    }
    return null;
  }

  /**
   * The rules Mermaid's exclusive states share, after their own: quotes, `~~~`, the shape openers and the
   * one-character openers. Anything else is a lexical error.
   */
  #common(p: number, message: string): Token | null {
    if (this.#code(p) === C.quote) return this.#openString(p);
    const c = this.#code(p);
    if (isWhitespace(c) || c === C.tilde) {
      const end = matchInvisibleLink(this.#text, p, this.#wsEnd);
      if (end !== -1) return this.#tok('LINK', p, end);
    }
    return this.#shapeOpener(p, false) ?? this.#commonBracket(p) ?? this.#error(p, message);
  }

  #openString(p: number): null {
    if (this.#code(p + 1) === C.backtick) {
      this.#push('md_string');
      return this.#skip(p + 2);
    }
    this.#push('string');
    return this.#skip(p + 1);
  }

  /**
   * Mermaid's `NODE_STRING`: `([A-Za-z0-9!"#$%&'*+.\`?\\_/]|-(?=[^>\-.]))+`, cut short before an entity
   * (which Mermaid has replaced by then).
   */
  #nodeStringEnd(p: number): number {
    const text = this.#text;
    let e = p;
    for (;;) {
      const code = text.charCodeAt(e);
      if (code === C.hash && this.#entities.end(e) !== -1) return e;
      if (isNodeStringChar(code)) e++;
      else if (code === C.dash && isNodeStringDash(text.charCodeAt(e + 1))) e++;
      else return e;
    }
  }

  // ---- header direction ------------------------------------------------------------------------------------

  #dir(p: number): Token | null {
    const c = this.#code(p);
    if ((c === C.space || c === C.tab || c === C.percent) && this.#sameLineComment(p)) return null;
    if (c === C.quote) return this.#openString(p);
    const q = this.#wsEnd(p);
    const lastNewline = this.#text.lastIndexOf('\n', q - 1);
    if (lastNewline >= p) {
      this.#pop();
      return this.#tok('NODIR', p, lastNewline + 1);
    }
    const d = this.#code(q);
    const two = this.#text.slice(q, q + 2);
    let length = 0;
    if (DIRECTION_WORDS.includes(two) && !isWordChar(this.#code(q + 2))) length = 2;
    else if (d === C.less || d === C.greater || d === C.caret) length = 1;
    else if (d === C.v && !isWordChar(this.#code(q + 1))) length = 1;
    if (length > 0) {
      this.#pop();
      return this.#tok('DIR', p, q + length);
    }
    let wordEnd = q;
    while (wordEnd < this.#text.length && !isWhitespace(this.#code(wordEnd))) wordEnd++;
    const word = this.#text.slice(q, wordEnd);
    const message = isWordChar(d) ? `Unknown direction '${word}'` : `Unexpected '${this.#text.charAt(q)}' after the diagram type`;
    return this.#common(q, message);
  }

  // ---- strings ------------------------------------------------------------------------------------------------

  #string(p: number): Token | null {
    if (this.#code(p) === C.quote) {
      if (this.#code(p + 1) === C.backtick) {
        this.#push('md_string');
        return this.#skip(p + 2);
      }
      this.#pop();
      return this.#skip(p + 1);
    }
    const close = this.#text.indexOf('"', p);
    return this.#tok('STR', p, close === -1 ? this.#text.length : close);
  }

  #mdString(p: number): Token | null {
    const text = this.#text;
    const c = this.#code(p);
    if (c !== C.backtick && c !== C.quote) {
      let e = p + 1;
      while (e < text.length && text.charCodeAt(e) !== C.backtick && text.charCodeAt(e) !== C.quote) e++;
      return this.#tok('MD_STR', p, e);
    }
    if (c === C.backtick && this.#code(p + 1) === C.quote) {
      this.#pop();
      return this.#skip(p + 2);
    }
    if (c === C.quote) return this.#openString(p);
    return this.#common(p, "A '`' inside a markdown string must be the closing '`\"'");
  }

  // ---- labels -------------------------------------------------------------------------------------------------

  #textState(p: number): Token | null {
    const c = this.#code(p);
    if (c === C.quote) return this.#openString(p);
    if (isWhitespace(c) || c === C.tilde) {
      const end = matchInvisibleLink(this.#text, p, this.#wsEnd);
      if (end !== -1) return this.#tok('LINK', p, end);
    }
    const next = this.#code(p + 1);
    switch (c) {
      case C.lparen:
        return this.#shapeOpener(p, false) ?? this.#pushText('PS', p, 1);
      case C.lbracket:
        return this.#shapeOpener(p, false) ?? this.#pushText('SQS', p, 1);
      case C.rbracket:
        if (next === C.rparen) return this.#popText('STADIUMEND', p, 2);
        if (next === C.rbracket) return this.#popText('SUBROUTINEEND', p, 2);
        return this.#popText('SQE', p, 1);
      case C.rparen:
        if (next === C.rbracket) return this.#popText('CYLINDEREND', p, 2);
        if (next === C.rparen && this.#code(p + 2) === C.rparen) return this.#popText('DOUBLECIRCLEEND', p, 3);
        return this.#popText('PE', p, 1);
      case C.pipe:
        return this.#popText('PIPE', p, 1);
      case C.rbrace:
        return this.#popText('DIAMOND_STOP', p, 1);
      case C.lbrace:
        return this.#pushText('DIAMOND_START', p, 1);
    }
    let e = p + 1;
    while (e < this.#text.length && !isLabelDelimiter(this.#code(e))) e++;
    return this.#tok('TEXT', p, e);
  }

  #popText(kind: TokenKind, p: number, length: number): Token {
    this.#pop();
    return this.#tok(kind, p, p + length);
  }

  /** Inside `[/ … /]`, `[\ … \]` and their mixes. */
  #trapText(p: number): Token | null {
    const c = this.#code(p);
    const next = this.#code(p + 1);
    if (c === C.quote) return this.#openString(p);
    if (isWhitespace(c) || c === C.tilde) {
      const end = matchInvisibleLink(this.#text, p, this.#wsEnd);
      if (end !== -1) return this.#tok('LINK', p, end);
    }
    if (c === C.lparen && next !== C.rbracket) {
      const opener = this.#shapeOpener(p, false);
      if (opener) return opener;
    }
    if (c === C.lbracket && (next === C.lbracket || next === C.lparen)) return this.#shapeOpener(p, false);
    // Mermaid's TRAPEND is `[\\(?=\])][\]]`: any of \ ( ? = ] ) followed by `]`.
    if (next === C.rbracket && isTrapEndChar(c)) return this.#popText('TRAPEND', p, 2);
    if (c === C.slash && next === C.rbracket) return this.#popText('INVTRAPEND', p, 2);
    if (c === C.slash || c === C.backslash) return this.#tok('TEXT', p, p + 1);
    if (!isTrapDelimiter(c)) {
      let e = p + 1;
      while (e < this.#text.length && !isTrapDelimiter(this.#code(e))) e++;
      return this.#tok('TEXT', p, e);
    }
    return this.#common(p, `Unexpected '${this.#text.charAt(p)}' in a parallelogram or trapezoid label`);
  }

  /** Inside `(- … -)`, which we report as unsupported but still scan to find its end. */
  #ellipseText(p: number): Token | null {
    const c = this.#code(p);
    if (c === C.quote) return this.#openString(p);
    if (isWhitespace(c) || c === C.tilde) {
      const end = matchInvisibleLink(this.#text, p, this.#wsEnd);
      if (end !== -1) return this.#tok('LINK', p, end);
    }
    if (isEllipseEnd(this.#text, p)) return this.#popText('ELLIPSE_END', p, 2);
    if (!isEllipseDelimiter(c)) {
      let e = p + 1;
      while (e < this.#text.length) {
        const code = this.#code(e);
        if (isEllipseDelimiter(code) || code === C.quote || isEllipseEnd(this.#text, e)) break;
        if ((isWhitespace(code) || code === C.tilde) && matchInvisibleLink(this.#text, e, this.#wsEnd) !== -1) break;
        e++;
      }
      return this.#tok('TEXT', p, e);
    }
    return this.#common(p, `Unexpected '${this.#text.charAt(p)}' in an ellipse label`);
  }

  /** Inline edge text after `--`, `==` or `-.`: everything up to the closing link of the same kind. */
  #edgeText(p: number, state: EdgeState): Token | null {
    const text = this.#text;
    let e = p;
    while (e < text.length) {
      const c = text.charCodeAt(e);
      if (c === C.quote) break;
      if ((isWhitespace(c) || mayStartLink(c)) && this.#closingLink(e, state) !== -1) break;
      if (!isEdgeTextChar(text, e, state)) break;
      e++;
    }
    if (e > p) return this.#tok('EDGE_TEXT', p, e);
    if (this.#code(p) === C.quote) return this.#openString(p);
    const close = this.#closingLink(p, state);
    if (close !== -1) {
      this.#pop();
      return this.#tok('LINK', p, close);
    }
    return this.#common(p, edgeTextErrorMessage(state));
  }

  #closingLink(p: number, state: EdgeState): number {
    switch (state) {
      case 'edgeText':
        return matchSolidLink(this.#text, p, this.#wsEnd, DASH);
      case 'thickEdgeText':
        return matchSolidLink(this.#text, p, this.#wsEnd, EQUALS);
      case 'dottedEdgeText':
        return matchDottedLink(this.#text, p, this.#wsEnd);
    }
  }

  // ---- click, accessibility, shape data ------------------------------------------------------------------------

  #click(p: number): Token | null {
    const c = this.#code(p);
    if (c === C.quote) return this.#openString(p);
    if (isWhitespace(c)) {
      this.#pop();
      return this.#skip(p + 1);
    }
    let e = p;
    while (e < this.#text.length && !isWhitespace(this.#code(e))) e++;
    return this.#tok('CLICK', p, e);
  }

  #callbackName(p: number): Token | null {
    if (this.#code(p) === C.lparen) {
      const close = this.#wsEnd(p + 1);
      this.#pop();
      if (this.#code(close) === C.rparen) return this.#skip(close + 1);
      this.#push('callbackargs');
      return this.#skip(p + 1);
    }
    const open = this.#text.indexOf('(', p);
    return this.#tok('CALLBACKNAME', p, open === -1 ? this.#text.length : open);
  }

  #callbackArgs(p: number): Token | null {
    if (this.#code(p) === C.rparen) {
      this.#pop();
      return this.#skip(p + 1);
    }
    const close = this.#text.indexOf(')', p);
    return this.#tok('CALLBACKARGS', p, close === -1 ? this.#text.length : close);
  }

  #accDescrBlock(p: number): Token | null {
    if (this.#code(p) === C.rbrace) {
      this.#pop();
      return this.#skip(p + 1);
    }
    const close = this.#text.indexOf('}', p);
    return this.#tok('ACC_DESCR_BLOCK', p, close === -1 ? this.#text.length : close);
  }

  #shapeData(p: number): Token | null {
    const c = this.#code(p);
    if (c === C.quote) {
      this.#push('shapeDataStr');
      return this.#tok('SHAPE_DATA', p, p + 1);
    }
    if (c === C.rbrace) {
      this.#pop();
      return this.#skip(p + 1);
    }
    if (c !== C.caret) {
      let e = p + 1;
      while (e < this.#text.length && !isShapeDataDelimiter(this.#code(e))) e++;
      return this.#tok('SHAPE_DATA', p, e);
    }
    return this.#common(p, "Unexpected '^' in shape data");
  }

  #shapeDataStr(p: number): Token | null {
    if (this.#code(p) === C.quote) {
      this.#pop();
      return this.#tok('SHAPE_DATA', p, p + 1);
    }
    const close = this.#text.indexOf('"', p);
    return this.#tok('SHAPE_DATA', p, close === -1 ? this.#text.length : close);
  }
}

function isLabelDelimiter(code: number): boolean {
  return (
    code === C.lbracket || code === C.rbracket || code === C.lparen || code === C.rparen || code === C.lbrace ||
    code === C.rbrace || code === C.pipe || code === C.quote
  );
}

function isTrapDelimiter(code: number): boolean {
  return (
    code === C.backslash || code === C.lbracket || code === C.rbracket || code === C.lparen || code === C.rparen ||
    code === C.lbrace || code === C.rbrace || code === C.slash
  );
}

function isTrapEndChar(code: number): boolean {
  return (
    code === C.backslash || code === C.lparen || code === C.question || code === C.equals || code === C.rbracket ||
    code === C.rparen
  );
}

function isEllipseDelimiter(code: number): boolean {
  return (
    code === C.lparen || code === C.rparen || code === C.lbracket || code === C.rbracket || code === C.lbrace ||
    code === C.rbrace
  );
}

/** Mermaid's `[-/)][)]`. */
function isEllipseEnd(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  return (c === C.dash || c === C.slash || c === C.rparen) && text.charCodeAt(p + 1) === C.rparen;
}

function isShapeDataDelimiter(code: number): boolean {
  return code === C.rbrace || code === C.caret || code === C.quote;
}

/** Mermaid's edge-text rules: `[^-]|-(?!-)`, `[^=]` and `[^.]` for solid, thick and dotted text. */
function isEdgeTextChar(text: string, p: number, state: EdgeState): boolean {
  const c = text.charCodeAt(p);
  switch (state) {
    case 'edgeText':
      return c !== C.dash || text.charCodeAt(p + 1) !== C.dash;
    case 'thickEdgeText':
      return c !== C.equals;
    case 'dottedEdgeText':
      return c !== C.dot;
  }
}

function edgeTextErrorMessage(state: EdgeState): string {
  switch (state) {
    case 'edgeText':
      return "Unexpected '--' inside edge text: close the text with a link such as '-->' or '---'";
    case 'thickEdgeText':
      return "A '=' cannot appear inside thick edge text: close the text with a link such as '==>' or '==='";
    case 'dottedEdgeText':
      return "A '.' cannot appear inside dotted edge text: close the text with a link such as '.->' or '.-'";
  }
}

function initialErrorMessage(text: string, p: number): string {
  const ch = String.fromCodePoint(text.codePointAt(p) ?? 0);
  switch (ch) {
    case '=':
      return "Unexpected '=': a thick link is written '==>' (or '===')";
    case ')':
    case ']':
    case '}':
      return `Unexpected '${ch}' without a matching opening bracket`;
    case '@':
      return "Unexpected '@'";
    default:
      return `Unexpected character '${ch}'`;
  }
}
