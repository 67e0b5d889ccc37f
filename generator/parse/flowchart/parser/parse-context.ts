/**
 * What every statement parser shares: the token stream, the AST being built, the non-fatal problems found so far,
 * where Mermaid sees entity codes, the reader of shape data, and helpers to word errors like a compiler ("Expected a node id after '-->' but found '|'", with
 * positions as `line:column`) and to consume separators.
 */
import type { BlockPosition } from '../ast.js';
import type { AstBuilder } from './ast-builder.js';
import type { ShapeDataReader } from '../semantics/shape-data.js';
import type { EntityRule } from '../source/entity-rule.js';
import type { LineIndex } from '../source/lines.js';
import { syntaxProblem, type RawProblem } from '../problem.js';
import { FlowchartSyntaxError, type Resume } from './syntax-error.js';
import { describeToken, type Token } from '../scanner/token.js';
import type { TokenStream } from './token-stream.js';

export interface ParseContext {
  readonly stream: TokenStream;
  readonly ast: AstBuilder;
  /** Problems that do not stop the statement (warnings, SOP014), and the syntax errors recovered from. */
  readonly problems: RawProblem[];
  /** How many syntax errors were recovered from so far (past a limit, costly checks stop: the chart failed). */
  readonly tally: { syntaxErrors: number };
  readonly entities: EntityRule;
  readonly shapeData: ShapeDataReader;
  /** The scanned text, Mermaid's (offsets of tokens point into it). */
  readonly text: string;
  /** The same characters as the author wrote them (labels show those: see `MappedText`). */
  readonly written: string;
  readonly lines: LineIndex;
  /** Where the block's first line is in the file, for positions quoted in messages. */
  readonly origin: BlockPosition;
}

/** `line:column` of an offset in the file, for messages. */
export function where(ctx: ParseContext, offset: number): string {
  const p = ctx.lines.position(offset);
  return `${p.line + ctx.origin.line - 1}:${p.column + ctx.origin.column - 1}`;
}

/** The file's line number of an offset, for messages. */
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

/**
 * Records a problem that does not stop the statement: SOP014 (Mermaid syntax we do not support yet), SOP018
 * (Mermaid reads it but cannot draw it), SOP019 (a key Mermaid ignores).
 */
export function note(
  ctx: ParseContext,
  code: 'SOP014' | 'SOP018' | 'SOP019',
  at: { readonly start: number; readonly end: number },
  message: string,
  remediation: string,
): void {
  ctx.problems.push({ code, message, start: at.start, end: Math.max(at.end, at.start + 1), remediation });
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
