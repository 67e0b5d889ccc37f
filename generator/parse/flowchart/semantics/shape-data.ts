/**
 * Reads the text of Mermaid 11's `@{ … }` shape data, as Mermaid does: the text between the braces (several
 * `@{ … }` in a row are one text) is YAML; on one line it is wrapped as a flow mapping (`{` … `}`), over several
 * lines it is read as it stands. Mermaid reads it with js-yaml's JSON schema (YAML 1.2's core schema); we use the
 * `yaml` package with the core schema, and a fast path for the forms authors write (`shape: diamond, label: "Ok?"`,
 * or one `key: value` a line) that gives the same result without building a YAML document, so long charts stay
 * fast.
 *
 * Offsets in the result are offsets into the shape data text.
 */
import { isMap, isScalar, parseDocument, type Node as YamlNode } from 'yaml';
import { CH, isAsciiLetter, isDigit, isWordChar } from '../source/char-class.js';

export interface ShapeDataEntry {
  readonly key: string;
  readonly value: unknown;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

export type ShapeData =
  /** A mapping: what Mermaid reads properties from. */
  | { readonly kind: 'map'; readonly entries: readonly ShapeDataEntry[] }
  /** Any other YAML value (a word, a list): Mermaid finds no property in it. */
  | { readonly kind: 'other' }
  /** Nothing at all (only blank lines): Mermaid fails on a node with it. */
  | { readonly kind: 'empty' }
  /** Not YAML. */
  | { readonly kind: 'invalid'; readonly start: number; readonly end: number; readonly message: string };

/**
 * Reads shape data texts, remembering each text it read: a chart that repeats one `@{ … }` (a generated chart, or
 * an adversarial one) pays for its YAML once. One reader per parse.
 */
export class ShapeDataReader {
  readonly #read = new Map<string, ShapeData>();

  read(text: string): ShapeData {
    let data = this.#read.get(text);
    if (!data) this.#read.set(text, (data = readShapeData(text)));
    return data;
  }
}

const YAML_OPTIONS = { schema: 'core', prettyErrors: false } as const;

/** Reads shape data text (entity codes already hidden, see `entity-codes.ts`). */
function readShapeData(text: string): ShapeData {
  const fast = readSimpleMapping(text);
  if (fast) return fast.length === 0 && text.includes('\n') ? { kind: 'empty' } : { kind: 'map', entries: fast };
  const multiline = text.includes('\n');
  // Mermaid's wrapping; `shift` is where the text starts in what the YAML parser reads.
  const source = multiline ? `${text}\n` : `{\n${text}\n}`;
  const shift = multiline ? 0 : 2;
  const doc = parseDocument(source, YAML_OPTIONS);
  const error = doc.errors[0];
  if (error) {
    const [start, end] = error.pos;
    const at = (offset: number): number => Math.min(Math.max(offset - shift, 0), text.length);
    return { kind: 'invalid', start: at(start), end: at(Math.max(end, start + 1)), message: firstSentence(error.message) };
  }
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return { kind: 'empty' };
  if (!isMap(contents)) return { kind: 'other' };
  const entries: ShapeDataEntry[] = [];
  for (const pair of contents.items) {
    const key = pair.key as YamlNode | null;
    const value = pair.value as YamlNode | null;
    const keyRange = key?.range ?? [0, 0];
    const valueRange = value?.range ?? [keyRange[1], keyRange[1]];
    entries.push({
      key: String(isScalar(key) ? key.value : (key?.toJSON() ?? '')),
      value: value?.toJS(doc) ?? null,
      keyStart: keyRange[0] - shift,
      keyEnd: keyRange[1] - shift,
      valueStart: valueRange[0] - shift,
      valueEnd: valueRange[1] - shift,
    });
  }
  return { kind: 'map', entries };
}

/** The YAML parser's message without its position (we give our own). */
function firstSentence(message: string): string {
  const line = message.split('\n', 1)[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, '');
}

/** Words the core schema reads as something other than a string. */
const NOT_STRINGS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);

/**
 * The fast path, for the forms authors write: on one line `key: value, key: "value"` (Mermaid wraps it in braces;
 * a trailing comma is allowed there), over several lines one `key: value` per line, all at one indentation (a
 * block mapping). Keys are words (`[A-Za-z][A-Za-z0-9-]*`); values are words separated by single spaces (not
 * `true`, `false` or `null`), whole numbers without a leading zero, or quoted text without escapes or control
 * characters; no key twice, no comment. Every YAML parser reads these the same; anything else returns null and
 * goes to the YAML parser.
 */
function readSimpleMapping(text: string): ShapeDataEntry[] | null {
  const entries: ShapeDataEntry[] = [];
  const keys = new Set<string>();
  const multiline = text.includes('\n');
  let indent = -1;
  let p = 0;
  while (p < text.length) {
    if (multiline) {
      // Skip blank lines; every other line starts at the same indentation.
      const lineStart = p;
      p = skipSpaces(text, p);
      if (text.charCodeAt(p) === CH.lf) {
        p++;
        continue;
      }
      if (p === text.length) break;
      if (indent === -1) indent = p - lineStart;
      if (p - lineStart !== indent) return null;
    } else {
      p = skipSpaces(text, p);
      if (p === text.length) break;
    }
    const entry = readEntry(text, p);
    if (!entry || keys.has(entry.key)) return null;
    keys.add(entry.key);
    entries.push(entry);
    p = skipSpaces(text, entry.valueEnd);
    if (p === text.length) break;
    const separator = text.charCodeAt(p);
    if (separator !== (multiline ? CH.lf : CH.comma)) return null;
    p++;
  }
  return entries;
}

/** `key: value` at `p` (see `readSimpleMapping`), or null. */
function readEntry(text: string, p: number): ShapeDataEntry | null {
  const keyStart = p;
  const keyEnd = skipWord(text, p);
  if (keyEnd === keyStart || text.charCodeAt(keyEnd) !== CH.colon || text.charCodeAt(keyEnd + 1) !== CH.space) return null;
  const valueStart = skipSpaces(text, keyEnd + 1);
  let valueEnd: number;
  let value: string | number;
  const first = text.charCodeAt(valueStart);
  if (first === CH.quote || first === CH.apostrophe) {
    const close = text.indexOf(first === CH.quote ? '"' : "'", valueStart + 1);
    if (close === -1) return null;
    value = text.slice(valueStart + 1, close);
    if (!isPlainQuoted(value)) return null;
    valueEnd = close + 1;
  } else if (isDigit(first)) {
    valueEnd = valueStart + 1;
    while (isDigit(text.charCodeAt(valueEnd))) valueEnd++;
    if ((first === CH.zero && valueEnd > valueStart + 1) || valueEnd - valueStart > 15 || isWordChar(text.charCodeAt(valueEnd)))
      return null;
    value = Number(text.slice(valueStart, valueEnd));
  } else {
    valueEnd = skipWord(text, valueStart);
    if (valueEnd === valueStart) return null;
    while (text.charCodeAt(valueEnd) === CH.space && skipWord(text, valueEnd + 1) > valueEnd + 1) valueEnd = skipWord(text, valueEnd + 1);
    value = text.slice(valueStart, valueEnd);
    if (NOT_STRINGS.has(value)) return null;
  }
  return { key: text.slice(keyStart, keyEnd), value, keyStart, keyEnd, valueStart, valueEnd };
}

/** A quoted value every YAML parser reads as written: no `\` escape, no control character, no line break. */
function isPlainQuoted(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < CH.space || c === CH.backslash || c === CH.delete) return false;
  }
  return true;
}

function skipSpaces(text: string, from: number): number {
  let p = from;
  while (text.charCodeAt(p) === CH.space) p++;
  return p;
}

/** `[A-Za-z][A-Za-z0-9-]*` from `from`; returns `from` when there is none. */
function skipWord(text: string, from: number): number {
  if (!isAsciiLetter(text.charCodeAt(from))) return from;
  let p = from + 1;
  for (;;) {
    const c = text.charCodeAt(p);
    if (isAsciiLetter(c) || isDigit(c) || c === CH.dash) p++;
    else return p;
  }
}
