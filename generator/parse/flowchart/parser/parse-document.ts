/**
 * The body of a flowchart: statements separated by new lines or `;`, and `subgraph … end` blocks holding more of
 * them (`parse-subgraph.ts`). Each statement is parsed under `recovering`: its first syntax error is recorded and
 * parsing goes on at the next statement boundary, so one run reports every broken statement.
 */
import { syntaxProblem } from '../problem.js';
import type { Token } from '../scanner/token.js';
import { where, type ParseContext } from './parse-context.js';
import {
  parseClassDefStatement,
  parseClassStatement,
  parseClickStatement,
  parseLinkStyleStatement,
  parseStyleStatement,
} from './parse-styling.js';
import { closeSubgraph, type OpenSubgraph, openSubgraph } from './parse-subgraph.js';
import { parseVertexStatement } from './parse-vertex-statement.js';
import { recovering } from './recovery.js';

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
