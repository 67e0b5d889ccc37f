/**
 * The rules of Mermaid's label states: inside quotes (`string`, `md_string`), inside shape delimiters and `|…|`
 * (`text`), inside `[/…/]`-style shapes (`trapText`) and inside `(-…-)` (`ellipseText`). A label ends at its
 * closer, and any opener inside it opens a nested label, which the grammar then rejects: that is why
 * `A[f(x)]` needs quotes.
 */
import { CH, isWhitespace } from '../source/char-class.js';
import { matchInvisibleLink } from './link-patterns.js';
import type { ScanCursor } from './scan-cursor.js';
import { invisibleLink, openString, popText, pushText, shapeOpener, sharedRules } from './shared-rules.js';
import type { Token } from './token.js';

/** Inside `"…"`: everything up to the closing quote. */
export function scanString(c: ScanCursor, p: number): Token | null {
  if (c.code(p) === CH.quote) {
    if (c.code(p + 1) === CH.backtick) {
      c.push('md_string');
      return c.skip(p + 2);
    }
    c.pop();
    return c.skip(p + 1);
  }
  const close = c.text.indexOf('"', p);
  return c.tok('STR', p, close === -1 ? c.text.length : close);
}

/** Inside `` "`…`" ``: everything up to the closing `` `" `` (a lone backtick is an error, as in Mermaid). */
export function scanMarkdownString(c: ScanCursor, p: number): Token | null {
  const code = c.code(p);
  if (code !== CH.backtick && code !== CH.quote) {
    let e = p + 1;
    while (e < c.text.length && c.code(e) !== CH.backtick && c.code(e) !== CH.quote) e++;
    return c.tok('MD_STR', p, e);
  }
  if (code === CH.backtick && c.code(p + 1) === CH.quote) {
    c.pop();
    return c.skip(p + 2);
  }
  if (code === CH.quote) return openString(c, p);
  return sharedRules(c, p, "A '`' inside a markdown string must be the closing '`\"'");
}

/** Inside `[…]`, `(…)`, `{…}`, `|…|` and the other shapes: text up to a delimiter. */
export function scanText(c: ScanCursor, p: number): Token | null {
  const code = c.code(p);
  if (code === CH.quote) return openString(c, p);
  const link = invisibleLink(c, p);
  if (link) return link;
  const next = c.code(p + 1);
  switch (code) {
    case CH.lparen:
      return shapeOpener(c, p, false) ?? pushText(c, 'PS', p, 1);
    case CH.lbracket:
      return shapeOpener(c, p, false) ?? pushText(c, 'SQS', p, 1);
    case CH.rbracket:
      if (next === CH.rparen) return popText(c, 'STADIUMEND', p, 2);
      if (next === CH.rbracket) return popText(c, 'SUBROUTINEEND', p, 2);
      return popText(c, 'SQE', p, 1);
    case CH.rparen:
      if (next === CH.rbracket) return popText(c, 'CYLINDEREND', p, 2);
      if (next === CH.rparen && c.code(p + 2) === CH.rparen) return popText(c, 'DOUBLECIRCLEEND', p, 3);
      return popText(c, 'PE', p, 1);
    case CH.pipe:
      return popText(c, 'PIPE', p, 1);
    case CH.rbrace:
      return popText(c, 'DIAMOND_STOP', p, 1);
    case CH.lbrace:
      return pushText(c, 'DIAMOND_START', p, 1);
  }
  let e = p + 1;
  while (e < c.text.length && !isLabelDelimiter(c.code(e))) e++;
  return c.tok('TEXT', p, e);
}

/** Inside `[/ … /]`, `[\ … \]` and their mixes. */
export function scanTrapText(c: ScanCursor, p: number): Token | null {
  const code = c.code(p);
  const next = c.code(p + 1);
  if (code === CH.quote) return openString(c, p);
  const link = invisibleLink(c, p);
  if (link) return link;
  if ((code === CH.lparen && next !== CH.rbracket) || (code === CH.lbracket && (next === CH.lbracket || next === CH.lparen))) {
    const opener = shapeOpener(c, p, false);
    if (opener) return opener;
  }
  // Mermaid's TRAPEND is `[\\(?=\])][\]]`: any of \ ( ? = ] ) followed by `]`.
  if (next === CH.rbracket && isTrapEndChar(code)) return popText(c, 'TRAPEND', p, 2);
  if (code === CH.slash && next === CH.rbracket) return popText(c, 'INVTRAPEND', p, 2);
  if (code === CH.slash || code === CH.backslash) return c.tok('TEXT', p, p + 1);
  if (!isTrapDelimiter(code)) {
    let e = p + 1;
    while (e < c.text.length && !isTrapDelimiter(c.code(e))) e++;
    return c.tok('TEXT', p, e);
  }
  return sharedRules(c, p, `Unexpected '${c.text.charAt(p)}' in a parallelogram or trapezoid label`);
}

/** Inside `(- … -)`, which the parser reports as unsupported but still reads to its end. */
export function scanEllipseText(c: ScanCursor, p: number): Token | null {
  const code = c.code(p);
  if (code === CH.quote) return openString(c, p);
  const link = invisibleLink(c, p);
  if (link) return link;
  if (isEllipseEnd(c, p)) return popText(c, 'ELLIPSE_END', p, 2);
  if (!isEllipseDelimiter(code)) {
    let e = p + 1;
    while (e < c.text.length) {
      const ch = c.code(e);
      if (isEllipseDelimiter(ch) || ch === CH.quote || isEllipseEnd(c, e)) break;
      if ((isWhitespace(ch) || ch === CH.tilde) && matchInvisibleLink(c.text, e, c.wsEnd) !== -1) break;
      e++;
    }
    return c.tok('TEXT', p, e);
  }
  return sharedRules(c, p, `Unexpected '${c.text.charAt(p)}' in an ellipse label`);
}

function isLabelDelimiter(code: number): boolean {
  return (
    code === CH.lbracket ||
    code === CH.rbracket ||
    code === CH.lparen ||
    code === CH.rparen ||
    code === CH.lbrace ||
    code === CH.rbrace ||
    code === CH.pipe ||
    code === CH.quote
  );
}

function isTrapDelimiter(code: number): boolean {
  return (
    code === CH.backslash ||
    code === CH.lbracket ||
    code === CH.rbracket ||
    code === CH.lparen ||
    code === CH.rparen ||
    code === CH.lbrace ||
    code === CH.rbrace ||
    code === CH.slash
  );
}

function isTrapEndChar(code: number): boolean {
  return (
    code === CH.backslash || code === CH.lparen || code === CH.question || code === CH.equals || code === CH.rbracket || code === CH.rparen
  );
}

function isEllipseDelimiter(code: number): boolean {
  return (
    code === CH.lparen || code === CH.rparen || code === CH.lbracket || code === CH.rbracket || code === CH.lbrace || code === CH.rbrace
  );
}

/** Mermaid's `[-/)][)]`. */
function isEllipseEnd(c: ScanCursor, p: number): boolean {
  const code = c.code(p);
  return (code === CH.dash || code === CH.slash || code === CH.rparen) && c.code(p + 1) === CH.rparen;
}
