/**
 * Node and edge statements: a group of nodes (`A & B`), then any number of links each followed by a group
 * (`A --> B & C -.-> D`). Every link joins every node of the group before it to every node of the group after it.
 */
import type { NodeRef } from './ast-builder.js';
import { fail, type ParseContext } from './parse-context.js';
import { parseLink } from './parse-link.js';
import { parseStyledVertex } from './parse-vertex.js';
import { isLabelOpener } from './shape-table.js';
import { describeToken, type Token } from '../scanner/token.js';

/** Parses a node or edge statement and its separator. */
export function parseVertexStatement(ctx: ParseContext): void {
  const { stream } = ctx;
  let sources = parseNodeGroup(ctx, 'at the start of the statement');
  for (;;) {
    if (stream.peek().kind === 'SPACE' && stream.peek(1).kind === 'LINK_ID') stream.next();
    const t = stream.peek();
    if (t.kind !== 'LINK' && t.kind !== 'START_LINK' && t.kind !== 'LINK_ID') break;
    const link = parseLink(ctx);
    const targets = parseNodeGroup(ctx, `after '${link.written}'`);
    ctx.ast.addEdges(sources, targets, link);
    sources = targets;
  }
  stream.accept('SPACE');
  endOfStatement(ctx, sources);
}

/** `A`, or `A & B & C` (Mermaid wants blanks around `&`). */
function parseNodeGroup(ctx: ParseContext, context: string): NodeRef[] {
  const { stream } = ctx;
  const group = [parseStyledVertex(ctx, context)];
  for (;;) {
    if (stream.peek().kind !== 'SPACE' || stream.peek(1).kind !== 'AMP') return group;
    stream.next();
    const amp = stream.next();
    const space = stream.peek();
    if (space.kind !== 'SPACE') {
      fail(space, `Expected a space after '&' but found ${describeToken(space)}`, "Write blanks on both sides of '&': 'A & B'.");
    }
    stream.next();
    group.push(parseStyledVertex(ctx, `after '${amp.text}'`));
  }
}

function endOfStatement(ctx: ParseContext, last: readonly NodeRef[]): void {
  const { stream } = ctx;
  const found = stream.peek();
  const node = last[last.length - 1] as NodeRef;
  const previous = stream.previous as Token;
  if (isLabelOpener(found.kind) && previous.kind === 'SPACE') {
    const message = `A shape must follow its node id directly, without a space ('${node.id} ${found.text}')`;
    fail(found, message, `Write '${node.id}${found.text}…' without the space.`);
  }
  if (found.kind === 'STYLE_SEPARATOR') {
    const message = `Node '${node.id}' already has a ':::class'; a node takes only one`;
    fail(found, message, `Use a class statement for more: 'class ${node.id} a,b'.`);
  }
  if (found.kind === 'NEWLINE' || found.kind === 'SEMI') stream.next();
  if (found.kind === 'NEWLINE' || found.kind === 'SEMI' || found.kind === 'EOF') return;
  fail(found, `Unexpected ${describeToken(found)} after node '${node.id}': expected a link such as '-->', '&', ';' or a new line`);
}
