/**
 * The parser's view of the scanner: tokens with lookahead. Mermaid's lexer never looks at the parser, so tokens
 * can be scanned ahead of need and buffered; `reset` drops the buffer and restarts the scanner (error recovery).
 */
import type { Lexer } from '../scanner/lexer.js';
import type { Token, TokenKind } from '../scanner/token.js';

export class TokenStream {
  readonly #lexer: Lexer;
  /** Scanned tokens; those before `#head` are consumed. */
  #buffer: Token[] = [];
  #head = 0;
  #previous: Token | undefined;

  constructor(lexer: Lexer) {
    this.#lexer = lexer;
  }

  /** The token `ahead` positions after the current one (0 = the current one), without consuming it. */
  peek(ahead = 0): Token {
    const buffer = this.#buffer;
    while (buffer.length <= this.#head + ahead) buffer.push(this.#lexer.next());
    return buffer[this.#head + ahead] as Token;
  }

  next(): Token {
    const token = this.peek();
    this.#head++;
    if (this.#head === this.#buffer.length) {
      this.#buffer.length = 0;
      this.#head = 0;
    }
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

  /** Restarts at `offset` (error recovery). */
  reset(offset: number): void {
    this.#buffer = [];
    this.#head = 0;
    this.#lexer.reset(offset);
  }

  /** How many characters resets have sent the scanner back over, in total (see `Lexer.rescanned`). */
  get rescanned(): number {
    return this.#lexer.rescanned;
  }
}
