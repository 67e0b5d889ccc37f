/**
 * A label's text from its tokens, the way Mermaid assembles it: the pieces joined (a `"string"` contributes its
 * content, a markdown string its content without the backticks), trimmed, then entity codes decoded
 * (`entity-codes.ts`). HTML is kept as written. The span covers the label as written, quotes included, without
 * surrounding blanks; the type is Mermaid's: `string` or `markdown` when the label starts with a quoted or
 * markdown string, `text` otherwise.
 */
import type { LabelType } from '../ast.js';
import type { Token } from '../scanner/token.js';
import { isWhitespace } from '../source/char-class.js';
import type { EntityRule } from '../source/entity-rule.js';
import { hideEntities, revealEntities } from './entity-codes.js';

export interface LabelText {
  readonly value: string;
  readonly start: number;
  readonly end: number;
  readonly type: LabelType;
}

/** The text of a non-empty run of label tokens (`STR`, `MD_STR`, `TEXT`, `EDGE_TEXT`, id pieces …). */
export function labelText(tokens: readonly Token[], source: string, entities: EntityRule): LabelText {
  let hidden = '';
  for (const t of tokens) hidden += hideEntities(source, t.start, t.end, entities);
  const first = tokens[0] as Token;
  const last = tokens[tokens.length - 1] as Token;
  let start = outerStart(first);
  let end = outerEnd(last, source);
  while (start < end && isWhitespace(source.charCodeAt(start))) start++;
  while (end > start && isWhitespace(source.charCodeAt(end - 1))) end--;
  const type = first.kind === 'STR' ? 'string' : first.kind === 'MD_STR' ? 'markdown' : 'text';
  return { value: revealEntities(hidden.trim()), start, end, type };
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
