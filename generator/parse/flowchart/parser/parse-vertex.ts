/**
 * One node as written: an id, optionally a shape with its label, optionally `:::class`. Ids are runs of adjacent
 * id tokens (so `1a`, `A-B`, `a.b`, `Über` are ids), as in Mermaid. The Mermaid 11 forms we do not support yet
 * (`A@{ shape: … }`, the `(-ellipse-)` and `[|field:value|text]` forms) are reported as SOP014 and skipped, so the
 * rest of the statement is still checked.
 */
import type { NodeRef } from './ast-builder.js';
import type { NodeShape } from '../ast.js';
import type { LabelText } from '../semantics/label-text.js';
import { expected, fail, unsupported, type ParseContext } from './parse-context.js';
import { labelError, parseLabel } from './parse-label.js';
import { SHAPES_BY_OPENER, spell, type ShapeSyntax } from './shape-table.js';
import { ID_TOKENS, isReservedWord, type Token, type TokenKind } from '../scanner/token.js';

const CLASSIC_SHAPES = 'Use the classic shape syntax instead: A[text], A(text), A([text]), A{text}, A((text)) …';

/** Parses `id[label]:::class` and records the occurrence. */
export function parseStyledVertex(ctx: ParseContext, context: string): NodeRef {
  const id = parseIdString(ctx, context);
  const shaped = parseShape(ctx, id);
  const classes: string[] = [];
  if (ctx.stream.accept('STYLE_SEPARATOR')) classes.push(parseIdString(ctx, "after ':::'").id);
  ctx.ast.addNode(id, shaped.shape, shaped.label, classes);
  return id;
}

/** A node id (Mermaid's `idString`). */
export function parseIdString(ctx: ParseContext, context: string): NodeRef {
  const { stream } = ctx;
  const first = stream.peek();
  if (!ID_TOKENS.has(first.kind)) failNotAnId(first, context);
  let last = stream.next();
  while (ID_TOKENS.has(stream.peek().kind)) last = stream.next();
  return { id: ctx.text.slice(first.start, last.end), start: first.start, end: last.end };
}

function failNotAnId(token: Token, context: string): never {
  if (isReservedWord(token)) {
    const word = token.text.trim();
    return fail(
      { ...token, end: token.start + word.length },
      `'${word}' is a Mermaid keyword and cannot be used as a node id`,
      `Rename the node, e.g. '${word.charAt(0).toUpperCase()}${word.slice(1)}' or '${word}_node'.`,
    );
  }
  if (token.kind === 'STR' || token.kind === 'MD_STR') {
    return expected(token, 'a node id', context, 'Give the node an id and put the quoted text in its shape: A["text"].');
  }
  if (token.kind === 'LINK_ID') {
    return fail(
      token,
      `Mermaid reads '${token.text}' as an edge id because of its '@'`,
      "Quote a label that contains '@' (A[\"me@home\"]), and keep '@' out of node ids.",
    );
  }
  return expected(token, 'a node id', context);
}

interface Shaped {
  readonly shape?: NodeShape;
  readonly label?: LabelText;
}

function parseShape(ctx: ParseContext, id: NodeRef): Shaped {
  const { stream } = ctx;
  const opener = stream.peek();
  const owner = `node '${id.id}'`;
  if (opener.kind === 'ELLIPSE_START') {
    unsupported(ctx, opener, `The '(-text-)' ellipse shape is not supported yet`, CLASSIC_SHAPES);
    stream.next();
    parseLabel(ctx, opener, ['ELLIPSE_END'], owner);
    return {};
  }
  if (opener.kind === 'VERTEX_WITH_PROPS_START') {
    unsupported(ctx, opener, `The '[|field:value|text]' node syntax is not supported yet`, CLASSIC_SHAPES);
    stream.next();
    for (const kind of ['NODE_STRING', 'COLON', 'NODE_STRING', 'PIPE'] as const) {
      const t = stream.peek();
      if (t.kind !== kind) expected(t, kind === 'PIPE' ? "'|'" : kind === 'COLON' ? "':'" : 'a name', "in '[|field:value|text]'");
      stream.next();
    }
    parseLabel(ctx, opener, ['SQE'], owner);
    return {};
  }
  const candidates = SHAPES_BY_OPENER.get(opener.kind);
  if (!candidates) return {};
  // `((` opens a circle and `{{` a hexagon; a single `(` or `{` the round and rhombus shapes.
  const doubled = candidates.filter((s) => s.open.length === 2 && stream.peek(1).kind === s.open[1]);
  const openers = doubled.length > 0 ? doubled : candidates.filter((s) => s.open.length === 1);
  for (let i = 0; i < (openers[0] as ShapeSyntax).open.length; i++) stream.next();
  const closers = openers.map((s) => s.close[0] as TokenKind);
  const { label, closer } = parseLabel(ctx, opener, closers, owner);
  const shape = openers.find((s) => s.close[0] === closer.kind) as ShapeSyntax;
  if (shape.close.length === 2) {
    // `((text))`, `{{text}}`: the first closer only closed the inner label.
    const outer = stream.peek();
    if (outer.kind !== shape.close[1]) {
      const both = shape.open.map(spell).join('');
      labelError(ctx, { ...opener, text: both }, outer, [shape.close.map(spell).join('')], owner, true);
    }
    stream.next();
  }
  return { shape: shape.shape, label };
}

/** `@{ … }` after a node: reported as unsupported, then skipped. */
export function skipShapeData(ctx: ParseContext): void {
  const { stream } = ctx;
  const open = stream.peek();
  unsupported(ctx, open, "Mermaid 11's '@{ shape: … }' node syntax is not supported yet", CLASSIC_SHAPES);
  while (stream.peek().kind === 'SHAPE_DATA') stream.next();
  const after = stream.peek();
  if (after.kind === 'EOF') fail(open, "Unclosed '@{': expected '}'", "Close the shape data with '}'.", { kind: 'end' });
  // Mermaid drops blanks between `}` and the end of the line before parsing.
  if (after.kind === 'SPACE' && ['NEWLINE', 'EOF'].includes(stream.peek(1).kind)) stream.next();
}
