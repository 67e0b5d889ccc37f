/**
 * A label's text from its tokens, the way Mermaid assembles it: the pieces joined, then trimmed. Quotes are
 * removed (a `"string"` contributes its content); a markdown string keeps its backticks (`` "`**bold**`" `` gives
 * `` `**bold**` ``) so later stages can tell it apart; entities such as `#quot;` and HTML are kept as written.
 * The span covers the label as written, quotes included, without surrounding blanks.
 */
import { isWhitespace } from '../source/char-class.js';
import type { Token } from '../scanner/token.js';

export interface LabelText {
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** The text of a non-empty run of label tokens (`STR`, `MD_STR`, `TEXT`, `EDGE_TEXT`, id pieces …). */
export function labelText(tokens: readonly Token[], source: string): LabelText {
  let value = '';
  for (const t of tokens) value += t.kind === 'MD_STR' ? `\`${t.text}\`` : t.text;
  const first = tokens[0] as Token;
  const last = tokens[tokens.length - 1] as Token;
  let start = outerStart(first);
  let end = outerEnd(last, source);
  while (start < end && isWhitespace(source.charCodeAt(start))) start++;
  while (end > start && isWhitespace(source.charCodeAt(end - 1))) end--;
  return { value: value.trim(), start, end };
}

function outerStart(t: Token): number {
  if (t.kind === 'STR') return t.start - 1;
  if (t.kind === 'MD_STR') return t.start - 2;
  return t.start;
}

function outerEnd(t: Token, source: string): number {
  if (t.kind === 'STR') return Math.min(t.end + 1, source.length);
  if (t.kind === 'MD_STR') return Math.min(t.end + 2, source.length);
  return t.end;
}
