/**
 * Mermaid 11's `@{ … }` after a node id: `A@{ shape: diamond, label: "Ok?" }`. The text between the braces (of
 * several `@{ … }` in a row, joined) is assembled as Mermaid's lexer does (entity codes hidden, a line break
 * inside quotes becoming `<br/>`), read as YAML (`semantics/shape-data.ts`) and then, by Mermaid's rules, as:
 * - the node's shape and label (`semantics/node-properties.ts`);
 * - the metadata of a subgraph closed above, when the id names one (`S@{ … }`), or of an edge, when it names an
 *   edge defined above (`e1@{ animate: true }`): both are drawing only, so they are checked as YAML and ignored.
 * Positions of problems point into the braces, through a map from the assembled text back to the source.
 */
import type { Token } from '../scanner/token.js';
import { hideEntities, revealEntities } from '../semantics/entity-codes.js';
import { nodeProperties } from '../semantics/node-properties.js';
import type { Declaration, NodeRef } from './ast-builder.js';
import { fail, note, type ParseContext } from './parse-context.js';

const EXAMPLE = 'Write key: value pairs separated by commas, e.g. A@{ shape: diamond, label: "Ok?" }.';

/**
 * After this many syntax errors the chart has failed anyway, and shape data is no longer read as YAML: a YAML
 * parse costs tens of microseconds, and a broken file may hold a hundred thousand of them.
 */
const ERRORS_BEFORE_SKIPPING = 100;

/** A piece of the assembled text and where it was written; `exact` when it is the source text unchanged. */
interface Piece {
  readonly at: number;
  readonly start: number;
  readonly end: number;
  readonly exact: boolean;
}

/** The text between the braces, as Mermaid's lexer assembles it, and where each piece of it was written. */
interface Assembled {
  readonly text: string;
  readonly pieces: readonly Piece[];
  /** The offset after the last `}`. */
  readonly end: number;
}

/**
 * Parses the shape data after `node` (the current token is `@{`).
 * @returns what it declares for the node; nothing for the metadata of a subgraph or an edge.
 */
export function parseShapeData(ctx: ParseContext, node: NodeRef): Declaration | undefined {
  const open = ctx.stream.peek();
  const { text, pieces, end } = assemble(ctx, open);
  if (ctx.tally.syntaxErrors >= ERRORS_BEFORE_SKIPPING) return {};
  const toSource = (offset: number): number => sourceOffset(pieces, offset, open.start, end);
  const failAt = (start: number, stop: number, message: string, remediation: string): never =>
    fail({ ...open, start: toSource(start), end: Math.max(toSource(stop), toSource(start) + 1) }, message, remediation, {
      kind: 'after-line',
      offset: end - 1,
    });
  const data = ctx.shapeData.read(text);
  const target = ctx.ast.isSubgraphId(node.id) ? 'subgraph' : ctx.ast.isEdgeId(node.id) ? 'edge' : 'node';
  if (data.kind === 'invalid') failAt(data.start, data.end, `The shape data is not valid YAML: ${data.message}`, EXAMPLE);
  if (data.kind === 'empty' && target !== 'edge') {
    fail({ ...open, end }, "Empty shape data over several lines: Mermaid fails on '@{' and '}' with nothing between", EXAMPLE, {
      kind: 'after-line',
      offset: end - 1,
    });
  }
  if (target !== 'node') return undefined;
  if (data.kind !== 'map') return {};
  const properties = nodeProperties(data.entries, revealEntities);
  for (const finding of properties.findings) {
    const remediation = finding.remediation ?? EXAMPLE;
    if (finding.code === 'SOP012') failAt(finding.start, finding.end, finding.message, remediation);
    else note(ctx, finding.code, { start: toSource(finding.start), end: toSource(finding.end) }, finding.message, remediation);
  }
  const { shape, label, blanksIdLabel } = properties;
  return { shape, label: label && { ...label, start: toSource(label.start), end: toSource(label.end) }, blanksIdLabel };
}

/** Consumes `@{ … }` (and any `@{ … }` right after it) and assembles its text. */
function assemble(ctx: ParseContext, open: Token): Assembled {
  const { stream } = ctx;
  let text = '';
  const pieces: Piece[] = [];
  let quoted = false;
  let end = open.end;
  while (stream.peek().kind === 'SHAPE_DATA_START') {
    stream.next();
    for (let t = stream.peek(); t.kind === 'SHAPE_DATA'; t = stream.peek()) {
      stream.next();
      const raw = t.text === '"' ? '"' : hideEntities(ctx.text, t.start, t.end, ctx.entities);
      const piece = quoted && raw !== '"' ? raw.replace(/\n\s*/g, '<br/>') : raw;
      if (t.text === '"') quoted = !quoted;
      pieces.push({ at: text.length, start: t.start, end: t.end, exact: piece === t.text });
      text += piece;
    }
    const after = stream.peek();
    if (after.kind !== 'SHAPE_DATA_END') {
      if (after.kind === 'EOF') fail(open, "Unclosed '@{': expected '}'", "Close the shape data with '}'.", { kind: 'end' });
      fail(after, `Unexpected '${after.text}' in shape data`, EXAMPLE);
    }
    end = stream.next().end;
  }
  return { text, pieces, end };
}

/**
 * The source offset of an offset in the assembled text: exact inside a piece that is the source unchanged, the
 * piece's start inside one that is not (an entity code or a line break was rewritten), clamped to the braces.
 */
function sourceOffset(pieces: readonly Piece[], offset: number, start: number, end: number): number {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((pieces[mid] as Piece).at <= offset) lo = mid;
    else hi = mid - 1;
  }
  const piece = pieces[lo];
  if (!piece) return start + 2;
  const inside = offset - piece.at;
  if (piece.exact) return Math.min(piece.start + inside, end - 1);
  return inside >= piece.end - piece.start ? piece.end : piece.start;
}
