/**
 * Turns plain data (strings, numbers, booleans, null, arrays, objects) into TypeScript expression text for
 * structure initializers. This is the one place user text becomes source: every string goes through
 * `stringLiteral`, which escapes quotes, backslashes, control characters, line and paragraph separators,
 * lone surrogates and invisible bidi controls, so any value round-trips exactly and no SOP text can change
 * what the generated code means or how it reads.
 *
 * The result is a plain string rather than a ts-morph writer function: the printer puts an initializer's text
 * into the file as it is, without passing it through ts-morph's writer (see `initializer-slots.ts`).
 *
 * Layout is deterministic: a value stays on one line when it fits in `MAX_WIDTH` columns, otherwise each
 * element or property goes on its own line with a trailing comma; strings with line breaks become one quoted
 * piece per line joined by `+`, so a changed prompt line is a one-line diff.
 */
import { isPlainPropertyName } from '../model/naming.js';
import { nameTable } from '../../contract/name-table.js';

/** Verbatim expression text (an identifier, a call): for references between generated declarations only. */
export class Code {
  constructor(readonly text: string) {}
}

/** Shorthand for `new Code(text)`. */
export function code(text: string): Code {
  return new Code(text);
}

/** An object or array that always takes one line per element or property (tables, machine states). */
export class Block {
  constructor(readonly value: readonly LiteralValue[] | LiteralObject) {}
}

/** Shorthand for `new Block(value)`. */
export function block(value: readonly LiteralValue[] | LiteralObject): Block {
  return new Block(value);
}

export interface LiteralObject {
  readonly [key: string]: LiteralValue | undefined;
}

export type LiteralValue = string | number | boolean | null | Code | Block | readonly LiteralValue[] | LiteralObject;

/**
 * Checks that `value` is plain data (what YAML can produce: strings, finite or not numbers, booleans, null,
 * arrays, plain objects) and returns it typed for the writer. Throws on anything else: such a value in the
 * model is a compiler bug, not an SOP problem.
 */
export function fromData(value: unknown, path = 'value'): LiteralValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (Array.isArray(value)) return value.map((item: unknown, i) => fromData(item, `${path}[${i}]`));
  if (typeof value === 'object') {
    assertPlainObject(value);
    // `undefined` means "absent" in our data, as in JSON; a `__proto__` key stays a key (`name-table.ts`).
    return nameTable(
      Object.entries(value).flatMap(([key, item]) => (item === undefined ? [] : [[key, fromData(item, `${path}.${key}`)] as const])),
    );
  }
  throw new TypeError(`Cannot emit ${path} (${typeof value}) as a literal: only plain data.`);
}

export const MAX_WIDTH = 120;
const INDENT = '  ';

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
};

// A fixed list (not Unicode property classes) so the output does not depend on the Node version's Unicode
// tables: C0/C1 controls, the separators U+2028/U+2029, bidi controls (Trojan Source), zero-width space and
// word joiner, BOM, and lone surrogates (with the `u` flag a paired surrogate is one code point and does not
// match). ZWJ/ZWNJ stay as written: emoji sequences and several scripts need them.
const NEEDS_ESCAPE = /[\\'\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\ud800-\udfff]/gu;

/** A single-quoted TypeScript string literal whose value is exactly `value`. */
export function stringLiteral(value: string): string {
  const body = value.replace(NEEDS_ESCAPE, (ch) => NAMED_ESCAPES[ch] ?? unicodeEscape(ch));
  // ts-morph's writer takes `\\'` for an escaped quote and would think the literal never ends (which breaks
  // its indentation of later lines), so a final backslash is written as `\u005c` instead.
  return body.endsWith('\\\\') ? `'${body.slice(0, -2)}${unicodeEscape('\\')}'` : `'${body}'`;
}

function unicodeEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A property name: bare when it is a plain identifier, quoted otherwise, computed for `__proto__`. */
export function propertyName(key: string): string {
  // `{ __proto__: x }` and `{ '__proto__': x }` both set the prototype; only a computed key defines a property.
  if (key === '__proto__') return `[${stringLiteral(key)}]`;
  return isPlainPropertyName(key) ? key : stringLiteral(key);
}

function numberLiteral(value: number): string {
  if (Object.is(value, -0)) return '-0';
  return String(value); // also `NaN`, `Infinity`, `-Infinity`, which YAML can produce
}

/** Whether the string has a line break before its last character: then it is written as a `+` chain. */
function isMultiLine(value: string): boolean {
  const firstBreak = value.indexOf('\n');
  return firstBreak !== -1 && firstBreak < value.length - 1;
}

/** Splits after each line break; the pieces of a `+` chain. */
function stringPieces(value: string): string[] {
  return value.match(/[^\n]*\n|[^\n]+$/g) ?? [''];
}

function isList(value: LiteralValue): value is readonly LiteralValue[] {
  return Array.isArray(value);
}

function entriesOf(value: LiteralObject): [string, LiteralValue][] {
  const entries: [string, LiteralValue][] = [];
  for (const [key, item] of Object.entries(value)) if (item !== undefined) entries.push([key, item]);
  return entries;
}

/** The value on one line, or null when it cannot be (a string with line breaks somewhere inside). */
export function inlineLiteral(value: LiteralValue): string | null {
  return inlineWithin(value, Infinity);
}

/**
 * The value on one line when that takes at most `limit` characters, else null. Gives up as soon as the text
 * outgrows the limit, so trying the one-line form of a large table costs about one line, not the table.
 */
function inlineWithin(value: LiteralValue, limit: number): string | null {
  let text: string;
  if (value === null) text = 'null';
  else if (value instanceof Code) text = value.text;
  else if (value instanceof Block) return null;
  else if (typeof value === 'string') {
    // Escaping never shortens a string, so one too long unescaped is too long.
    if (isMultiLine(value) || value.length + 2 > limit) return null;
    text = stringLiteral(value);
  } else if (typeof value === 'number') text = numberLiteral(value);
  else if (typeof value === 'boolean') text = String(value);
  else if (isList(value)) {
    text = '[';
    for (const item of value) {
      const separator = text.length > 1 ? ', ' : '';
      const itemText = inlineWithin(item, limit - text.length - separator.length - 1);
      if (itemText === null) return null;
      text += separator + itemText;
    }
    text += ']';
  } else {
    assertPlainObject(value);
    const entries = entriesOf(value);
    if (entries.length === 0) return limit >= 2 ? '{}' : null;
    text = '{ ';
    for (const [key, item] of entries) {
      const head = `${text.length > 2 ? ', ' : ''}${propertyName(key)}: `;
      const itemText = inlineWithin(item, limit - text.length - head.length - 2);
      if (itemText === null) return null;
      text += head + itemText;
    }
    text += ' }';
  }
  return text.length <= limit ? text : null;
}

function assertPlainObject(value: object): void {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`Cannot emit a ${Object.prototype.toString.call(value)} as a literal: only plain data.`);
  }
}

export interface LiteralLayout {
  /** Column where the value starts (0-based); decides whether it fits on one line. */
  readonly column: number;
  /** Width of the text that follows the value on its last line (`as const;`), counted against `MAX_WIDTH`. */
  readonly tail?: number;
}

/**
 * The text of `value` for a structure initializer, laid out at indentation level 0: the printer puts it into
 * the file as it is (`initializer-slots.ts`), so this text is what lands in the file.
 */
export function literalText(value: LiteralValue, layout: LiteralLayout): string {
  const out: string[] = [];
  writeValue(out, value, 0, layout.column, layout.tail ?? 0);
  return out.join('');
}

/**
 * Appends `value` starting at `column` of a line indented `level` times. `tail` is the width of what follows
 * the value on its last line (a comma, `as const;`).
 */
function writeValue(out: string[], value: LiteralValue, level: number, column: number, tail: number): void {
  if (value instanceof Block) return writeLayout(out, value.value, level);
  if (typeof value === 'string') {
    // A string on one line stays on one line however long it is; one with line breaks is always a chain.
    if (isMultiLine(value)) writeStringChain(out, value, level);
    else out.push(stringLiteral(value));
    return;
  }
  if (value === null || typeof value !== 'object' || value instanceof Code) {
    out.push(inlineWithin(value, Infinity) ?? '');
    return;
  }
  const inline = inlineWithin(value, MAX_WIDTH - column - tail);
  if (inline !== null) out.push(inline);
  else writeLayout(out, value, level);
}

/** A list or object with one line per element or property. */
function writeLayout(out: string[], value: readonly LiteralValue[] | LiteralObject, level: number): void {
  if (isList(value))
    return writeLines(
      out,
      '[',
      ']',
      value.map((item) => ['', item]),
      level,
    );
  assertPlainObject(value);
  const entries = entriesOf(value).map(([key, item]): [string, LiteralValue] => [`${propertyName(key)}: `, item]);
  writeLines(out, '{', '}', entries, level);
}

/** `'line 1\n' +` / `'line 2'`, continuation lines one level deeper. */
function writeStringChain(out: string[], value: string, level: number): void {
  stringPieces(value).forEach((piece, i) => {
    if (i > 0) out.push(` +\n${INDENT.repeat(level + 1)}`);
    out.push(stringLiteral(piece));
  });
}

/** One `head value,` line per item between `open` and `close`; `[]` / `{}` when there are none. */
function writeLines(
  out: string[],
  open: string,
  close: string,
  items: readonly (readonly [head: string, value: LiteralValue])[],
  level: number,
): void {
  if (items.length === 0) {
    out.push(open + close);
    return;
  }
  const inner = INDENT.repeat(level + 1);
  out.push(`${open}\n`);
  for (const [head, item] of items) {
    out.push(inner + head);
    writeValue(out, item, level + 1, inner.length + head.length, 1);
    out.push(',\n');
  }
  out.push(INDENT.repeat(level) + close);
}
