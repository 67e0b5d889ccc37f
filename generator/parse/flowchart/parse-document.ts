/**
 * The body of a flowchart: statements separated by new lines or `;`, and `subgraph … end` blocks holding more of
 * them. The first syntax error of a statement is recorded, then parsing resumes at the next statement boundary
 * (see `resumeOffset`), so one run reports every broken statement.
 */
import { expectSeparator, expected, fail, where, type ParseContext } from './parse-context.js';
import { parseLabel } from './parse-label.js';
import {
  parseClassDefStatement,
  parseClassStatement,
  parseClickStatement,
  parseLinkStyleStatement,
  parseStyleStatement,
} from './parse-styling.js';
import { parseVertexStatement } from './parse-vertex-statement.js';
import { FlowchartSyntaxError, syntaxProblem } from './problem.js';
import type { Token, TokenKind } from './token.js';

const SUBGRAPH_ID_TOKENS: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'NUM',
  'NODE_STRING',
  'SPACE',
  'MINUS',
  'AMP',
  'UNICODE_TEXT',
  'COLON',
  'MULT',
  'BRKT',
  'STYLE',
  'LINKSTYLE',
  'CLASSDEF',
  'CLASS',
  'CLICK_KEYWORD',
  'CLICK',
  'GRAPH',
  'DIR',
  'SUBGRAPH',
  'END',
  'DOWN',
  'UP',
  'START_LINK',
]);

interface SubgraphHeader {
  readonly idText: string;
  readonly quoted: boolean;
  readonly title: string | null;
}

/** A `subgraph` whose `end` has not been seen yet; `header` is missing when its line had a syntax error. */
interface OpenSubgraph {
  readonly keyword: Token;
  readonly header: SubgraphHeader | undefined;
}

/**
 * Parses statements until the end of input. Subgraphs are kept on an explicit stack rather than by recursion,
 * so deep nesting cannot overflow the call stack.
 */
export function parseDocument(ctx: ParseContext): void {
  const { stream } = ctx;
  const open: OpenSubgraph[] = [];
  for (;;) {
    const t = stream.peek();
    switch (t.kind) {
      case 'EOF':
        for (let frame = open.pop(); frame; frame = open.pop()) {
          ctx.problems.push(
            syntaxProblem(frame.keyword.start, frame.keyword.end, `Unclosed 'subgraph' opened at ${where(ctx, frame.keyword.start)}: expected 'end'`, "Close the subgraph with a line holding 'end'."),
          );
          closeSubgraph(ctx, frame, undefined);
        }
        return;
      case 'NEWLINE':
      case 'SEMI':
      case 'SPACE':
        stream.next();
        continue;
      case 'END': {
        stream.next();
        const frame = open.pop();
        if (frame) closeSubgraph(ctx, frame, t);
        else ctx.problems.push(syntaxProblem(t.start, t.start + 3, "'end' without a matching 'subgraph'", "Remove the 'end', or open the group with 'subgraph id'."));
        continue;
      }
      case 'SUBGRAPH':
        open.push(openSubgraph(ctx));
        continue;
    }
    try {
      parseStatement(ctx, t);
    } catch (error) {
      if (!(error instanceof FlowchartSyntaxError)) throw error;
      ctx.problems.push(error.problem);
      stream.reset(resumeOffset(ctx, error, t.start));
    }
  }
}

function parseStatement(ctx: ParseContext, first: Token): void {
  const { stream } = ctx;
  switch (first.kind) {
    case 'STYLE':
      return parseStyleStatement(ctx);
    case 'CLASSDEF':
      return parseClassDefStatement(ctx);
    case 'CLASS':
      return parseClassStatement(ctx);
    case 'LINKSTYLE':
      return parseLinkStyleStatement(ctx);
    case 'CLICK_KEYWORD':
      return parseClickStatement(ctx);
    case 'DIRECTION':
    case 'ACC_DESCR_BLOCK':
      stream.next();
      return;
    case 'ACC_TITLE':
    case 'ACC_DESCR':
      stream.next();
      if (stream.peek().kind === 'ACC_VALUE' || stream.peek().kind === 'ACC_DESCR_BLOCK') stream.next();
      return;
    default:
      return parseVertexStatement(ctx);
  }
}

/** `subgraph id`, `subgraph id [title]` or `subgraph "title"`; a broken header still opens the subgraph. */
function openSubgraph(ctx: ParseContext): OpenSubgraph {
  const { stream } = ctx;
  const keyword = stream.next();
  let header: SubgraphHeader | undefined;
  try {
    header = parseSubgraphHeader(ctx, keyword);
  } catch (error) {
    if (!(error instanceof FlowchartSyntaxError)) throw error;
    ctx.problems.push(error.problem);
    stream.reset(resumeOffset(ctx, error, keyword.start));
  }
  ctx.ast.openSubgraph();
  return { keyword, header };
}

/**
 * Ids and titles follow Mermaid: with `[title]` the text before it is the id; without, text with blanks is a
 * title and the id is generated (`subGraph0` …); a single word is the id (and a quoted word also the title).
 */
function closeSubgraph(ctx: ParseContext, { keyword, header }: OpenSubgraph, end: Token | undefined): void {
  ctx.ast.closeSubgraph((generated) => {
    const span = { start: keyword.start, end: end ? end.start + 3 : keyword.end };
    if (!header) return { id: generated, title: null, ...span };
    const idText = header.idText.trim();
    if (header.title !== null) return { id: idText, title: header.title, ...span };
    if (/\s/.test(header.idText)) return { id: generated, title: idText, ...span };
    return { id: idText, title: header.quoted ? idText : null, ...span };
  });
}

function parseSubgraphHeader(ctx: ParseContext, keyword: Token): SubgraphHeader {
  const { stream } = ctx;
  const space = stream.peek();
  if (space.kind !== 'SPACE') {
    if (space.kind === 'NEWLINE' || space.kind === 'SEMI' || space.kind === 'EOF') {
      fail(keyword, "A subgraph needs an id or a title: 'subgraph id', 'subgraph id [Title]' or 'subgraph \"Title\"'", "Name the subgraph, e.g. 'subgraph checkout [Checkout]'.");
    }
    fail(keyword, "'subgraph' is a Mermaid keyword and cannot be used as a node id", "Rename the node, e.g. 'Subgraph' or 'subgraph_node'.");
  }
  stream.next();
  const parts: Token[] = [];
  const first = stream.peek();
  if (first.kind === 'STR' || first.kind === 'MD_STR' || SUBGRAPH_ID_TOKENS.has(first.kind)) {
    parts.push(stream.next());
    while (SUBGRAPH_ID_TOKENS.has(stream.peek().kind)) parts.push(stream.next());
  }
  if (parts.length === 0) expected(first, 'a subgraph id or title', "after 'subgraph'");
  const idText = parts.map((t) => (t.kind === 'MD_STR' ? `\`${t.text}\`` : t.text)).join('');
  let title: string | null = null;
  const open = stream.peek();
  if (open.kind === 'SQS') {
    stream.next();
    title = parseLabel(ctx, open, ['SQE'], `subgraph '${idText.trim()}'`).label.value;
  }
  expectSeparator(
    ctx,
    title === null ? 'after the subgraph id' : 'after the subgraph title',
    title === null ? undefined : "Remove the blanks after ']': Mermaid rejects them.",
  );
  return { idText, quoted: parts[0]?.kind === 'STR' || parts[0]?.kind === 'MD_STR', title };
}

/**
 * Where to go on after a syntax error: past the offending token to the next new line (or `;`, unless the error is
 * inside a label, where `;` is text), or, for an unclosed delimiter, to the end of the line that opened it. Always
 * past the start of the failed statement, so the loop makes progress.
 */
function resumeOffset(ctx: ParseContext, error: FlowchartSyntaxError, statementStart: number): number {
  const text = ctx.text;
  if (error.resume.kind === 'after-line') return Math.max(lineEnd(text, error.resume.offset), statementStart + 1);
  const from = Math.max(error.problem.start, error.tokenEnd - 1);
  let at = lineEnd(text, from);
  if (error.resume.kind === 'statement') {
    for (let p = from; p < at; p++) {
      if (text.charCodeAt(p) === 0x3b /* ; */) {
        at = p;
        break;
      }
    }
  }
  return Math.max(at, statementStart + 1);
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}
