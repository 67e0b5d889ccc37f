/**
 * `subgraph … end` blocks: the header line (`subgraph id`, `subgraph id [Title]`, `subgraph "Title"`) and, at
 * `end`, the subgraph's id and title as Mermaid reads them. The document loop keeps the stack of open subgraphs;
 * this module opens and closes one.
 */
import type { Token, TokenKind } from '../scanner/token.js';
import { labelText } from '../semantics/label-text.js';
import { expected, expectSeparator, fail, type ParseContext } from './parse-context.js';
import { parseLabel } from './parse-label.js';
import { recovering } from './recovery.js';

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
  /** The text after `subgraph` (the content of a quoted string), as written. */
  readonly idText: string;
  /** The same text read as a label (entity codes decoded), for when it is the title. */
  readonly idAsTitle: string;
  readonly quoted: boolean;
  /** The `[title]`, if any. */
  readonly title: string | null;
}

/** A `subgraph` whose `end` has not been seen yet; `header` is missing when its line had a syntax error. */
export interface OpenSubgraph {
  readonly keyword: Token;
  readonly header: SubgraphHeader | undefined;
}

/** `subgraph id`, `subgraph id [title]` or `subgraph "title"`; a broken header still opens the subgraph. */
export function openSubgraph(ctx: ParseContext): OpenSubgraph {
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
export function closeSubgraph(ctx: ParseContext, { keyword, header }: OpenSubgraph, end: Token | undefined): void {
  ctx.ast.closeSubgraph((generated) => {
    const span = { start: keyword.start, end: end ? end.start + 3 : keyword.end };
    if (!header) return { id: generated, title: null, ...span };
    const idText = header.idText.trim();
    if (header.title !== null) return { id: idText, title: header.title, ...span };
    if (/\s/.test(header.idText)) return { id: generated, title: header.idAsTitle, ...span };
    return { id: idText, title: header.quoted ? header.idAsTitle : null, ...span };
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
  const idText = parts.map((t) => t.text).join('');
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
  const idAsTitle = labelText(parts, ctx.written, ctx.entities).value;
  return { idText, idAsTitle, quoted: parts[0]?.kind === 'STR' || parts[0]?.kind === 'MD_STR', title };
}
