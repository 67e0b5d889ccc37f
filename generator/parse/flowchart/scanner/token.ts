/**
 * The tokens of Mermaid's flowchart lexer, named as in Mermaid's grammar so the two can be compared rule by rule.
 * A few are ours: `CLICK_KEYWORD`, `CALL_KEYWORD` and `ACC_DESCR_BLOCK` make visible what Mermaid consumes
 * silently, `SHAPE_DATA_START` and `SHAPE_DATA_END` are the `@{` and `}` around shape data (Mermaid returns the
 * first as `SHAPE_DATA` and skips the second), and `ERROR` carries a lexical error (Mermaid throws "Unrecognized
 * text") with our message.
 */

export type TokenKind =
  // header
  | 'GRAPH'
  | 'DIR'
  | 'NODIR'
  // separators
  | 'NEWLINE'
  | 'SPACE'
  | 'SEMI'
  | 'EOF'
  | 'ERROR'
  // pieces of a node id (`idStringToken`)
  | 'NODE_STRING'
  | 'NUM'
  | 'UNICODE_TEXT'
  | 'MINUS'
  | 'AMP'
  | 'COMMA'
  | 'COLON'
  | 'BRKT'
  | 'MULT'
  | 'DOWN'
  | 'DEFAULT'
  // other single characters
  | 'UP'
  | 'TAGSTART'
  | 'TAGEND'
  | 'SEP'
  | 'STYLE_SEPARATOR'
  // links
  | 'LINK'
  | 'START_LINK'
  | 'EDGE_TEXT'
  | 'LINK_ID'
  // text
  | 'STR'
  | 'MD_STR'
  | 'TEXT'
  | 'PIPE'
  // shape delimiters
  | 'PS'
  | 'PE'
  | 'SQS'
  | 'SQE'
  | 'DIAMOND_START'
  | 'DIAMOND_STOP'
  | 'STADIUMSTART'
  | 'STADIUMEND'
  | 'SUBROUTINESTART'
  | 'SUBROUTINEEND'
  | 'CYLINDERSTART'
  | 'CYLINDEREND'
  | 'DOUBLECIRCLESTART'
  | 'DOUBLECIRCLEEND'
  | 'TRAPSTART'
  | 'INVTRAPSTART'
  | 'TRAPEND'
  | 'INVTRAPEND'
  | 'ELLIPSE_START'
  | 'ELLIPSE_END'
  | 'VERTEX_WITH_PROPS_START'
  | 'SHAPE_DATA_START'
  | 'SHAPE_DATA'
  | 'SHAPE_DATA_END'
  // statements
  | 'STYLE'
  | 'LINKSTYLE'
  | 'CLASSDEF'
  | 'CLASS'
  | 'INTERPOLATE'
  | 'HREF'
  | 'LINK_TARGET'
  | 'CLICK_KEYWORD'
  | 'CLICK'
  | 'CALL_KEYWORD'
  | 'CALLBACKNAME'
  | 'CALLBACKARGS'
  | 'SUBGRAPH'
  | 'END'
  | 'DIRECTION'
  | 'ACC_TITLE'
  | 'ACC_DESCR'
  | 'ACC_VALUE'
  | 'ACC_DESCR_BLOCK';

export interface Token {
  readonly kind: TokenKind;
  /** Offsets in the scanned text, end exclusive. For `STR`/`MD_STR`, the content without its quotes. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** For `ERROR` tokens: what is wrong. */
  readonly message?: string;
}

/** The token kinds that make up a node id when adjacent (Mermaid's `idStringToken`). */
export const ID_TOKENS: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'NODE_STRING',
  'NUM',
  'UNICODE_TEXT',
  'MINUS',
  'AMP',
  'COMMA',
  'COLON',
  'BRKT',
  'MULT',
  'DOWN',
  'DEFAULT',
]);

/** Keywords that cannot be node ids; used to explain why. */
const RESERVED: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'STYLE',
  'LINKSTYLE',
  'CLASSDEF',
  'CLASS',
  'INTERPOLATE',
  'HREF',
  'LINK_TARGET',
  'CLICK_KEYWORD',
  'CALL_KEYWORD',
  'SUBGRAPH',
  'END',
  'GRAPH',
]);

/** Whether a token is a Mermaid keyword (`end`, `style`, `class` …), which can never be a node id. */
export function isReservedWord(token: Token): boolean {
  return RESERVED.has(token.kind);
}

/** How a token is named in a message: `'|'`, `end of line`, `end of input`, `a space`. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'EOF':
      return 'end of input';
    case 'NEWLINE':
      return 'end of line';
    case 'SPACE':
      return token.end - token.start > 1 ? 'spaces' : 'a space';
    case 'STR':
      return `the string "${clip(token.text)}"`;
    case 'MD_STR':
      return `the markdown string "\`${clip(token.text)}\`"`;
    default:
      return `'${clip(token.text.trim() || token.text)}'`;
  }
}

function clip(text: string): string {
  const firstLine = text.split('\n', 1)[0] ?? '';
  return firstLine.length > 24 || firstLine.length < text.length ? `${firstLine.slice(0, 24)}…` : firstLine;
}
