/**
 * The grammar of a condition over a domain call's answer, as written in a node's `when:` (`TOOL.FIELD OP VALUE`)
 * and in evidence's `shows:` (`FIELD OP VALUE`, or a bare `FIELD`: present). Pure text → value: no positions in the
 * file (offsets into the text instead, for the caller to place), no names resolved (which segments name the tool is
 * the caller's business), one pass, linear in the text whatever it holds.
 *
 *   reference := segment ('.' segment)*      a segment: any characters but spaces, `.`, `=`, `!`, `<`, `>`, `[`, `]`, quotes
 *   op        := == | != | < | <= | > | >= | in | not in
 *   value     := "JSON text" | 'text' | number | true | false | null | [value, …] | bare text to the end, trimmed
 *
 * A list is required by `in` and `not in` and refused by the others; `<`, `<=`, `>`, `>=` take a number. Nothing is
 * converted: `007` is text (JSON writes no such number), `'true'` is text, `true` is the boolean.
 */
import type { ConditionOperator, ConditionValue } from '../../contract/compiled-sop.js';
import { quoted } from '../diagnostics/quoted.js';

/** A segment of the reference (the tool's name, or a field's), with its offsets in the text. */
export interface ReferenceSegment {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export interface ConditionSyntax {
  /** The reference's segments: the tool's name (or its pieces, for a tool named with dots) and the field's path. */
  readonly reference: readonly ReferenceSegment[];
  readonly op: ConditionOperator;
  readonly values: readonly ConditionValue[];
  /** The condition as written, trimmed. */
  readonly text: string;
}

export type ConditionParse =
  | { readonly kind: 'ok'; readonly condition: ConditionSyntax }
  /** What was expected, at `start`..`end` of the text. */
  | { readonly kind: 'error'; readonly message: string; readonly start: number; readonly end: number };

/** `data`: a `when` condition (a tool, a field, an operator and a value); `answer`: a `shows` condition (a bare field is `present`). */
export type ConditionForm = 'data' | 'answer';

const OPERATORS = '`==`, `!=`, `in`, `not in`, `<`, `<=`, `>`, `>=`';
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** A character that ends a reference segment. */
const STOP = new Set([' ', '\t', '\n', '\r', '.', '=', '!', '<', '>', '[', ']', '"', "'"]);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

class ConditionError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
  }
}

export function parseCondition(text: string, form: ConditionForm): ConditionParse {
  try {
    return { kind: 'ok', condition: new Reader(text, form).condition() };
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    const start = Math.min(error.start, text.length);
    return { kind: 'error', message: error.message, start, end: Math.max(start, Math.min(error.end, text.length)) };
  }
}

class Reader {
  private at = 0;
  /** The end of the text without its trailing spaces. */
  private readonly end: number;

  constructor(
    private readonly text: string,
    private readonly form: ConditionForm,
  ) {
    let end = text.length;
    while (end > 0 && isSpace(text[end - 1])) end--;
    this.end = end;
  }

  condition(): ConditionSyntax {
    this.skipSpaces();
    const start = this.at;
    const reference = this.reference();
    const written = this.text.slice(start, this.end);
    this.skipSpaces();
    if (this.at >= this.end) {
      if (this.form === 'answer') return { reference, op: 'present', values: [], text: written };
      throw this.error(
        `expected an operator (${OPERATORS}) and a value after ${quoted(this.slice(start, reference.at(-1)!.end))}, found the end of the condition`,
        this.end,
        this.end,
      );
    }
    const op = this.operator(start, reference.at(-1)!.end);
    this.skipSpaces();
    if (this.at >= this.end)
      throw this.error(`expected a value after \`${op}\` (a text, a number, \`true\`, \`false\`, \`null\` or a list)`, this.end, this.end);
    const valueStart = this.at;
    const value = this.value(op);
    checkOperands(op, value, valueStart, this.end);
    return { reference, op, values: value.kind === 'list' ? value.items : [value.value], text: written };
  }

  private reference(): ReferenceSegment[] {
    const segments: ReferenceSegment[] = [];
    for (;;) {
      const start = this.at;
      while (this.at < this.end && !STOP.has(this.text[this.at]!)) this.at++;
      if (this.at === start) {
        if (segments.length > 0) throw this.error('expected a field name after `.`', start, start + 1);
        const what = this.form === 'data' ? '`TOOL.FIELD` (the tool whose answer is read, then its field)' : 'a field of the answer';
        throw this.error(`expected ${what}, found ${this.found(start)}`, start, this.tokenEnd(start));
      }
      segments.push({ name: this.text.slice(start, this.at), start, end: this.at });
      if (this.text[this.at] === '[') {
        const path = segments.map((s) => s.name).join('.');
        throw this.error(
          `a list item is a number segment: write ${quoted(`${path}.0`)}, not ${quoted(`${path}[…]`)}`,
          this.at,
          this.at + 1,
        );
      }
      if (this.text[this.at] !== '.') break;
      this.at++;
    }
    if (this.form === 'data' && segments.length < 2) {
      const only = segments[0]!;
      throw this.error(
        `expected \`TOOL.FIELD\`: ${quoted(only.name)} names the field but not the tool whose answer is read (e.g. ${quoted(`get_order_details.${only.name}`)})`,
        only.start,
        only.end,
      );
    }
    return segments;
  }

  private operator(referenceStart: number, referenceEnd: number): ConditionOperator {
    const rest = this.text.slice(this.at, Math.min(this.at + 3, this.end));
    for (const op of ['==', '!=', '<=', '>='] as const) {
      if (rest.startsWith(op)) {
        this.at += 2;
        return op;
      }
    }
    if (rest.startsWith('<') || rest.startsWith('>')) {
      this.at += 1;
      return rest[0] as '<' | '>';
    }
    const wordEnd = (at: number, word: string) =>
      this.text.startsWith(word, at) &&
      (at + word.length >= this.end || isSpace(this.text[at + word.length]) || this.text[at + word.length] === '[')
        ? at + word.length
        : -1;
    const spaced = this.at > referenceEnd;
    if (spaced && wordEnd(this.at, 'in') >= 0) {
      this.at += 2;
      return 'in';
    }
    if (spaced && wordEnd(this.at, 'not') >= 0) {
      let next = this.at + 3;
      while (next < this.end && isSpace(this.text[next])) next++;
      if (next > this.at + 3 && wordEnd(next, 'in') >= 0) {
        this.at = next + 2;
        return 'not in';
      }
    }
    const found = this.found(this.at);
    const hint = rest.startsWith('=') ? ' (`=` is not one: write `==`)' : '';
    throw this.error(
      `expected an operator (${OPERATORS}) after ${quoted(this.slice(referenceStart, referenceEnd))}, found ${found}${hint}`,
      this.at,
      this.tokenEnd(this.at),
    );
  }

  private value(op: ConditionOperator): ParsedValue {
    const c = this.text[this.at]!;
    if (c === '=' || c === '<' || c === '>') {
      throw this.error(
        `expected a value after \`${op}\`, found ${this.found(this.at)}: \`${op}${c}\` is not an operator`,
        this.at - op.length,
        this.at + 1,
      );
    }
    if (c === '[') {
      const items = this.list();
      this.expectEnd('the list');
      return { kind: 'list', items };
    }
    if (c === '"' || c === "'") {
      const value = this.quotedText();
      this.expectEnd('the quoted text');
      return { kind: 'one', value };
    }
    const value = this.bare(this.at, this.end);
    this.at = this.end;
    return { kind: 'one', value };
  }

  private list(): ConditionValue[] {
    const open = this.at;
    this.at++;
    const items: ConditionValue[] = [];
    for (;;) {
      this.skipSpaces();
      if (this.at >= this.end) throw this.error('the list opened here is never closed: expected `]`', open, open + 1);
      const c = this.text[this.at]!;
      if (c === ']') {
        if (items.length === 0) throw this.error('expected a value in the list: a list holds at least one', open, this.at + 1);
        throw this.error('expected a value after `,`', this.at, this.at + 1);
      }
      if (c === '[')
        throw this.error('a list cannot hold a list: expected a text, a number, `true`, `false` or `null`', this.at, this.at + 1);
      if (c === ',') throw this.error('expected a value before `,`', this.at, this.at + 1);
      if (c === '"' || c === "'") items.push(this.quotedText());
      else {
        const start = this.at;
        while (this.at < this.end && this.text[this.at] !== ',' && this.text[this.at] !== ']' && this.text[this.at] !== '[') this.at++;
        if (this.text[this.at] === '[')
          throw this.error('a list cannot hold a list: expected a text, a number, `true`, `false` or `null`', this.at, this.at + 1);
        let end = this.at;
        while (end > start && isSpace(this.text[end - 1])) end--;
        items.push(this.bare(start, end));
      }
      this.skipSpaces();
      const next = this.text[this.at];
      if (next === ']') {
        this.at++;
        return items;
      }
      if (next === ',') {
        this.at++;
        continue;
      }
      if (this.at >= this.end) throw this.error('the list opened here is never closed: expected `]`', open, open + 1);
      throw this.error(`expected \`,\` or \`]\` after a value of the list, found ${this.found(this.at)}`, this.at, this.tokenEnd(this.at));
    }
  }

  /** A text in double quotes (JSON's escapes) or single quotes (none: the text up to the next `'`). */
  private quotedText(): string {
    const open = this.at;
    const quote = this.text[open]!;
    let i = open + 1;
    if (quote === "'") {
      const close = this.text.indexOf("'", i);
      if (close < 0 || close >= this.end) throw this.error("the text opened with `'` is never closed", open, open + 1);
      this.at = close + 1;
      return this.text.slice(i, close);
    }
    while (i < this.end && this.text[i] !== '"') i += this.text[i] === '\\' ? 2 : 1;
    if (i >= this.end) throw this.error('the text opened with `"` is never closed', open, open + 1);
    this.at = i + 1;
    try {
      return JSON.parse(this.text.slice(open, i + 1)) as string;
    } catch (error) {
      throw this.error(`the text in double quotes is not a JSON string (${(error as Error).message})`, open, i + 1);
    }
  }

  /** A value written without quotes: a number as JSON writes it, `true`, `false`, `null`, or else the text itself. */
  private bare(start: number, end: number): ConditionValue {
    const word = this.text.slice(start, end);
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (NUMBER.test(word)) {
      const number = Number(word);
      if (!Number.isFinite(number)) throw this.error(`the number ${quoted(word)} is too large`, start, end);
      return number;
    }
    return word;
  }

  private expectEnd(what: string): void {
    this.skipSpaces();
    if (this.at < this.end) {
      throw this.error(`expected the end of the condition after ${what}, found ${this.found(this.at)}`, this.at, this.end);
    }
  }

  private skipSpaces(): void {
    while (this.at < this.end && isSpace(this.text[this.at])) this.at++;
  }

  private slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  /** The word at `at`, for a message (quoted and shortened), or "the end of the condition". */
  private found(at: number): string {
    if (at >= this.end) return 'the end of the condition';
    return quoted(this.text.slice(at, this.tokenEnd(at)));
  }

  /** The end of the word at `at`: up to the next space (at most 40 characters). */
  private tokenEnd(at: number): number {
    let i = at + 1;
    while (i < this.end && i < at + 40 && !isSpace(this.text[i])) i++;
    return Math.min(i, this.end);
  }

  private error(message: string, start: number, end: number): ConditionError {
    return new ConditionError(message, start, end);
  }
}

type ParsedValue =
  | { readonly kind: 'one'; readonly value: ConditionValue }
  | { readonly kind: 'list'; readonly items: readonly ConditionValue[] };

/** Which values an operator takes: a list for `in` and `not in`, one value for the others, a number for the orders. */
function checkOperands(op: ConditionOperator, value: ParsedValue, start: number, end: number): void {
  if (op === 'in' || op === 'not in') {
    if (value.kind !== 'list') {
      throw new ConditionError(
        `\`${op}\` takes a list of values: write \`${op} [a, b]\` (for one value, \`${op === 'in' ? '==' : '!='}\`)`,
        start,
        end,
      );
    }
    return;
  }
  if (value.kind === 'list') {
    throw new ConditionError(
      `\`${op}\` compares with one value, not a list (for one of several values, write \`${op === '!=' ? 'not in' : 'in'} [...]\`)`,
      start,
      end,
    );
  }
  if ((op === '<' || op === '<=' || op === '>' || op === '>=') && typeof value.value !== 'number') {
    throw new ConditionError(`\`${op}\` compares numbers: expected a number such as \`100\`, found ${describe(value.value)}`, start, end);
  }
}

function describe(value: ConditionValue): string {
  return typeof value === 'string' ? `the text ${quoted(value)}` : `\`${JSON.stringify(value)}\``;
}
