/**
 * The parser's view of the scanner: tokens with lookahead. Mermaid's lexer never looks at the parser, so tokens
 * can be scanned ahead of need and buffered; `reset` drops the buffer and restarts the scanner (error recovery).
 */
import type { Lexer } from './lexer.js';
import type { Token, TokenKind } from './token.js';

export class TokenStream {
  readonly #lexer: Lexer;
  #buffer: Token[] = [];
  #previous: Token | undefined;

  constructor(lexer: Lexer) {
    this.#lexer = lexer;
  }

  /** The token `ahead` positions after the current one (0 = the current one), without consuming it. */
  peek(ahead = 0): Token {
    while (this.#buffer.length <= ahead) this.#buffer.push(this.#lexer.next());
    return this.#buffer[ahead] as Token;
  }

  next(): Token {
    const token = this.peek();
    this.#buffer.shift();
    this.#previous = token;
    return token;
  }

  /** Consumes the current token if it has the given kind. */
  accept(kind: TokenKind): Token | undefined {
    return this.peek().kind === kind ? this.next() : undefined;
  }

  /** The last consumed token. */
  get previous(): Token | undefined {
    return this.#previous;
  }

  reset(offset: number): void {
    this.#buffer = [];
    this.#lexer.reset(offset);
  }
}
