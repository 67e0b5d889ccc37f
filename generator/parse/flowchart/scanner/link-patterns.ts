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
import { CH } from '../source/char-class.js';

/** Where the run of whitespace starting at an offset ends (cached by the scanner). */
export type WhitespaceEnd = (from: number) => number;

/** Whether a link could start at a character (whitespace is checked by the caller). */
export function mayStartLink(code: number): boolean {
  return (
    code === CH.dash || code === CH.equals || code === CH.dot || code === CH.tilde || code === CH.x || code === CH.o || code === CH.less
  );
}

function afterStartHead(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code === CH.x || code === CH.o || code === CH.less ? at + 1 : at;
}

function isEndHead(code: number): boolean {
  return code === CH.x || code === CH.o || code === CH.greater;
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
  if (text.charCodeAt(p) === CH.dash) p++;
  const dots = p;
  while (text.charCodeAt(p) === CH.dot) p++;
  if (p === dots || text.charCodeAt(p) !== CH.dash) return -1;
  p++;
  if (isEndHead(text.charCodeAt(p))) p++;
  return ws(p);
}

/** `\s*[xo<]?-\.\s*`: the start of dotted edge text (`A -. text .-> B`). */
export function matchDottedStart(text: string, from: number, ws: WhitespaceEnd): number {
  const body = afterStartHead(text, ws(from));
  return text.charCodeAt(body) === CH.dash && text.charCodeAt(body + 1) === CH.dot ? ws(body + 2) : -1;
}

/** `\s*~~~+\s*` */
export function matchInvisibleLink(text: string, from: number, ws: WhitespaceEnd): number {
  const body = ws(from);
  let p = body;
  while (text.charCodeAt(p) === CH.tilde) p++;
  return p - body >= 3 ? ws(p) : -1;
}
