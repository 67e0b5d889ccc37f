/**
 * The parser's entry: tokens in, the AST and the problems found out. The header comes first; when it is not a
 * flowchart nothing more is parsed, otherwise the statements follow (`parse-document.ts`), each under error
 * recovery.
 */
import type { BlockPosition, FlowchartAst } from '../ast.js';
import type { RawProblem } from '../problem.js';
import type { Lexer } from '../scanner/lexer.js';
import { ShapeDataReader } from '../semantics/shape-data.js';
import type { EntityRule } from '../source/entity-rule.js';
import type { LineIndex } from '../source/lines.js';
import { AstBuilder } from './ast-builder.js';
import type { ParseContext } from './parse-context.js';
import { parseDocument } from './parse-document.js';
import { parseHeader } from './parse-header.js';
import { TokenStream } from './token-stream.js';

/** The text the lexer reads, and what the parser needs to place it. */
export interface Source {
  /** The scanned text as the author wrote its characters (see `MappedText.written`). */
  readonly written: string;
  readonly entities: EntityRule;
  readonly lines: LineIndex;
  /** Where the block's first line is in the file. */
  readonly origin: BlockPosition;
}

export interface ParsedChart {
  /** Null when the text is not a flowchart. */
  readonly ast: FlowchartAst | null;
  readonly problems: readonly RawProblem[];
}

/**
 * @param lexer the scanner over Mermaid's text.
 * @param swallowed whether preprocessing already reported that something swallowed the text (an unclosed front
 *   matter or directive): then "not a flowchart" would only repeat it.
 */
export function parseChart(lexer: Lexer, source: Source, swallowed: boolean): ParsedChart {
  const { written, entities, lines, origin } = source;
  const ctx: ParseContext = {
    stream: new TokenStream(lexer),
    ast: new AstBuilder(lines),
    problems: [],
    tally: { syntaxErrors: 0 },
    text: lexer.text,
    written,
    lines,
    origin,
    entities,
    shapeData: new ShapeDataReader(),
  };
  const start = parseHeader(ctx);
  if ('header' in start) {
    parseDocument(ctx);
    return { ast: ctx.ast.build(start.header), problems: ctx.problems };
  }
  return { ast: null, problems: swallowed ? ctx.problems : [...ctx.problems, start.notAFlowchart] };
}
