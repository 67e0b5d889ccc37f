/**
 * What every statement parser shares: the token stream, the AST being built, the non-fatal problems found so far
 * (SOP014), and helpers to word errors like a compiler ("Expected a node id after '-->' but found '|'", with
 * positions as `line:column`) and to consume separators.
 */
import type { AstBuilder } from './ast-builder.js';
import type { LineIndex } from './line-index.js';
import { FlowchartSyntaxError, syntaxProblem, type RawProblem, type Resume } from './problem.js';
import { describeToken, type Token } from './token.js';
import type { TokenStream } from './token-stream.js';

export interface ParseContext {
  readonly stream: TokenStream;
  readonly ast: AstBuilder;
  /** Problems that do not stop the statement (SOP014); syntax errors are thrown. */
  readonly problems: RawProblem[];
  /** The scanned text (offsets of tokens point into it). */
  readonly text: string;
  readonly lines: LineIndex;
  /** Where the block's line 1, column 1 is in the file: positions inside messages are file positions. */
  readonly origin: { readonly line: number; readonly column: number };
}

/** `line:column` of an offset in the file, for messages. */
export function where(ctx: ParseContext, offset: number): string {
  const p = ctx.lines.position(offset);
  return `${p.line + ctx.origin.line - 1}:${p.column + ctx.origin.column - 1}`;
}

/** The file line of an offset, for messages. */
export function lineOf(ctx: ParseContext, offset: number): number {
  return ctx.lines.position(offset).line + ctx.origin.line - 1;
}

/**
 * Throws a syntax error at a token. For a lexical error token the scanner's own message is used, since it says
 * more precisely what is wrong with the character.
 */
export function fail(token: Token, message: string, remediation?: string, resume?: Resume): never {
  const text = token.kind === 'ERROR' && token.message !== undefined ? token.message : message;
  // A missing thing at the end of a line is reported at the line's end, not across the line break; a string
  // with its quotes.
  const quotes = token.kind === 'STR' ? 1 : token.kind === 'MD_STR' ? 2 : 0;
  const start = token.start - quotes;
  const end = token.kind === 'NEWLINE' || token.kind === 'EOF' ? token.start : Math.max(token.end + quotes, start + 1);
  throw new FlowchartSyntaxError(syntaxProblem(start, end, text, remediation), token.end, resume);
}

/** Throws "Expected {what} {context} but found {token}". */
export function expected(token: Token, what: string, context: string, remediation?: string, resume?: Resume): never {
  return fail(token, `Expected ${what} ${context} but found ${describeToken(token)}`, remediation, resume);
}

/** Records an SOP014 (Mermaid syntax we do not support yet) at a token, without stopping the statement. */
export function unsupported(ctx: ParseContext, token: Token, message: string, remediation: string): void {
  ctx.problems.push({ code: 'SOP014', message, start: token.start, end: Math.max(token.end, token.start + 1), remediation });
}

/** Consumes the `;`, line break or end of input that ends a statement. */
export function expectSeparator(ctx: ParseContext, context: string, remediation?: string): void {
  const token = ctx.stream.peek();
  if (token.kind === 'NEWLINE' || token.kind === 'SEMI') ctx.stream.next();
  else if (token.kind !== 'EOF') expected(token, "';' or a new line", context, remediation);
}

/**
 * Consumes exactly one space, where Mermaid's grammar has a single `SPACE` (after `style`, between the parts of
 * `click` …). A longer run of blanks fails at its second character, as in Mermaid.
 */
export function expectOneSpace(ctx: ParseContext, context: string): void {
  const token = ctx.stream.peek();
  if (token.kind !== 'SPACE') expected(token, 'a space', context);
  if (token.end - token.start > 1) {
    fail(
      { ...token, start: token.start + 1, text: token.text.slice(1) },
      `Expected a single space ${context} but found several`,
      'Use exactly one space here.',
    );
  }
  ctx.stream.next();
}
