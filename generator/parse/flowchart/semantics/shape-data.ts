/**
 * Reads the text of Mermaid 11's `@{ … }` shape data, as Mermaid does: the text between the braces (several
 * `@{ … }` in a row are one text) is YAML; on one line it is wrapped as a flow mapping (`{` … `}`), over several
 * lines it is read as it stands. Mermaid reads it with js-yaml's JSON schema (YAML 1.2's core schema); we use the
 * `yaml` package with the core schema, and a fast path for the common one-line form (`shape: diamond, label:
 * "Ok?"`) that gives the same result without building a YAML document, so long charts stay fast.
 *
 * Offsets in the result are offsets into the shape data text.
 */
import { isMap, isScalar, parseDocument, type Node as YamlNode } from 'yaml';
import { CH, isDigit } from '../source/char-class.js';

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

/** Reads shape data text (entity codes already hidden, see `entity-codes.ts`). */
export function readShapeData(text: string): ShapeData {
  const multiline = text.includes('\n');
  if (!multiline) {
    const fast = readSimpleMapping(text);
    if (fast) return { kind: 'map', entries: fast };
  }
  // Mermaid's wrapping; `shift` is where the text starts in what the YAML parser reads.
  const source = multiline ? `${text}\n` : `{\n${text}\n}`;
  const shift = multiline ? 0 : 2;
  const doc = parseDocument(source, { schema: 'core', prettyErrors: false });
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
 * The fast path: `key: value, key: "value"` with spaces around the separators, keys and plain values that are
 * single words (`[A-Za-z][A-Za-z0-9-]*`, not `true`/`false`/`null`), quoted values without escapes or control
 * characters, no key twice, no trailing comma. These read the same in every YAML parser; anything else returns null and goes to the YAML
 * parser.
 */
function readSimpleMapping(text: string): ShapeDataEntry[] | null {
  const entries: ShapeDataEntry[] = [];
  let p = skipSpaces(text, 0);
  while (p < text.length) {
    const keyStart = p;
    p = skipWord(text, p);
    if (p === keyStart) return null;
    const keyEnd = p;
    if (text.charCodeAt(p) !== CH.colon || text.charCodeAt(p + 1) !== CH.space) return null;
    p = skipSpaces(text, p + 1);
    const valueStart = p;
    let value: string;
    if (text.charCodeAt(p) === CH.quote) {
      const close = text.indexOf('"', p + 1);
      if (close === -1) return null;
      value = text.slice(p + 1, close);
      if (!isPlainQuoted(value)) return null;
      p = close + 1;
    } else {
      p = skipWord(text, p);
      value = text.slice(valueStart, p);
      if (p === valueStart || NOT_STRINGS.has(value)) return null;
    }
    const key = text.slice(keyStart, keyEnd);
    if (entries.some((e) => e.key === key)) return null;
    entries.push({ key, value, keyStart, keyEnd, valueStart, valueEnd: p });
    p = skipSpaces(text, p);
    if (p < text.length) {
      if (text.charCodeAt(p) !== CH.comma) return null;
      p = skipSpaces(text, p + 1);
      if (p === text.length) return null; // a trailing comma: leave it to the YAML parser
    }
  }
  return entries;
}

/** A double-quoted value every YAML parser reads as written: no `\` escape, no control character. */
function isPlainQuoted(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < CH.space || c === CH.backslash || c === 0x7f) return false;
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
  if (!isLetter(text.charCodeAt(from))) return from;
  let p = from + 1;
  for (;;) {
    const c = text.charCodeAt(p);
    if (isLetter(c) || isDigit(c) || c === CH.dash) p++;
    else return p;
  }
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}
