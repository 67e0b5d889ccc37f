/**
 * Where Mermaid sees entity codes. Mermaid replaces every `#name;` in its text (`#quot;`, `#35;`) with placeholder
 * characters that its lexer accepts only inside labels and edge text, where they are decoded when the chart is
 * drawn; anywhere else they are a syntax error (`linkStyle 0 stroke:#f00;` fails). (Before that, Mermaid removes
 * the last `;` of `style`/`classDef` lines: the preprocessor has done it, so `style A fill:#f00;` has no entity.)
 * The scanner asks this rule at every `#` outside labels, the parser at every `#` inside them.
 */
import { CH, isWordChar } from './char-class.js';

export class EntityRule {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  /** If an entity `#name;` starts at `p`, the offset after its `;`; otherwise -1. */
  end(p: number): number {
    const text = this.#text;
    if (text.charCodeAt(p) !== CH.hash) return -1;
    let e = p + 1;
    while (isWordChar(text.charCodeAt(e))) e++;
    return e === p + 1 || text.charCodeAt(e) !== CH.semi ? -1 : e + 1;
  }
}
