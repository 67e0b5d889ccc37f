/**
 * Keeps the initializers of top-level `const`s (the data tables, prompts, the machine config: nearly all of a
 * generated file's bytes) out of ts-morph's writer. code-block-writer scans every character it is given to
 * track string and comment state, and would indent each continuation line of an initializer one level deeper
 * than the literal writers laid it out (`literal.ts`). So each initializer is swapped for a short placeholder
 * identifier, the skeleton is printed through ts-morph, and the initializer texts go back in one pass over the
 * printed skeleton: what lands in the file is exactly the text the plan built.
 *
 * The substituted text is never rescanned, so an initializer may hold anything (a placeholder's spelling
 * included). A placeholder spelled by the skeleton itself (a file name in the header, say) shows up as a match
 * count that is off; `fillSlots` then returns null and the caller prints again with another `round`.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures, VariableStatementStructure } from 'ts-morph';
import { StructureKind } from './ts-morph-values.js';

export interface SlottedFile {
  /** The file with each top-level string initializer replaced by `slotName(round, i)`. */
  readonly skeleton: OptionalKind<SourceFileStructure>;
  /** The initializers taken out, in statement order. */
  readonly initializers: readonly string[];
}

/** The placeholder for initializer `index` in printing round `round`: an identifier, unlikely anywhere else. */
export function slotName(round: number, index: number): string {
  return `__sopSlot${round}_${index}__`;
}

function slotPattern(round: number): RegExp {
  return new RegExp(`__sopSlot${round}_(\\d+)__`, 'g');
}

/** Takes every top-level string initializer out of `file`; the input is not modified. */
export function takeSlots(file: OptionalKind<SourceFileStructure>, round: number): SlottedFile {
  const initializers: string[] = [];
  const statements = file.statements;
  if (!Array.isArray(statements)) return { skeleton: file, initializers };
  const slotted = (statements as readonly (string | StatementStructures)[]).map((statement) => {
    if (typeof statement !== 'object' || statement.kind !== StructureKind.VariableStatement) return statement;
    const declarations = statement.declarations.map((declaration) => {
      if (typeof declaration.initializer !== 'string') return declaration;
      initializers.push(declaration.initializer);
      return { ...declaration, initializer: slotName(round, initializers.length - 1) };
    });
    return { ...statement, declarations } satisfies VariableStatementStructure;
  });
  return { skeleton: { ...file, statements: slotted }, initializers };
}

/**
 * Puts the initializers back into the printed skeleton. Null when the placeholders of `round` do not appear
 * exactly once each, in order (the skeleton spells one elsewhere): print again with another round.
 */
export function fillSlots(printed: string, round: number, initializers: readonly string[]): string | null {
  const parts: string[] = [];
  let from = 0;
  let next = 0;
  for (const match of printed.matchAll(slotPattern(round))) {
    if (Number(match[1]) !== next) return null;
    parts.push(printed.slice(from, match.index), initializers[next]!);
    from = match.index + match[0].length;
    next++;
  }
  if (next !== initializers.length) return null;
  parts.push(printed.slice(from));
  return parts.join('');
}
