/**
 * Prints planned files: each `SourceFileStructure` goes through ts-morph's structure printer in one batch
 * (`printStructure`, with fixed formatting settings: two-space indent, LF, single quotes) and comes back as
 * text. Nothing is parsed back: the text is the output, so no in-memory Project or TypeScript scan is needed.
 *
 * The initializers of top-level `const`s are not given to ts-morph's writer (see `initializer-slots.ts`): they
 * are already laid out at indentation level 0 by `literal.ts`, ts-morph would indent their continuation lines
 * one level deeper, and scanning them is most of the cost of printing. The skeleton around them is printed,
 * cleared of trailing blanks (ts-morph leaves one after `type X =` when a union starts on the next line), and
 * the initializers are put back. Their text has no trailing blanks of its own: every line the literal writers
 * end is closed by a quote, a bracket, a comma or an operator.
 */
import type { OptionalKind, PrintStructureOptions, SourceFileStructure } from 'ts-morph';
import { fillSlots, takeSlots } from './initializer-slots.js';
import { printStructure, StructureKind } from './ts-morph-values.js';

export interface PlannedFile {
  /** Relative to the output folder, `/` separators. */
  readonly path: string;
  readonly structure: OptionalKind<SourceFileStructure>;
}

export interface GeneratedFile {
  /** Relative to the output folder, `/` separators. */
  readonly path: string;
  readonly content: string;
}

const FORMAT: PrintStructureOptions = {
  indentNumberOfSpaces: 2,
  newLine: '\n',
  useSingleQuote: true,
  insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true,
};

const TRAILING_BLANKS = /[ \t]+$/gm;

/** Rounds of placeholder names to try before giving up; a second round is already only for contrived input. */
const MAX_ROUNDS = 16;

export function printFile(file: PlannedFile): GeneratedFile {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { skeleton, initializers } = takeSlots(file.structure, round);
    const printed = printStructure({ ...skeleton, kind: StructureKind.SourceFile }, FORMAT);
    const content = fillSlots(printed.replace(TRAILING_BLANKS, ''), round, initializers);
    if (content !== null) return { path: file.path, content };
  }
  throw new Error(`emit: ${file.path}: every placeholder name for its initializers also occurs in its other text.`);
}
