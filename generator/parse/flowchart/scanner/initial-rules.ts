/**
 * The rules of Mermaid's initial lexer state (statements, node ids, links, shape openers) and of the `dir` state
 * right after `flowchart`/`graph`, in Mermaid's order: the first rule that matches wins. Keywords, the
 * `direction` rule and edge ids are tried before plain node ids, exactly as in Mermaid, which is why `end`,
 * `A[direction LR]` and `A[me@home]` do not read as one might expect.
 *
 * Our one addition: at a token start, `%%` after a statement starts a same-line comment, skipped to the end of
 * the line and reported through `onComment` (Mermaid fails on it instead).
 */
import {
  CH,
  isDigit,
  isInlineWhitespace,
  isNodeStringChar,
  isNodeStringDash,
  isUnicodeLetter,
  isWhitespace,
  isWordChar,
} from '../source/char-class.js';
import type { EntityRule } from '../source/entity-rule.js';
import { DirectionTable } from './direction-table.js';
import { matchDottedLink, matchDottedStart, matchInvisibleLink, matchSolidLink, matchSolidStart, mayStartLink } from './link-patterns.js';
import type { ScanCursor } from './scan-cursor.js';
import { oneCharOpener, openString, pushText, shapeOpener, sharedRules } from './shared-rules.js';
import type { Token, TokenKind } from './token.js';

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

export class InitialRules {
  readonly #c: ScanCursor;
  readonly #onComment: (start: number, end: number) => void;
  readonly #directions: DirectionTable;
  readonly #entities: EntityRule;
  #firstGraph = true;
  // The run `[^\s"]+` the LINK_ID rule last measured, and the last `@` in it that may end a LINK_ID.
  #idRunFrom = -1;
  #idRunEnd = -1;
  #idRunAt = -1;

  constructor(cursor: ScanCursor, entities: EntityRule, onComment: (start: number, end: number) => void) {
    this.#c = cursor;
    this.#onComment = onComment;
    this.#directions = new DirectionTable(cursor.text);
    this.#entities = entities;
  }

  /** The initial state. */
  scan(p: number): Token | null {
    const c = this.#c;
    const code = c.code(p);
    // Fast path: no keyword, link or opener starts with an upper-case letter.
    if (code >= 0x41 && code <= 0x5a) return this.#idLike(p) ?? c.tok('NODE_STRING', p, this.#nodeStringEnd(p));
    if ((code === CH.space || code === CH.tab || code === CH.percent) && this.#sameLineComment(p)) return null;
    const early = this.#beforeKeywords(p);
    if (early !== undefined) return early;
    const word = this.#keywordToken(p);
    if (word) return word;
    const idLike = this.#idLike(p);
    if (idLike) return idLike;
    if (isDigit(code)) {
      let e = p + 1;
      while (isDigit(c.code(e))) e++;
      return c.tok('NUM', p, e);
    }
    const single = this.#punctuation(p);
    if (single) return single;
    // Every link pattern starts with `\s*` then one of a few characters: test that before trying them.
    if ((isWhitespace(code) || mayStartLink(code)) && mayStartLink(c.code(c.wsEnd(p)))) {
      const link = this.#link(p);
      if (link) return link;
    }
    const late = shapeOpener(c, p, true) ?? this.#operator(p);
    if (late) return late;
    const nodeString = this.#nodeStringEnd(p);
    if (nodeString > p) return c.tok('NODE_STRING', p, nodeString);
    if (code === CH.dash) return c.tok('MINUS', p, p + 1);
    if (isUnicodeLetter(code)) return c.tok('UNICODE_TEXT', p, p + 1);
    const bracket = oneCharOpener(c, p);
    if (bracket) return bracket;
    if (code === CH.lf) {
      let e = p + 1;
      while (c.code(e) === CH.lf) e++;
      return c.tok('NEWLINE', p, e);
    }
    if (isWhitespace(code)) return c.tok('SPACE', p, c.inlineWsEnd(p));
    return c.error(p, unexpectedMessage(c.text, p));
  }

  /** The `dir` state: the direction after `flowchart`, or the end of its line. */
  scanDirection(p: number): Token | null {
    const c = this.#c;
    const code = c.code(p);
    if ((code === CH.space || code === CH.tab || code === CH.percent) && this.#sameLineComment(p)) return null;
    if (code === CH.quote) return openString(c, p);
    const q = c.wsEnd(p);
    const lastNewline = c.text.lastIndexOf('\n', q - 1);
    if (lastNewline >= p) {
      c.pop();
      return c.tok('NODIR', p, lastNewline + 1);
    }
    const d = c.code(q);
    let length = 0;
    if (DIRECTION_WORDS.includes(c.text.slice(q, q + 2)) && !isWordChar(c.code(q + 2))) length = 2;
    else if (d === CH.less || d === CH.greater || d === CH.caret) length = 1;
    else if (d === CH.v && !isWordChar(c.code(q + 1))) length = 1;
    if (length > 0) {
      c.pop();
      return c.tok('DIR', p, q + length);
    }
    let wordEnd = q;
    while (wordEnd < c.text.length && !isWhitespace(c.code(wordEnd))) wordEnd++;
    const message = isWordChar(d)
      ? `Unknown direction '${c.text.slice(q, wordEnd)}'`
      : `Unexpected '${c.text.charAt(q)}' after the diagram type`;
    return sharedRules(c, q, message);
  }

  /** A `%%` after a statement: skipped to the end of the line and reported (`%%{` is text, as in Mermaid). */
  #sameLineComment(p: number): boolean {
    const c = this.#c;
    const at = c.inlineWsEnd(p);
    if (c.code(at) !== CH.percent || c.code(at + 1) !== CH.percent || c.code(at + 2) === CH.lbrace) return false;
    const lineEnd = c.lineEnd(at);
    let end = lineEnd;
    while (end > at && isInlineWhitespace(c.code(end - 1))) end--;
    this.#onComment(at, end);
    c.pos = lineEnd;
    return true;
  }

  /** Mermaid's first rules: `accTitle:`, `accDescr:`, `accDescr {`, `@{`, `call `, and quotes. */
  #beforeKeywords(p: number): Token | null | undefined {
    const c = this.#c;
    const code = c.code(p);
    if (code === CH.a) {
      for (const [word, kind, state] of [
        ['accTitle', 'ACC_TITLE', 'acc_title'],
        ['accDescr', 'ACC_DESCR', 'acc_descr'],
      ] as const) {
        if (!c.at(p, word)) continue;
        const q = c.wsEnd(p + word.length);
        if (c.code(q) === CH.colon) {
          c.push(state);
          return c.tok(kind, p, c.wsEnd(q + 1));
        }
        if (kind === 'ACC_DESCR' && c.code(q) === CH.lbrace) {
          c.push('acc_descr_multiline');
          return c.tok('ACC_DESCR', p, c.wsEnd(q + 1));
        }
      }
    }
    if (code === CH.at && c.code(p + 1) === CH.lbrace) {
      c.push('shapeData');
      return c.tok('SHAPE_DATA_START', p, p + 2);
    }
    if (c.at(p, 'call') && isWhitespace(c.code(p + 4))) {
      c.push('callbackname');
      return c.tok('CALL_KEYWORD', p, c.wsEnd(p + 4));
    }
    return code === CH.quote ? openString(c, p) : undefined;
  }

  #keywordToken(p: number): Token | null {
    const c = this.#c;
    const code = c.code(p);
    if (code < 0x5f /* _ */ || code > 0x7a /* z */) return null;
    for (const [word, kind] of KEYWORDS) if (c.keyword(p, word)) return c.tok(kind, p, p + word.length);
    if (c.at(p, 'href') && isWhitespace(c.code(p + 4))) return c.tok('HREF', p, p + 5);
    if (c.at(p, 'click') && isWhitespace(c.code(p + 5))) {
      c.push('click');
      return c.tok('CLICK_KEYWORD', p, c.wsEnd(p + 5));
    }
    for (const word of GRAPH_KEYWORDS) {
      if (!c.keyword(p, word)) continue;
      if (this.#firstGraph) {
        this.#firstGraph = false;
        c.push('dir');
      }
      return c.tok('GRAPH', p, p + word.length);
    }
    if (c.keyword(p, 'subgraph')) return c.tok('SUBGRAPH', p, p + 8);
    if (c.keyword(p, 'end')) return c.tok('END', p, c.wsEnd(p + 3));
    for (const word of LINK_TARGETS) if (c.keyword(p, word)) return c.tok('LINK_TARGET', p, p + word.length);
    return null;
  }

  /** The rules between the keywords and `NUM`: a `direction` line and an edge id (`e1@`). */
  #idLike(p: number): Token | null {
    const c = this.#c;
    const direction = this.#directions.match(p);
    if (direction !== -1) return c.tok('DIRECTION', p, direction);
    const linkId = this.#linkIdEnd(p);
    return linkId === -1 ? null : c.tok('LINK_ID', p, linkId);
  }

  /** Mermaid's `[^\s"]+@(?=[^{"])`: an edge id such as `e1@-->`. */
  #linkIdEnd(p: number): number {
    const c = this.#c;
    const code = c.code(p);
    if (isWhitespace(code) || code === CH.quote) return -1;
    if (p < this.#idRunFrom || p >= this.#idRunEnd) {
      const text = c.text;
      let e = p;
      let lastAt = -1;
      while (e < text.length) {
        const ch = text.charCodeAt(e);
        if (isWhitespace(ch) || ch === CH.quote) break;
        if (ch === CH.at) {
          const next = text.charCodeAt(e + 1);
          if (e + 1 < text.length && next !== CH.lbrace && next !== CH.quote) lastAt = e;
        }
        e++;
      }
      this.#idRunFrom = p;
      this.#idRunEnd = e;
      this.#idRunAt = lastAt;
    }
    return this.#idRunAt > p ? this.#idRunAt + 1 : -1;
  }

  /** `#`, `:::`, `:`, `&`, `;`, `,`, `*`; a `#name;` entity is an error here (see `EntityRule`). */
  #punctuation(p: number): Token | null {
    const c = this.#c;
    switch (c.code(p)) {
      case CH.hash: {
        const entity = this.#entities.end(p);
        if (entity === -1) return c.tok('BRKT', p, p + 1);
        const text = c.text.slice(p, entity);
        return c.errorSpan(p, entity, `Mermaid reads '${text}' as an entity (like #quot;), and entities are only allowed inside labels`);
      }
      case CH.colon:
        return c.at(p, ':::') ? c.tok('STYLE_SEPARATOR', p, p + 3) : c.tok('COLON', p, p + 1);
      case CH.amp:
        return c.tok('AMP', p, p + 1);
      case CH.semi:
        return c.tok('SEMI', p, p + 1);
      case CH.comma:
        return c.tok('COMMA', p, p + 1);
      case CH.star:
        return c.tok('MULT', p, p + 1);
    }
    return null;
  }

  /** Links in the order of Mermaid's rules: solid, solid text start, thick, thick start, dotted, dotted start, invisible. */
  #link(p: number): Token | null {
    const c = this.#c;
    const text = c.text;
    let end = matchSolidLink(text, p, c.wsEnd, CH.dash);
    if (end !== -1) return c.tok('LINK', p, end);
    end = matchSolidStart(text, p, c.wsEnd, CH.dash);
    if (end !== -1) return this.#startEdgeText(p, end, 'edgeText');
    end = matchSolidLink(text, p, c.wsEnd, CH.equals);
    if (end !== -1) return c.tok('LINK', p, end);
    end = matchSolidStart(text, p, c.wsEnd, CH.equals);
    if (end !== -1) return this.#startEdgeText(p, end, 'thickEdgeText');
    end = matchDottedLink(text, p, c.wsEnd);
    if (end !== -1) return c.tok('LINK', p, end);
    end = matchDottedStart(text, p, c.wsEnd);
    if (end !== -1) return this.#startEdgeText(p, end, 'dottedEdgeText');
    end = matchInvisibleLink(text, p, c.wsEnd);
    return end === -1 ? null : c.tok('LINK', p, end);
  }

  #startEdgeText(p: number, end: number, state: 'edgeText' | 'thickEdgeText' | 'dottedEdgeText'): Token {
    this.#c.push(state);
    return this.#c.tok('START_LINK', p, end);
  }

  /** `>` (which opens an asymmetric shape's label), `<`, `^`, `\|` and `v`. */
  #operator(p: number): Token | undefined {
    const c = this.#c;
    switch (c.code(p)) {
      case CH.greater:
        return pushText(c, 'TAGEND', p, 1);
      case CH.less:
        return c.tok('TAGSTART', p, p + 1);
      case CH.caret:
        return c.tok('UP', p, p + 1);
      case CH.backslash:
        return c.code(p + 1) === CH.pipe ? c.tok('SEP', p, p + 2) : undefined;
      case CH.v:
        return isWordChar(c.code(p + 1)) ? undefined : c.tok('DOWN', p, p + 1);
    }
    return undefined;
  }

  /**
   * Mermaid's `NODE_STRING`: `([A-Za-z0-9!"#$%&'*+.\`?\\_/]|-(?=[^>\-.]))+`, cut short before an entity
   * (which Mermaid has replaced by then).
   */
  #nodeStringEnd(p: number): number {
    const c = this.#c;
    let e = p;
    for (;;) {
      const code = c.code(e);
      if (code === CH.hash && this.#entities.end(e) !== -1) return e;
      if (isNodeStringChar(code)) e++;
      else if (code === CH.dash && isNodeStringDash(c.code(e + 1))) e++;
      else return e;
    }
  }
}

function unexpectedMessage(text: string, p: number): string {
  const ch = String.fromCodePoint(text.codePointAt(p) ?? 0);
  switch (ch) {
    case '=':
      return "Unexpected '=': a thick link is written '==>' (or '===')";
    case ')':
    case ']':
    case '}':
      return `Unexpected '${ch}' without a matching opening bracket`;
    default:
      return `Unexpected character '${ch}'`;
  }
}
