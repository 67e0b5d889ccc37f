/**
 * The scanner: Mermaid's flowchart lexer, rule for rule, without regular expressions. Mermaid's lexer is a stack
 * of states (inside a label, inside edge text, after `click` …) where, at each position, the first rule of the
 * current state that matches wins; the `*-rules.ts` modules hold those rules in Mermaid's order, and this class
 * dispatches on the current state. It therefore splits text exactly as Mermaid does, quirks included (in
 * `A-- go--> B` the arrow is `o-->`).
 *
 * The one thing it adds: a `%%` comment after a statement is skipped to the end of its line and reported as a
 * warning (SOP013, in `comments`), where Mermaid fails.
 *
 * Linear time: each rule looks at a bounded number of characters past the ones it consumes, the `\s*` prefixes
 * and the `direction` rule use caches, and `rescanned` lets the parser bound what error recovery scans again.
 */
import type { RawProblem } from '../problem.js';
import type { EntityRule } from '../source/entity-rule.js';
import { scanEdgeText } from './edge-text-rules.js';
import { InitialRules } from './initial-rules.js';
import { scanEllipseText, scanMarkdownString, scanString, scanText, scanTrapText } from './label-rules.js';
import { ScanCursor } from './scan-cursor.js';
import {
  scanAccDescrBlock,
  scanAccValue,
  scanCallbackArgs,
  scanCallbackName,
  scanClick,
  scanShapeData,
  scanShapeDataString,
} from './statement-rules.js';
import type { Token } from './token.js';

export class Lexer {
  readonly #c: ScanCursor;
  readonly #initial: InitialRules;
  /** Same-line comments by start offset (error recovery may scan one twice). */
  readonly #comments = new Map<number, RawProblem>();
  #furthest = 0;
  #rescanned = 0;

  /**
   * @param text the preprocessed block text, ending with the `\n` Mermaid appends before parsing.
   * @param entities where Mermaid sees entity codes in that text.
   */
  constructor(text: string, entities: EntityRule) {
    this.#c = new ScanCursor(text);
    this.#initial = new InitialRules(this.#c, entities, (start, end) => {
      this.#comments.set(start, {
        code: 'SOP013',
        message: "A '%%' comment shares a line with a statement; Mermaid renderers reject it, so it was ignored",
        start,
        end,
        remediation: 'Move the comment to a line of its own.',
      });
    });
  }

  /** The scanned text. */
  get text(): string {
    return this.#c.text;
  }

  /** The same-line `%%` comments skipped so far (SOP013 warnings). */
  get comments(): readonly RawProblem[] {
    return [...this.#comments.values()];
  }

  /** The next token; `EOF` forever at the end. */
  next(): Token {
    const c = this.#c;
    for (;;) {
      const p = c.pos;
      if (p >= c.text.length) return { kind: 'EOF', start: c.text.length, end: c.text.length, text: '' };
      const token = this.#scan(p);
      if (token) return token;
    }
  }

  /** Restarts scanning at `offset` in the initial state (error recovery). */
  reset(offset: number): void {
    const c = this.#c;
    const to = Math.min(offset, c.text.length);
    this.#furthest = Math.max(this.#furthest, c.pos);
    this.#rescanned += Math.max(0, this.#furthest - to);
    c.pos = to;
    c.stack = ['INITIAL'];
  }

  /**
   * Characters scanned again after a reset went back over them. Error recovery may go back (to the line after an
   * unclosed `[`); the parser stops recovering once this grows past the text's length, which keeps any input
   * linear.
   */
  get rescanned(): number {
    return this.#rescanned;
  }

  #scan(p: number): Token | null {
    const c = this.#c;
    const state = c.state;
    switch (state) {
      case 'INITIAL':
        return this.#initial.scan(p);
      case 'dir':
        return this.#initial.scanDirection(p);
      case 'string':
        return scanString(c, p);
      case 'md_string':
        return scanMarkdownString(c, p);
      case 'text':
        return scanText(c, p);
      case 'trapText':
        return scanTrapText(c, p);
      case 'ellipseText':
        return scanEllipseText(c, p);
      case 'edgeText':
      case 'thickEdgeText':
      case 'dottedEdgeText':
        return scanEdgeText(c, p, state);
      case 'click':
        return scanClick(c, p);
      case 'callbackname':
        return scanCallbackName(c, p);
      case 'callbackargs':
        return scanCallbackArgs(c, p);
      case 'acc_title':
      case 'acc_descr':
        return scanAccValue(c, p);
      case 'acc_descr_multiline':
        return scanAccDescrBlock(c, p);
      case 'shapeData':
        return scanShapeData(c, p);
      case 'shapeDataStr':
        return scanShapeDataString(c, p);
    }
  }
}
