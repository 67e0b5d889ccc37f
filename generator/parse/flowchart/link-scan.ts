/**
 * Matchers for Mermaid's link tokens, written out by hand (they are the hot path of the scanner). Each returns the
 * end offset of the token or -1, and follows the corresponding pattern of Mermaid's lexer exactly, including its
 * leading and trailing `\s*` (which may cross line breaks: `A -->` + newline + `B` is one edge):
 *
 * - solid or thick link   `\s*[xo<]?--+[-xo>]\s*`  /  `\s*[xo<]?==+[=xo>]\s*`
 * - start of edge text    `\s*[xo<]?--\s*`         /  `\s*[xo<]?==\s*`
 * - dotted link           `\s*[xo<]?-?\.+-[xo>]?\s*`
 * - start of dotted text  `\s*[xo<]?-\.\s*`
 * - invisible link        `\s*~~~+\s*`
 */

/** Where the run of whitespace starting at an offset ends (cached by the scanner). */
export type WhitespaceEnd = (from: number) => number;

export const DASH = 0x2d;
export const EQUALS = 0x3d;
const DOT = 0x2e;
const TILDE = 0x7e;
const LOWER_X = 0x78;
const LOWER_O = 0x6f;
const LESS = 0x3c;
const GREATER = 0x3e;

/** Whether a link could start at a character (whitespace is checked by the caller). */
export function mayStartLink(code: number): boolean {
  return code === DASH || code === EQUALS || code === DOT || code === TILDE || code === LOWER_X || code === LOWER_O || code === LESS;
}

function afterStartHead(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code === LOWER_X || code === LOWER_O || code === LESS ? at + 1 : at;
}

function isEndHead(code: number): boolean {
  return code === LOWER_X || code === LOWER_O || code === GREATER;
}

/** `\s*[xo<]?CC+[Cxo>]\s*` where C is `line` (`-` or `=`). */
export function matchSolidLink(text: string, from: number, ws: WhitespaceEnd, line: number): number {
  const body = afterStartHead(text, ws(from));
  let p = body;
  while (text.charCodeAt(p) === line) p++;
  const run = p - body;
  if (run < 2) return -1;
  if (isEndHead(text.charCodeAt(p))) return ws(p + 1);
  // Without an arrowhead the last `-` (or `=`) is the terminator, which needs a run of three.
  return run >= 3 ? ws(p) : -1;
}

/** `\s*[xo<]?CC\s*`: the start of inline edge text (`A -- text --> B`). */
export function matchSolidStart(text: string, from: number, ws: WhitespaceEnd, line: number): number {
  const body = afterStartHead(text, ws(from));
  return text.charCodeAt(body) === line && text.charCodeAt(body + 1) === line ? ws(body + 2) : -1;
}

/** `\s*[xo<]?-?\.+-[xo>]?\s*` */
export function matchDottedLink(text: string, from: number, ws: WhitespaceEnd): number {
  let p = afterStartHead(text, ws(from));
  if (text.charCodeAt(p) === DASH) p++;
  const dots = p;
  while (text.charCodeAt(p) === DOT) p++;
  if (p === dots || text.charCodeAt(p) !== DASH) return -1;
  p++;
  if (isEndHead(text.charCodeAt(p))) p++;
  return ws(p);
}

/** `\s*[xo<]?-\.\s*`: the start of dotted edge text (`A -. text .-> B`). */
export function matchDottedStart(text: string, from: number, ws: WhitespaceEnd): number {
  const body = afterStartHead(text, ws(from));
  return text.charCodeAt(body) === DASH && text.charCodeAt(body + 1) === DOT ? ws(body + 2) : -1;
}

/** `\s*~~~+\s*` */
export function matchInvisibleLink(text: string, from: number, ws: WhitespaceEnd): number {
  const body = ws(from);
  let p = body;
  while (text.charCodeAt(p) === TILDE) p++;
  return p - body >= 3 ? ws(p) : -1;
}
