/**
 * Character predicates shared by the flowchart scanner. They reproduce the character classes of Mermaid's own
 * flowchart lexer (what a node id may contain, what JavaScript's `\s` matches, ASCII word boundaries), one
 * UTF-16 code unit at a time, so the scanner never needs a regular expression over a whole line.
 */

const CH_TAB = 0x09;
const CH_LF = 0x0a;
const CH_SPACE = 0x20;

/** JavaScript's `\s`: ASCII whitespace, NBSP, the Unicode space separators, line separators and the BOM. */
export function isWhitespace(code: number): boolean {
  if (code <= CH_SPACE) return code === CH_SPACE || (code >= CH_TAB && code <= 0x0d);
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
  return code !== CH_LF && isWhitespace(code);
}

/** ASCII `\w` (what `\b` looks at). */
export function isWordChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

export function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
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
  return next !== 0x3e && next !== 0x2d && next !== 0x2e && !Number.isNaN(next);
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
