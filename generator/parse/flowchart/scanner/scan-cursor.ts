/**
 * The scanner's position and state stack, and the small operations every state's rules are written with: look
 * at characters, produce a token (which moves the position to its end), consume without a token, push and pop
 * states. Mermaid's lexer keeps a stack of states too (`pushState`/`begin` push, `popState` pops, the initial
 * state is never popped); the rule modules (`*-rules.ts`) work on this cursor.
 */
import { isInlineWhitespace, isWhitespace, isWordChar } from '../source/char-class.js';
import { lineEnd } from '../source/lines.js';
import { RunCache } from './run-cache.js';
import type { Token, TokenKind } from './token.js';

/** Mermaid's lexer states, by their names in Mermaid's grammar. */
export type LexState =
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

export class ScanCursor {
  readonly text: string;
  pos = 0;
  stack: LexState[] = ['INITIAL'];
  readonly #ws: RunCache;
  readonly #inlineWs: RunCache;

  constructor(text: string) {
    this.text = text;
    this.#ws = new RunCache(text, isWhitespace);
    this.#inlineWs = new RunCache(text, isInlineWhitespace);
  }

  get state(): LexState {
    return this.stack[this.stack.length - 1] as LexState;
  }

  push(state: LexState): void {
    this.stack.push(state);
  }

  pop(): void {
    if (this.stack.length > 1) this.stack.pop();
  }

  code(p: number): number {
    return this.text.charCodeAt(p);
  }

  at(p: number, word: string): boolean {
    return this.text.startsWith(word, p);
  }

  /** `word\b`: the word at `p`, not followed by an ASCII word character. */
  keyword(p: number, word: string): boolean {
    return this.at(p, word) && !isWordChar(this.code(p + word.length));
  }

  /** The end of the run of `\s` starting at `from` (cached, see `RunCache`). */
  readonly wsEnd = (from: number): number => this.#ws.end(from);

  /** The end of the run of blanks (whitespace but line breaks) starting at `from`. */
  inlineWsEnd(from: number): number {
    return this.#inlineWs.end(from);
  }

  /** The offset of the `\n` ending the line that holds `p` (or the end of the text). */
  lineEnd(p: number): number {
    return lineEnd(this.text, p);
  }

  tok(kind: TokenKind, start: number, end: number): Token {
    this.pos = end;
    return { kind, start, end, text: this.text.slice(start, end) };
  }

  /** Consumes input without producing a token (Mermaid rules that only change state). */
  skip(to: number): null {
    this.pos = to;
    return null;
  }

  /** A lexical error at one character (a whole code point). */
  error(start: number, message: string): Token {
    const text = String.fromCodePoint(this.text.codePointAt(start) ?? 0);
    return this.errorSpan(start, start + text.length, message);
  }

  errorSpan(start: number, end: number, message: string): Token {
    this.pos = end;
    return { kind: 'ERROR', start, end, text: this.text.slice(start, end), message };
  }
}
