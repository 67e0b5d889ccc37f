/**
 * Entity codes in labels (`#quot;`, `#amp;`, `#35;`), read the way Mermaid reads them. Mermaid hides each code
 * behind placeholder characters before lexing (`#quot;` → `ﬂ°quot¶ß`, `#35;` → `ﬂ°°35¶ß`), builds and trims the
 * label with the placeholders in it, and turns them into HTML character references (`&quot;`, `&#35;`) when it
 * draws, which the browser then decodes. So a label is read in two steps: `hideEntities` (the text as Mermaid's
 * grammar sees it), then, after trimming or YAML, `revealEntities` (what the reader sees: the HTML decoding of
 * each reference, unknown names staying as written, `&x41;`).
 *
 * Only the codes are decoded: HTML written directly in a label (`&amp;`, `<br>`) is kept as written.
 */
import { decodeHTML } from 'entities';
import { CH, isDigit } from '../source/char-class.js';
import type { EntityRule } from '../source/entity-rule.js';

// Mermaid's own placeholders, so that text which already holds them reads as it does in Mermaid.
const OPEN = '\uFB02\u00B0';
const NUMERIC = '\u00B0';
const CLOSE = '\u00B6\u00DF';
const PLACEHOLDER = /\uFB02\u00B0(\u00B0?)(\w+)\u00B6\u00DF/g;

/** The text from `start` to `end` as Mermaid's grammar sees it: each entity code replaced by its placeholder. */
export function hideEntities(text: string, start: number, end: number, entities: EntityRule): string {
  let out = '';
  let from = start;
  for (let p = start; p < end; p++) {
    if (text.charCodeAt(p) !== CH.hash) continue;
    const after = entities.end(p);
    if (after === -1 || after > end) continue;
    const name = text.slice(p + 1, after - 1);
    out += text.slice(from, p) + OPEN + (isNumeric(name) ? NUMERIC : '') + name + CLOSE;
    from = after;
    p = after - 1;
  }
  return out + text.slice(from, end);
}

/** Replaces every placeholder by the characters its HTML character reference stands for. */
export function revealEntities(text: string): string {
  if (!text.includes(OPEN)) return text;
  return text.replace(PLACEHOLDER, (_, numeric: string, name: string) => decodeHTML(`&${numeric ? '#' : ''}${name};`));
}

/** Mermaid's test for a numeric code (`/^\+?\d+$/`; a `+` cannot occur, `\w` excludes it). */
function isNumeric(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (!isDigit(name.charCodeAt(i))) return false;
  return true;
}
