/**
 * The body of a flowchart: statements separated by new lines or `;`, and `subgraph … end` blocks holding more of
 * them. Each statement is parsed under `recovering`: its first syntax error is recorded and parsing goes on at
 * the next statement boundary, so one run reports every broken statement.
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
import { syntaxProblem } from './problem.js';
import { recovering } from './recovery.js';
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
          const { start, end } = frame.keyword;
          const message = `Unclosed 'subgraph' opened at ${where(ctx, start)}: expected 'end'`;
          ctx.problems.push(syntaxProblem(start, end, message, "Close the subgraph with a line holding 'end'."));
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
        else {
          const remediation = "Remove the 'end', or open the group with 'subgraph id'.";
          ctx.problems.push(syntaxProblem(t.start, t.start + 3, "'end' without a matching 'subgraph'", remediation));
        }
        continue;
      }
      case 'SUBGRAPH':
        open.push(openSubgraph(ctx));
        continue;
    }
    recovering(ctx, t.start, () => parseStatement(ctx, t));
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
  const header = recovering(ctx, keyword.start, () => parseSubgraphHeader(ctx, keyword));
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
      fail(
        keyword,
        "A subgraph needs an id or a title: 'subgraph id', 'subgraph id [Title]' or 'subgraph \"Title\"'",
        "Name the subgraph, e.g. 'subgraph checkout [Checkout]'.",
      );
    }
    const remediation = "Rename the node, e.g. 'Subgraph' or 'subgraph_node'.";
    fail(keyword, "'subgraph' is a Mermaid keyword and cannot be used as a node id", remediation);
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
