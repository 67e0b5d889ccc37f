/**
 * Mermaid's entity escapes outside labels. Before lexing, Mermaid replaces every `#name;` in the text (`#quot;`,
 * `#35;`) with placeholder characters that its lexer accepts only inside labels and edge text; anywhere else they
 * are a syntax error (`linkStyle 0 stroke:#f00;` fails). One exception, also Mermaid's: on a line matching
 * `style…:…#…;` or `classDef…:…#…;` the last `;` is dropped first, so `style A fill:#f00;` has no entity.
 * The scanner asks this rule at every `#` outside labels; the per-line exception is computed once per line.
 */
import { CH, isInlineWhitespace, isWordChar } from '../source/char-class.js';
import { lineEnd, lineStart } from '../source/lines.js';

export class EntityRule {
  readonly #text: string;
  #lineStart = -1;
  #lineEnd = -1;
  #dropped = -1;

  constructor(text: string) {
    this.#text = text;
  }

  /** If an entity `#name;` starts at `p` (and Mermaid would hide it), the offset after its `;`; otherwise -1. */
  end(p: number): number {
    const text = this.#text;
    if (text.charCodeAt(p) !== CH.hash) return -1;
    let e = p + 1;
    while (isWordChar(text.charCodeAt(e))) e++;
    if (e === p + 1 || text.charCodeAt(e) !== CH.semi) return -1;
    return e === this.#droppedSemicolon(p) ? -1 : e + 1;
  }

  /** The `;` Mermaid drops on the line holding `p` (see the banner), or -1. */
  #droppedSemicolon(p: number): number {
    if (p < this.#lineStart || p > this.#lineEnd) {
      const text = this.#text;
      this.#lineStart = lineStart(text, p);
      this.#lineEnd = lineEnd(text, p);
      this.#dropped = droppedSemicolon(text, this.#lineStart, this.#lineEnd);
    }
    return this.#dropped;
  }
}

function droppedSemicolon(text: string, start: number, end: number): number {
  const line = text.slice(start, end);
  const style = line.indexOf('style');
  const classDef = line.indexOf('classDef');
  const keyword = style === -1 ? classDef : classDef === -1 ? style : Math.min(style, classDef);
  if (keyword === -1) return -1;
  // `:\S*#`: a colon, then non-blanks up to a `#`.
  let afterColon = false;
  let hash = -1;
  for (let i = keyword; i < line.length && hash === -1; i++) {
    const c = line.charCodeAt(i);
    if (c === CH.colon) afterColon = true;
    else if (c === CH.hash && afterColon) hash = i;
    else if (isInlineWhitespace(c)) afterColon = false;
  }
  if (hash === -1) return -1;
  const semi = line.lastIndexOf(';');
  return semi > hash ? start + semi : -1;
}
