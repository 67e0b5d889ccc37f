/**
 * Small builders for the statement structures every plan uses, so that all generated files share one
 * layout: a JSDoc line on each export and a blank line between top-level declarations.
 */
import type {
  CodeBlockWriter,
  ExportDeclarationStructure,
  ImportDeclarationStructure,
  OptionalKind,
  TypeAliasDeclarationStructure,
  TypeParameterDeclarationStructure,
  VariableStatementStructure,
  WriterFunction,
} from 'ts-morph';
import { literalText, MAX_WIDTH } from './literal.js';
import type { LiteralValue } from './literal.js';
import { compareCodeUnits } from '../model/naming.js';
import { StructureKind, VariableDeclarationKind } from './ts-morph-values.js';

/** Leading trivia for top-level declarations: a blank line between them. */
export const blankLineBefore = (writer: CodeBlockWriter): void => void writer.blankLineIfLastNot();

/**
 * A JSDoc text wrapped to fit `MAX_WIDTH` at top level; words are never split. The width leaves room for the
 * comment delimiters, so a text that fits stays a one-line doc and a longer one wraps into ` * ` lines.
 */
export function doc(text: string): string {
  const width = MAX_WIDTH - '/**  */'.length;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * A JSDoc block comment as text, for leading trivia (where ts-morph takes no `docs`): on one line when a single
 * paragraph fits, else each paragraph wrapped like `doc` into ` * ` lines, with a ` *` line between paragraphs.
 */
export function jsDoc(...paragraphs: readonly string[]): string {
  const wrapped = paragraphs.map((p) => doc(p).split('\n'));
  const [only] = wrapped;
  if (wrapped.length === 1 && only?.length === 1) return `/** ${only[0]} */`;
  const lines = wrapped.flatMap((p, i) => [...(i === 0 ? [] : ['']), ...p]);
  return ['/**', ...lines.map((line) => (line === '' ? ' *' : ` * ${line}`)), ' */'].join('\n');
}

export interface ConstOptions {
  readonly name: string;
  readonly doc: string;
  /** Type annotation; omit for `as const` tuples. */
  readonly type?: string;
  readonly value: LiteralValue;
  /** Written after the value, e.g. ` as const`. */
  readonly suffix?: string;
  readonly exported?: boolean;
}

/** `export const NAME: Type = <literal>;` with the literal laid out by `literal.ts`. */
export function constStatement(options: ConstOptions): VariableStatementStructure {
  const { name, type, value, suffix = '', exported = true } = options;
  const head = `${exported ? 'export ' : ''}const ${name}${type === undefined ? '' : `: ${type}`} = `;
  const initializer = literalText(value, { column: head.length, tail: suffix.length + 1 }) + suffix;
  return constExpression({ name, doc: options.doc, exported, initializer, ...(type === undefined ? {} : { type }) });
}

export interface ConstExpressionOptions {
  readonly name: string;
  readonly doc: string;
  readonly type?: string;
  /** The expression, laid out at indentation level 0; it lands in the file as written (`initializer-slots.ts`). */
  readonly initializer: string;
  readonly exported?: boolean;
}

/** `export const NAME: Type = <expression>;` for initializers that are code around data (the machine). */
export function constExpression(options: ConstExpressionOptions): VariableStatementStructure {
  const { name, type, initializer, exported = true } = options;
  return {
    kind: StructureKind.VariableStatement,
    leadingTrivia: blankLineBefore,
    docs: [doc(options.doc)],
    isExported: exported,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, ...(type === undefined ? {} : { type }), initializer }],
  };
}

export function typeAlias(
  name: string,
  description: string,
  type: string | WriterFunction,
  typeParameters?: readonly OptionalKind<TypeParameterDeclarationStructure>[],
): TypeAliasDeclarationStructure {
  return {
    kind: StructureKind.TypeAlias,
    leadingTrivia: blankLineBefore,
    docs: [doc(description)],
    isExported: true,
    name,
    type,
    ...(typeParameters ? { typeParameters: [...typeParameters] } : {}),
  };
}

/** `import type { A, B } from '…';` with sorted names. */
export function importTypes(moduleSpecifier: string, names: readonly string[]): ImportDeclarationStructure {
  return {
    kind: StructureKind.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier,
    namedImports: [...names].sort(compareCodeUnits),
  };
}

/** `import { A, B } from '…';` with sorted names. */
export function importValues(moduleSpecifier: string, names: readonly string[]): ImportDeclarationStructure {
  return {
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier,
    namedImports: [...names].sort(compareCodeUnits),
  };
}

export interface ReExport {
  readonly name: string;
  readonly alias?: string;
  readonly typeOnly?: boolean;
}

/**
 * `export { a, type B as C } from '…';`, specifiers sorted by the name they are exported as; one specifier
 * per line when they do not fit on one. `comment` (a whole comment, e.g. from `jsDoc`) goes on the lines above.
 */
export function reExport(moduleSpecifier: string, specifiers: readonly ReExport[], comment?: string): ExportDeclarationStructure {
  const exportedName = (s: ReExport): string => s.alias ?? s.name;
  const sorted = [...specifiers].sort((a, b) => compareCodeUnits(exportedName(a), exportedName(b)));
  const texts = sorted.map(
    (s) => `${s.typeOnly ? 'type ' : ''}${s.name}${s.alias === undefined || s.alias === s.name ? '' : ` as ${s.alias}`}`,
  );
  const oneLine = `export { ${texts.join(', ')} } from '${moduleSpecifier}';`;
  return {
    kind: StructureKind.ExportDeclaration,
    leadingTrivia:
      comment === undefined
        ? blankLineBefore
        : (writer) => {
            blankLineBefore(writer);
            writer.writeLine(comment);
          },
    moduleSpecifier,
    namedExports:
      oneLine.length <= MAX_WIDTH
        ? sorted.map((s) => ({
            name: s.name,
            ...(s.alias === undefined || s.alias === s.name ? {} : { alias: s.alias }),
            ...(s.typeOnly ? { isTypeOnly: true } : {}),
          }))
        : (writer) => {
            writer.newLine();
            for (const text of texts) writer.writeLine(`${text},`);
          },
  };
}

/** `'A' | 'B'`, or `never` for none. */
export function unionOfLiterals(values: readonly string[], literal: (value: string) => string): string {
  return values.length === 0 ? 'never' : values.map(literal).join(' | ');
}
