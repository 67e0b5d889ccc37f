/**
 * The styling and interaction statements: `style`, `classDef`, `class`, `linkStyle` and `click`. They do not
 * change the graph, so they are checked against Mermaid's grammar, and the node ids they name are recorded (so a
 * rename reaches them). The one semantic check Mermaid makes while parsing is kept: `linkStyle` may only name
 * links defined above it.
 */
import { expectOneSpace, expectSeparator, expected, fail, type ParseContext } from './parse-context.js';
import { parseIdString } from './parse-vertex.js';
import type { Token, TokenKind } from '../scanner/token.js';

const STYLE_PARTS: ReadonlySet<TokenKind> = new Set<TokenKind>(['NUM', 'NODE_STRING', 'COLON', 'SPACE', 'BRKT', 'STYLE']);
const ALPHA_NUM: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'NUM',
  'UNICODE_TEXT',
  'NODE_STRING',
  'DOWN',
  'MINUS',
  'COMMA',
  'COLON',
  'AMP',
  'BRKT',
  'MULT',
]);
const STYLE_EXAMPLE = 'Write styles as property:value pairs separated by commas, e.g. fill:#f9f,stroke:#333.';

/**
 * Consumes the keyword that starts a statement and the single space after it. A keyword not followed by a space
 * was most likely meant as a node id, which Mermaid does not allow.
 */
function statementKeyword(ctx: ParseContext, usage: string): void {
  const keyword = ctx.stream.next();
  const word = keyword.text.trim();
  if (ctx.stream.peek().kind !== 'SPACE') {
    fail(
      keyword,
      `'${word}' is a Mermaid keyword ('${usage}') and cannot be used as a node id`,
      `Rename the node, e.g. '${word.charAt(0).toUpperCase()}${word.slice(1)}' or '${word}_node'.`,
    );
  }
  expectOneSpace(ctx, `after '${word}'`);
}

/** `style A fill:#f9f,stroke:#333` */
export function parseStyleStatement(ctx: ParseContext): void {
  statementKeyword(ctx, 'style A fill:#f9f');
  ctx.ast.addStyled(parseIdString(ctx, "after 'style'"), 'style');
  expectOneSpace(ctx, 'after the node id');
  parseStyles(ctx, 'after the node id');
  expectSeparator(ctx, 'after the style');
}

/** `classDef name fill:#f9f` */
export function parseClassDefStatement(ctx: ParseContext): void {
  statementKeyword(ctx, 'classDef name fill:#f9f');
  parseIdString(ctx, "after 'classDef'");
  expectOneSpace(ctx, 'after the class name');
  parseStyles(ctx, 'after the class name');
  expectSeparator(ctx, 'after the class definition');
}

/** `class A,B name` */
export function parseClassStatement(ctx: ParseContext): void {
  statementKeyword(ctx, 'class A,B name');
  // Mermaid splits the ids at commas (`class A,B name`); each is a node.
  const ids = parseIdString(ctx, "after 'class'");
  let start = ids.start;
  for (const id of ids.id.split(',')) {
    if (id !== '') ctx.ast.addStyled({ id, start, end: start + id.length }, 'class');
    start += id.length + 1;
  }
  expectOneSpace(ctx, 'after the node ids');
  parseIdString(ctx, 'after the node ids');
  expectSeparator(ctx, "after the class name (use 'class A,B name')");
}

/** `linkStyle 0,2 stroke:red`, `linkStyle default interpolate basis` */
export function parseLinkStyleStatement(ctx: ParseContext): void {
  const { stream } = ctx;
  statementKeyword(ctx, 'linkStyle 0 stroke:#f00');
  if (!stream.accept('DEFAULT')) {
    do {
      const index = stream.peek();
      if (index.kind !== 'NUM') expected(index, "a link number or 'default'", "after 'linkStyle'");
      checkLinkIndex(ctx, stream.next());
    } while (stream.accept('COMMA'));
  }
  expectOneSpace(ctx, 'after the link numbers');
  if (stream.accept('INTERPOLATE')) {
    expectOneSpace(ctx, "after 'interpolate'");
    const curve = stream.peek();
    if (!ALPHA_NUM.has(curve.kind)) expected(curve, 'a curve name', "after 'interpolate'");
    while (ALPHA_NUM.has(stream.peek().kind)) stream.next();
    if (stream.peek().kind === 'SPACE') {
      stream.next();
      parseStyles(ctx, 'after the curve name');
    }
  } else {
    parseStyles(ctx, 'after the link numbers');
  }
  expectSeparator(ctx, 'after the link style');
}

/** Mermaid fails on a link number that is not the index of a link defined above (it looks the number up as text). */
function checkLinkIndex(ctx: ParseContext, index: Token): void {
  const count = ctx.ast.edgeCount;
  const canonical = String(Number(index.text)) === index.text;
  if (canonical && Number(index.text) < count) return;
  fail(
    index,
    count === 0
      ? `linkStyle ${index.text} refers to a link, but no link is defined above it`
      : `linkStyle ${index.text} is out of range: the links above are numbered 0 to ${count - 1}`,
    'Count links from 0 in the order they are written, and put linkStyle after them.',
  );
}

/** Mermaid's `stylesOpt`: comma-separated runs of numbers, words, `:`, `#` and spaces. */
function parseStyles(ctx: ParseContext, context: string): void {
  const { stream } = ctx;
  do {
    const first = stream.peek();
    if (!STYLE_PARTS.has(first.kind)) expected(first, 'a style such as fill:#f9f', context, STYLE_EXAMPLE);
    while (STYLE_PARTS.has(stream.peek().kind)) stream.next();
  } while (stream.accept('COMMA'));
  const after = stream.peek();
  if (after.kind === 'PS') {
    fail(after, 'Mermaid styles cannot contain parentheses', 'Write colours in hex, e.g. fill:#ff0000 instead of fill:rgb(255,0,0).');
  }
}

/** `click A callback "tooltip"`, `click A call fn(args)`, `click A href "url" "tooltip" _blank`, `click A "url"` */
export function parseClickStatement(ctx: ParseContext): void {
  const { stream } = ctx;
  stream.next();
  const id = stream.peek();
  if (id.kind !== 'CLICK') expected(id, 'a node id', "after 'click'");
  stream.next();
  ctx.ast.addStyled({ id: id.text, start: id.start, end: id.end }, 'click');
  const action = stream.peek();
  if (stream.accept('CALL_KEYWORD')) {
    const name = stream.peek();
    if (name.kind !== 'CALLBACKNAME') expected(name, 'a function name', "after 'call'");
    stream.next();
    stream.accept('CALLBACKARGS');
    optionalTooltip(ctx, false);
  } else if (stream.accept('HREF') || action.kind === 'STR') {
    const url = stream.peek();
    if (url.kind !== 'STR') expected(url, 'a quoted URL', "after 'href'");
    stream.next();
    optionalTooltip(ctx, true);
  } else if (ALPHA_NUM.has(action.kind)) {
    while (ALPHA_NUM.has(stream.peek().kind)) stream.next();
    optionalTooltip(ctx, false);
  } else {
    expected(action, "a callback name, 'call', 'href' or a quoted URL", `after 'click ${id.text}'`);
  }
  expectSeparator(ctx, 'after the click statement');
}

/** ` "tooltip"`, and after a URL also ` _blank` (alone or after the tooltip). */
function optionalTooltip(ctx: ParseContext, withTarget: boolean): void {
  const { stream } = ctx;
  if (stream.peek().kind !== 'SPACE') return;
  const after = stream.peek(1).kind;
  if (after !== 'STR' && !(withTarget && after === 'LINK_TARGET')) return;
  expectOneSpace(ctx, 'before the tooltip');
  if (stream.next().kind === 'LINK_TARGET' || !withTarget) return;
  if (stream.peek().kind === 'SPACE' && stream.peek(1).kind === 'LINK_TARGET') {
    expectOneSpace(ctx, 'before the link target');
    stream.next();
  }
}
