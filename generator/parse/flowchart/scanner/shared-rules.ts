/**
 * The rules Mermaid's lexer shares between states: quotes open a string in every state, `~~~` is a link in every
 * state, and the shape openers (`(-`, `([`, `[[`, `[(`, `(((`, `[/`, `[\`) and one-character openers (`|`, `(`, `[`,
 * `{`) each open a label. Each function returns a token, `null` when it consumed input without a token, or
 * `undefined` when its rule does not apply.
 */
import { CH, isWhitespace } from '../source/char-class.js';
import { matchInvisibleLink } from './link-patterns.js';
import type { ScanCursor } from './scan-cursor.js';
import type { Token, TokenKind } from './token.js';

/** `"` opens a string, `` "` `` a markdown string. */
export function openString(c: ScanCursor, p: number): null {
  if (c.code(p + 1) === CH.backtick) {
    c.push('md_string');
    return c.skip(p + 2);
  }
  c.push('string');
  return c.skip(p + 1);
}

/** `~~~` (with Mermaid's surrounding `\s*`), which is a link in every state. */
export function invisibleLink(c: ScanCursor, p: number): Token | undefined {
  const code = c.code(p);
  if (!isWhitespace(code) && code !== CH.tilde) return undefined;
  const end = matchInvisibleLink(c.text, p, c.wsEnd);
  return end === -1 ? undefined : c.tok('LINK', p, end);
}

export function pushText(c: ScanCursor, kind: TokenKind, p: number, length: number): Token {
  c.push('text');
  return c.tok(kind, p, p + length);
}

export function popText(c: ScanCursor, kind: TokenKind, p: number, length: number): Token {
  c.pop();
  return c.tok(kind, p, p + length);
}

/**
 * The openers Mermaid tries before a plain `(` or `[`: `(-`, `([`, `(((`, `[[`, `[|` (initial state only), `[(`,
 * `[/`, `[\`.
 */
export function shapeOpener(c: ScanCursor, p: number, initial: boolean): Token | undefined {
  const code = c.code(p);
  const next = c.code(p + 1);
  if (code === CH.lparen) {
    if (next === CH.dash) {
      c.push('ellipseText');
      return c.tok('ELLIPSE_START', p, p + 2);
    }
    if (next === CH.lbracket) return pushText(c, 'STADIUMSTART', p, 2);
    if (next === CH.lparen && c.code(p + 2) === CH.lparen) return pushText(c, 'DOUBLECIRCLESTART', p, 3);
    return undefined;
  }
  if (code !== CH.lbracket) return undefined;
  switch (next) {
    case CH.lbracket:
      return pushText(c, 'SUBROUTINESTART', p, 2);
    case CH.pipe:
      return initial ? c.tok('VERTEX_WITH_PROPS_START', p, p + 2) : undefined;
    case CH.lparen:
      return pushText(c, 'CYLINDERSTART', p, 2);
    case CH.slash:
      c.push('trapText');
      return c.tok('TRAPSTART', p, p + 2);
    case CH.backslash:
      c.push('trapText');
      return c.tok('INVTRAPSTART', p, p + 2);
  }
  return undefined;
}

/** `|`, `(`, `[`, `{`: each opens a label. */
export function oneCharOpener(c: ScanCursor, p: number): Token | undefined {
  switch (c.code(p)) {
    case CH.pipe:
      return pushText(c, 'PIPE', p, 1);
    case CH.lparen:
      return pushText(c, 'PS', p, 1);
    case CH.lbracket:
      return pushText(c, 'SQS', p, 1);
    case CH.lbrace:
      return pushText(c, 'DIAMOND_START', p, 1);
  }
  return undefined;
}

/**
 * What every exclusive state tries after its own rules: quotes, `~~~`, the openers. Anything else is a lexical
 * error, reported with `message`.
 */
export function sharedRules(c: ScanCursor, p: number, message: string): Token | null {
  if (c.code(p) === CH.quote) return openString(c, p);
  return invisibleLink(c, p) ?? shapeOpener(c, p, false) ?? oneCharOpener(c, p) ?? c.error(p, message);
}
