/**
 * Labels: the text between a shape's delimiters or an edge's `|…|`. Mermaid's grammar allows one quoted string or
 * plain text, optionally followed by more plain text (`["quoted" tail]`), and nothing that opens another label
 * (`A[f(x)]` is an error: quote it). When a label does not close, the error points at the opening delimiter, which
 * is where the author has to look; parsing resumes after that line.
 */
import { labelText, type LabelText } from './label-text.js';
import { expected, fail, lineOf, where, type ParseContext } from './parse-context.js';
import type { Resume } from './problem.js';
import { isLabelOpener, spell } from './shape-table.js';
import { describeToken, type Token, type TokenKind } from './token.js';

const FIRST: ReadonlySet<TokenKind> = new Set<TokenKind>(['STR', 'MD_STR', 'TEXT', 'TAGSTART', 'TAGEND', 'UNICODE_TEXT']);
const MORE: ReadonlySet<TokenKind> = new Set<TokenKind>(['TEXT', 'TAGSTART', 'TAGEND', 'UNICODE_TEXT']);

const QUOTE_IT = 'Wrap the whole label in double quotes, e.g. A["f(x) | y"]; write a quote inside it as #quot;.';

export interface ParsedLabel {
  readonly label: LabelText;
  readonly closer: Token;
}

/**
 * Parses label text after `opener` up to one of `closers` and consumes the closer.
 * @param owner what the label belongs to, for messages ("node 'A'", "the edge").
 */
export function parseLabel(ctx: ParseContext, opener: Token, closers: readonly TokenKind[], owner: string): ParsedLabel {
  const { stream } = ctx;
  const parts: Token[] = [];
  if (FIRST.has(stream.peek().kind)) {
    parts.push(stream.next());
    while (MORE.has(stream.peek().kind)) parts.push(stream.next());
  }
  const found = stream.peek();
  if (!closers.includes(found.kind)) labelError(ctx, opener, found, closers.map(spell), owner, parts.length > 0);
  if (parts.length === 0) {
    fail(
      found,
      `Empty label: ${owner} has nothing between '${spell(opener.kind)}' and '${found.text}'`,
      'Write the label text between the delimiters, or leave the delimiters out.',
    );
  }
  stream.next();
  return { label: labelText(parts, ctx.text), closer: found };
}

/**
 * Fails at a token that should have closed a label: at the opener when the label ran past its line (the author
 * most likely forgot the closer), at the token otherwise.
 * @param closers how the expected closers are written (`]`, `}}` …).
 */
export function labelError(
  ctx: ParseContext,
  opener: Token,
  found: Token,
  closers: readonly string[],
  owner: string,
  hasText: boolean,
): never {
  const open = opener.text;
  const close = closers.map((c) => `'${c}'`).join(' or ');
  const openedAt = where(ctx, opener.start);
  const inLabel: Resume = { kind: 'line' };
  // Text that runs past the line means the closer is missing there.
  const reach = found.kind === 'TEXT' ? found.end : found.start;
  const sameLine = ctx.lines.position(reach).line === ctx.lines.position(opener.start).line;
  if (found.kind === 'EOF' || !sameLine) {
    const what =
      found.kind === 'EOF'
        ? 'end of input'
        : found.kind === 'TEXT'
          ? `the end of line ${lineOf(ctx, opener.start)}`
          : `${describeToken(found)} at ${where(ctx, found.start)}`;
    fail(
      opener,
      `Unclosed '${open}' opened at ${openedAt}: expected ${close} before ${what}`,
      `Close the label of ${owner} with ${close}.`,
      { kind: 'after-line', offset: opener.start },
    );
  }
  if (found.kind === 'ERROR') fail(found, found.message ?? '', undefined, inLabel);
  if (found.kind === 'STR' || found.kind === 'MD_STR') {
    fail(found, `Quotes must enclose the whole label of ${owner}`, QUOTE_IT, inLabel);
  }
  if (isLabelOpener(found.kind) || found.kind === 'PIPE') {
    fail(found, `'${found.text}' cannot appear inside the label of ${owner}`, QUOTE_IT, inLabel);
  }
  const what = hasText ? `${close} to close '${open}' opened at ${openedAt}` : `label text or ${close}`;
  return expected(found, what, `in the label of ${owner}`, undefined, inLabel);
}
