/**
 * One link between node groups: `-->`, `-->|label|`, `-- label -->`, `-. label .->`, `== label ==>`, with any
 * of Mermaid's strokes, lengths and arrowheads, optionally after an edge id (`e1@-->`).
 */
import type { LinkInput } from './ast-builder.js';
import { isWhitespace } from '../source/char-class.js';
import { labelText, type LabelText } from '../semantics/label-text.js';
import { linkType } from '../semantics/link-type.js';
import { expected, fail, where, type ParseContext } from './parse-context.js';
import { parseLabel } from './parse-label.js';
import type { Token, TokenKind } from '../scanner/token.js';

const EDGE_TEXT_FIRST: ReadonlySet<TokenKind> = new Set<TokenKind>(['EDGE_TEXT', 'STR', 'MD_STR']);

export interface ParsedLink extends LinkInput {
  /** How the link is written, trimmed (for messages). */
  readonly written: string;
}

/** Parses a link; the current token is `LINK`, `START_LINK` or `LINK_ID`. */
export function parseLink(ctx: ParseContext): ParsedLink {
  const { stream } = ctx;
  const first = stream.peek();
  // Mermaid takes the id from `e1@` by removing its first `@` (`a@b@-->` has the id `ab@`).
  const id = first.kind === 'LINK_ID' ? first.text.replace('@', '') : undefined;
  if (id !== undefined) {
    stream.next();
    const after = stream.peek();
    if (after.kind !== 'LINK' && after.kind !== 'START_LINK') expected(after, "a link such as '-->'", `after the edge id '${first.text}'`);
  }
  const link = stream.next();
  if (link.kind === 'START_LINK') return inlineText(ctx, first, link, id);
  let label: LabelText | null = null;
  let last = link;
  const pipe = stream.peek();
  if (pipe.kind === 'PIPE') {
    stream.next();
    const parsed = parseLabel(ctx, pipe, ['PIPE'], 'the edge');
    label = parsed.label;
    last = parsed.closer;
    // Mermaid's grammar allows one space between `|label|` and the target node.
    const space = stream.peek();
    if (space.kind === 'SPACE') {
      if (space.end - space.start > 1) {
        fail(
          { ...space, start: space.start + 1 },
          `Expected a node id after '|${label.value}|' but found a second space`,
          'Leave at most one space between the edge label and the target node.',
        );
      }
      stream.next();
    }
  }
  return finish(ctx, { first, last, link, id }, linkType(link.text), label);
}

/** `-- text -->`, `== text ==>`, `-. text .->`. */
function inlineText(ctx: ParseContext, first: Token, open: Token, id: string | undefined): ParsedLink {
  const { stream } = ctx;
  const parts: Token[] = [];
  if (EDGE_TEXT_FIRST.has(stream.peek().kind)) {
    parts.push(stream.next());
    while (stream.peek().kind === 'EDGE_TEXT') parts.push(stream.next());
  }
  const close = stream.peek();
  const opened = open.text.trim();
  if (close.kind !== 'LINK' || parts.length === 0) {
    if (close.kind === 'EOF') {
      const start = firstNonBlank(ctx.text, open);
      const message = `Edge text opened with '${opened}' at ${where(ctx, start)} is never closed`;
      fail({ ...open, start, end: start + opened.length }, message, closingHint(opened), { kind: 'after-line', offset: open.start });
    }
    if (parts.length === 0 && close.kind === 'LINK') {
      fail(close, `Empty edge text between '${opened}' and '${close.text.trim()}'`, "Write the text, or use a plain link such as '-->'.");
    }
    const what = parts.length === 0 ? 'edge text' : `a link closing the edge text opened with '${opened}'`;
    expected(close, what, `after '${opened}'`, closingHint(opened));
  }
  stream.next();
  const label = labelText(parts, ctx.written, ctx.entities);
  return finish(ctx, { first, last: close, link: close, open, id }, linkType(close.text, open.text), label);
}

function closingHint(opened: string): string {
  if (opened.includes('=')) return "Close the text with '==>' (or '===' for no arrow).";
  if (opened.includes('.')) return "Close the text with '.->' (or '.-' for no arrow).";
  return "Close the text with '-->' (or '---' for no arrow).";
}

/** The tokens of a link: from its first (the edge id, if any) to its last, the link token and the text opener. */
interface LinkTokens {
  readonly first: Token;
  readonly last: Token;
  readonly link: Token;
  readonly open?: Token;
  readonly id: string | undefined;
}

function finish(ctx: ParseContext, tokens: LinkTokens, type: ReturnType<typeof linkType>, label: LabelText | null): ParsedLink {
  const { first, last, link, open, id } = tokens;
  const start = firstNonBlank(ctx.text, first);
  let end = last.end;
  while (end > start && isWhitespace(ctx.text.charCodeAt(end - 1))) end--;
  const written = ctx.text.slice(start, end);
  if ('mismatch' in type) {
    fail(
      { ...link, start, end },
      `The arrowheads of '${written}' do not match: '${open?.text.trim() ?? ''}' cannot be closed with '${link.text.trim()}'`,
      "Use the same arrowhead at both ends ('<-- text -->'), or one arrowhead at the end ('-- text -->').",
    );
  }
  return { stroke: type.stroke, arrowStart: type.arrowStart, arrowEnd: type.arrowEnd, start, end, label, written, id };
}

function firstNonBlank(text: string, token: Token): number {
  let p = token.start;
  while (p < token.end && isWhitespace(text.charCodeAt(p))) p++;
  return p;
}
