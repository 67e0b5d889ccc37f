/**
 * The one character-class table of the flowchart parser: the character codes the scanner and the preprocessor
 * test for, and the classes of Mermaid's own flowchart lexer (what a node id may contain, what JavaScript's `\s`
 * matches, ASCII word characters), one UTF-16 code unit at a time, so no stage needs a regular expression over a
 * whole line.
 */

/** Character codes, by name. */
export const CH = {
  tab: 0x09,
  lf: 0x0a,
  space: 0x20,
  bang: 0x21,
  quote: 0x22,
  hash: 0x23,
  percent: 0x25,
  amp: 0x26,
  apostrophe: 0x27,
  lparen: 0x28,
  rparen: 0x29,
  star: 0x2a,
  plus: 0x2b,
  comma: 0x2c,
  dash: 0x2d,
  dot: 0x2e,
  slash: 0x2f,
  zero: 0x30,
  colon: 0x3a,
  semi: 0x3b,
  less: 0x3c,
  equals: 0x3d,
  greater: 0x3e,
  question: 0x3f,
  at: 0x40,
  lbracket: 0x5b,
  backslash: 0x5c,
  rbracket: 0x5d,
  caret: 0x5e,
  underscore: 0x5f,
  backtick: 0x60,
  a: 0x61,
  o: 0x6f,
  v: 0x76,
  x: 0x78,
  lbrace: 0x7b,
  pipe: 0x7c,
  rbrace: 0x7d,
  tilde: 0x7e,
  delete: 0x7f,
} as const;

/** JavaScript's `\s`: ASCII whitespace, NBSP, the Unicode space separators, line separators and the BOM. */
export function isWhitespace(code: number): boolean {
  if (code <= CH.space) return code === CH.space || (code >= CH.tab && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whitespace that does not end a line (the newline is a token of its own). */
export function isInlineWhitespace(code: number): boolean {
  return code !== CH.lf && isWhitespace(code);
}

/** ASCII `\w` (what `\b` looks at). */
export function isWordChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === CH.underscore;
}

export function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

// The ASCII punctuation Mermaid allows inside a plain node id: ! " # $ % & ' * + . ` ? \ _ /
const NODE_PUNCTUATION = new Set([0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2a, 0x2b, 0x2e, 0x60, 0x3f, 0x5c, 0x5f, 0x2f]);

/**
 * A character of Mermaid's `NODE_STRING` token other than `-` (letters, digits and some punctuation). A `-` is
 * allowed too, but only when the next character is not `>`, `-` or `.` (see {@link isNodeStringDash}).
 */
export function isNodeStringChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || NODE_PUNCTUATION.has(code);
}

/** Whether a `-` followed by `next` continues a node id (so `A-B` is one id but `A-->B` is not). */
export function isNodeStringDash(next: number): boolean {
  return next !== CH.greater && next !== CH.dash && next !== CH.dot && !Number.isNaN(next);
}

const LETTER = /^\p{L}$/u;

/**
 * A non-ASCII letter that Mermaid accepts as one character of a node id (`UNICODE_TEXT`). Mermaid lists the
 * letters of the Basic Multilingual Plane; we ask Unicode's `L` category instead, so letters added to Unicode after
 * Mermaid's table (rare) are accepted here and rejected there. Surrogates never match: astral letters are rejected
 * by both.
 */
export function isUnicodeLetter(code: number): boolean {
  if (code < 0xaa || (code >= 0xd800 && code <= 0xdfff)) return false;
  return LETTER.test(String.fromCharCode(code));
}
