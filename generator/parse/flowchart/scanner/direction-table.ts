/**
 * Where Mermaid's `direction` rule fires. Its lexer has the rule `.*direction\s+(TB|BT|RL|LR|TD)[^\n]*`, tried at
 * every token start: if the rest of the line mentions a direction anywhere, the whole rest of the line is one
 * `direction` statement (so `A[direction LR]` is a direction statement, not a node). Trying that pattern at each
 * token would be quadratic in the line length, so this table finds, once, the last such mention on every line;
 * the rule fires at a token start iff a mention starts at or after it on the same line.
 *
 * Text after a same-line `%%` comment is ignored here, since we strip such comments (Mermaid rejects them).
 */
import { CH, isInlineWhitespace } from '../source/char-class.js';
import { lineEnd, lineStart } from '../source/lines.js';

const WORD = 'direction';
const DIRECTIONS = ['TB', 'BT', 'RL', 'LR', 'TD'];

interface Mention {
  readonly lineStart: number;
  readonly lineEnd: number;
  /** Start of the last mention on the line. */
  readonly last: number;
}

export class DirectionTable {
  readonly #mentions: Mention[] = [];
  #cursor = 0;

  constructor(text: string) {
    let start = -1;
    let end = -1;
    let commentAt = -1;
    let last = -1;
    for (let at = text.indexOf(WORD); at !== -1; at = text.indexOf(WORD, at + 1)) {
      if (at > end) {
        if (last !== -1) this.#mentions.push({ lineStart: start, lineEnd: end, last });
        start = lineStart(text, at);
        end = lineEnd(text, at);
        commentAt = commentStart(text, start, end);
        last = -1;
      }
      if (commentAt !== -1 && at > commentAt) continue;
      let p = at + WORD.length;
      const spaces = p;
      while (p < end && isInlineWhitespace(text.charCodeAt(p))) p++;
      if (p > spaces && DIRECTIONS.includes(text.slice(p, p + 2))) last = at;
    }
    if (last !== -1) this.#mentions.push({ lineStart: start, lineEnd: end, last });
  }

  /** If the `direction` rule fires at `offset`, the end of its token (the end of the line); otherwise -1. */
  match(offset: number): number {
    const mentions = this.#mentions;
    let i = this.#cursor;
    if (i >= mentions.length || (mentions[i] as Mention).lineStart > offset) i = firstEndingAtOrAfter(mentions, offset);
    while (i < mentions.length && (mentions[i] as Mention).lineEnd < offset) i++;
    this.#cursor = i;
    const m = mentions[i];
    return m && m.lineStart <= offset && offset <= m.last ? m.lineEnd : -1;
  }
}

function firstEndingAtOrAfter(mentions: readonly Mention[], offset: number): number {
  let lo = 0;
  let hi = mentions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((mentions[mid] as Mention).lineEnd < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first `%%` on the line that starts a same-line comment (at the line start or after whitespace). */
function commentStart(text: string, lineStart: number, lineEnd: number): number {
  for (let at = lineStart; at + 1 < lineEnd; at++) {
    if (text.charCodeAt(at) !== CH.percent || text.charCodeAt(at + 1) !== CH.percent) continue;
    if (at === lineStart || isInlineWhitespace(text.charCodeAt(at - 1))) return at;
  }
  return -1;
}
