/**
 * The lexer states of particular statements: `click` (its node id), `call name(args)`, the values of `accTitle:`,
 * `accDescr:` and `accDescr { … }`, and the text of `@{ … }` shape data (each `"` a token of its own, so the
 * parser knows what is quoted). Each reads raw text up to its terminator, as Mermaid does.
 */
import { CH, isWhitespace } from '../source/char-class.js';
import type { ScanCursor } from './scan-cursor.js';
import { openString, sharedRules } from './shared-rules.js';
import type { Token } from './token.js';

/** After `click `: the node id, then one blank that ends the state. */
export function scanClick(c: ScanCursor, p: number): Token | null {
  const code = c.code(p);
  if (code === CH.quote) return openString(c, p);
  if (isWhitespace(code)) {
    c.pop();
    return c.skip(p + 1);
  }
  let e = p;
  while (e < c.text.length && !isWhitespace(c.code(e))) e++;
  return c.tok('CLICK', p, e);
}

/** After `call `: the function name up to `(`; `()` ends the state, `(` opens the arguments. */
export function scanCallbackName(c: ScanCursor, p: number): Token | null {
  if (c.code(p) === CH.lparen) {
    const close = c.wsEnd(p + 1);
    c.pop();
    if (c.code(close) === CH.rparen) return c.skip(close + 1);
    c.push('callbackargs');
    return c.skip(p + 1);
  }
  const open = c.text.indexOf('(', p);
  return c.tok('CALLBACKNAME', p, open === -1 ? c.text.length : open);
}

export function scanCallbackArgs(c: ScanCursor, p: number): Token | null {
  if (c.code(p) === CH.rparen) {
    c.pop();
    return c.skip(p + 1);
  }
  const close = c.text.indexOf(')', p);
  return c.tok('CALLBACKARGS', p, close === -1 ? c.text.length : close);
}

/** After `accTitle:` or `accDescr:`: the rest of the line. */
export function scanAccValue(c: ScanCursor, p: number): Token {
  c.pop();
  return c.tok('ACC_VALUE', p, c.lineEnd(p));
}

/** After `accDescr {`: everything up to `}`. */
export function scanAccDescrBlock(c: ScanCursor, p: number): Token | null {
  if (c.code(p) === CH.rbrace) {
    c.pop();
    return c.skip(p + 1);
  }
  const close = c.text.indexOf('}', p);
  return c.tok('ACC_DESCR_BLOCK', p, close === -1 ? c.text.length : close);
}

/** After `@{`: everything up to `}`, with `"…"` strings. */
export function scanShapeData(c: ScanCursor, p: number): Token | null {
  const code = c.code(p);
  if (code === CH.quote) {
    c.push('shapeDataStr');
    return c.tok('SHAPE_DATA', p, p + 1);
  }
  if (code === CH.rbrace) {
    c.pop();
    return c.tok('SHAPE_DATA_END', p, p + 1);
  }
  if (code !== CH.caret) {
    let e = p + 1;
    while (e < c.text.length && !isShapeDataDelimiter(c.code(e))) e++;
    return c.tok('SHAPE_DATA', p, e);
  }
  return sharedRules(c, p, "Unexpected '^' in shape data");
}

export function scanShapeDataString(c: ScanCursor, p: number): Token {
  if (c.code(p) === CH.quote) {
    c.pop();
    return c.tok('SHAPE_DATA', p, p + 1);
  }
  const close = c.text.indexOf('"', p);
  return c.tok('SHAPE_DATA', p, close === -1 ? c.text.length : close);
}

function isShapeDataDelimiter(code: number): boolean {
  return code === CH.rbrace || code === CH.caret || code === CH.quote;
}
