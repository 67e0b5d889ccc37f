/**
 * One node as written: an id, optionally a shape with its label, optionally `:::class`, optionally Mermaid 11's
 * `@{ … }` shape data (which sets the shape and label after the delimiters did). Ids are runs of adjacent id
 * tokens (so `1a`, `A-B`, `a.b`, `Über` are ids), as in Mermaid. Every shape of Mermaid's grammar is read,
 * including `(-text-)`, which Mermaid 11 cannot draw (SOP018), and `[|field:value|text]`, a rectangle.
 */
import { ID_TOKENS, isReservedWord, type Token, type TokenKind } from '../scanner/token.js';
import type { Declaration, NodeRef } from './ast-builder.js';
import { expected, fail, note, type ParseContext } from './parse-context.js';
import { labelError, parseLabel } from './parse-label.js';
import { parseShapeData } from './parse-shape-data.js';
import { SHAPES_BY_OPENER, spell, type ShapeSyntax } from './shape-table.js';

/** Parses `id[label]:::class@{ … }` and records the occurrence. */
export function parseStyledVertex(ctx: ParseContext, context: string): NodeRef {
  const { stream } = ctx;
  const id = parseIdString(ctx, context);
  const declared = parseShape(ctx, id);
  const classes: string[] = [];
  if (stream.accept('STYLE_SEPARATOR')) classes.push(parseIdString(ctx, "after ':::'").id);
  const data = stream.peek().kind === 'SHAPE_DATA_START' ? parseShapeData(ctx, id) : undefined;
  const misplaced = stream.peek();
  if (data !== undefined && misplaced.kind === 'STYLE_SEPARATOR') {
    fail(misplaced, "A ':::class' must come before '@{ … }'", `Write '${id.id}:::class@{ … }'.`);
  }
  // The shape data is read after the delimiters: what it sets wins.
  const declaration = data
    ? { shape: data.shape ?? declared.shape, label: data.label ?? declared.label, blanksIdLabel: data.blanksIdLabel }
    : declared;
  ctx.ast.addNode(id, declaration, classes);
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

/** The shape delimiters after an id and the label between them, if any. */
function parseShape(ctx: ParseContext, id: NodeRef): Declaration {
  const { stream } = ctx;
  const opener = stream.peek();
  const owner = `node '${id.id}'`;
  if (opener.kind === 'VERTEX_WITH_PROPS_START') {
    // `[|borders:lr|text]`: a rectangle with one drawing property.
    stream.next();
    for (const kind of ['NODE_STRING', 'COLON', 'NODE_STRING', 'PIPE'] as const) {
      const t = stream.peek();
      if (t.kind !== kind) expected(t, kind === 'PIPE' ? "'|'" : kind === 'COLON' ? "':'" : 'a name', "in '[|field:value|text]'");
      stream.next();
    }
    return { shape: 'rectangle', label: parseLabel(ctx, opener, ['SQE'], owner).label };
  }
  if (opener.kind === 'ELLIPSE_START') {
    const remediation = `Use a shape Mermaid 11 draws, e.g. the stadium '${id.id}([text])' or '${id.id}@{ shape: rounded, label: "text" }'.`;
    note(ctx, 'SOP018', opener, "Mermaid 11 reads the '(-text-)' ellipse but fails to draw it ('No such shape: ellipse')", remediation);
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
