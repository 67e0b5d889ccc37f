/**
 * Where Mermaid sees entity codes. Before lexing, Mermaid replaces every `#name;` in the text (`#quot;`, `#35;`)
 * with placeholder characters that its lexer accepts only inside labels and edge text, where they are decoded
 * when the chart is drawn; anywhere else they are a syntax error (`linkStyle 0 stroke:#f00;` fails). One
 * exception, also Mermaid's: on a line matching `style…:…#…;` or `classDef…:…#…;` the last `;` is removed
 * first, so `style A fill:#f00;` has no entity (and a label on that line loses that `;`).
 * The scanner asks this rule at every `#` outside labels, the parser at every `#` inside them; the removed `;`s
 * are found once, in one pass over the lines that hold a keyword.
 */
import { CH, isInlineWhitespace, isWordChar } from './char-class.js';
import { lineEnd, lineStart } from './lines.js';

/** The keywords of Mermaid's two replacements, in the order it applies them. */
const KEYWORDS = ['style', 'classDef'] as const;

export class EntityRule {
  readonly #text: string;
  /** The `;`s Mermaid removes (see the banner), found once. */
  readonly #dropped = new Set<number>();

  constructor(text: string) {
    this.#text = text;
    const lines = new Map<number, number>();
    for (const keyword of KEYWORDS) {
      // One look per line: after a hit, go on from the end of its line.
      for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, lineEnd(text, at))) {
        lines.set(lineStart(text, at), lineEnd(text, at));
      }
    }
    for (const [start, end] of lines) this.#dropLine(start, end);
  }

  /** If an entity `#name;` starts at `p` (and Mermaid would hide it), the offset after its `;`; otherwise -1. */
  end(p: number): number {
    const text = this.#text;
    if (text.charCodeAt(p) !== CH.hash) return -1;
    let e = p + 1;
    while (isWordChar(text.charCodeAt(e))) e++;
    if (e === p + 1 || text.charCodeAt(e) !== CH.semi) return -1;
    return this.#dropped.has(e) ? -1 : e + 1;
  }

  /** Whether Mermaid removes the `;` at `p` before lexing (see the banner). */
  isDropped(p: number): boolean {
    return this.#dropped.has(p);
  }

  /**
   * Mermaid's two replacements on one line, in its order: `/style.*:\S*#.*;/` then `/classDef.*:\S*#.*;/`, each
   * removing the last `;` still on the line when, after the keyword, a `:` is followed by non-blanks up to a `#`
   * with a `;` after it.
   */
  #dropLine(start: number, end: number): void {
    const text = this.#text;
    for (const keyword of KEYWORDS) {
      const at = text.indexOf(keyword, start);
      if (at === -1 || at >= end) continue;
      const hash = hashAfterColon(text, at + keyword.length, end);
      if (hash === -1) continue;
      let semi = end - 1;
      while (semi > hash && (text.charCodeAt(semi) !== CH.semi || this.#dropped.has(semi))) semi--;
      if (semi > hash) this.#dropped.add(semi);
    }
  }
}

/** The first `#` in `[from, end)` reached from a `:` through non-blanks only (`:\S*#`), or -1. */
function hashAfterColon(text: string, from: number, end: number): number {
  let afterColon = false;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === CH.colon) afterColon = true;
    else if (c === CH.hash && afterColon) return i;
    else if (isInlineWhitespace(c)) afterColon = false;
  }
  return -1;
}
