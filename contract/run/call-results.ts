/**
 * What a domain call returned, read the one way the gateway, `sop replay` and the alignment read it: whether it
 * found something, the value it found, and the fields a condition looks at.
 *
 * Real servers answer in their own shapes. τ²-bench's MCP server answers a found user as `{"result":"daiki_sanchez_3253"}`
 * (a value wrapped in `result`, sometimes a JSON string inside it), an order as its own JSON object, and a miss as an
 * error; other servers answer `""`, `[]`, `{}` or `null` when they find nothing, or plain text. So:
 *   - the answer is read from its structured content, else from JSON in its text, else it is the text;
 *   - a wrapper (an object whose only key is `result`) is read through, and so is JSON text inside it;
 *   - an error (`isError`, or an answer that is only an error: `{"error": "User not found"}`, which logs without an
 *     error flag keep as the answer's text) finds nothing, and so does an empty answer: `null`, blank text, `[]`, `{}`,
 *     or an object whose every value is empty (`{"users": []}`). Anything else names something: it was found.
 *
 * Pure and browser-safe.
 */
import type { ConditionValue } from '../compiled-sop.js';

/** What a domain call answered, as a run or a transcript keeps it: the structured content and the text, either or both. */
export interface RecordedResult {
  readonly structured?: unknown;
  readonly text?: string;
  /** The server answered with an error (`isError`). */
  readonly isError?: true;
}

/** What an answer tells: an error, nothing found, or the value found (read through its wrappers). */
export type ReadAnswer = { readonly kind: 'error' } | { readonly kind: 'empty' } | { readonly kind: 'found'; readonly value: unknown };

/** How deep an answer is looked into for emptiness and wrappers: deeper answers are found (they name something). */
const MAX_DEPTH = 32;

export function readAnswer(result: RecordedResult): ReadAnswer {
  if (result.isError === true) return { kind: 'error' };
  const value = unwrap(answerValue(result));
  if (isErrorObject(value)) return { kind: 'error' };
  return isEmpty(value, 0) ? { kind: 'empty' } : { kind: 'found', value };
}

/**
 * Whether an answer found something, without reading what (for a caller that needs only that: the tool's answers
 * are no evidence): the same verdict as `readAnswer` for the usual shapes, cheaper for a long answer, which it reads
 * whole only when its text is short or its structured content is at hand.
 */
export function answerKind(result: RecordedResult): ReadAnswer['kind'] {
  if (result.isError === true) return 'error';
  if (result.structured !== undefined && result.structured !== null) return readAnswer(result).kind;
  const text = result.text ?? '';
  if (text.length <= SHORT_ANSWER) return readAnswer(result).kind;
  // A long text names something unless it is only an error (`{"error": …}`), which says so at its start.
  return /^\s*\{\s*"error"\s*:/.test(text) ? readAnswer(result).kind : 'found';
}

/** Answers up to this long are read whole to tell found from empty. */
const SHORT_ANSWER = 256;

/**
 * Keys an answer that only reports an error may have besides `error`: what explains it, and the gateway's own
 * refusals and failures (`refused_by`, `server`, `reached`, …), which a log without an error flag keeps as text.
 */
const ERROR_KEYS: ReadonlySet<string> = new Set([
  'error',
  'message',
  'code',
  'status',
  'details',
  'detail',
  'refused_by',
  'current_node',
  'offered_at',
  'valid_next',
  'policy',
  'server',
  'reached',
]);

/** An object that says only that the call failed: an `error` that is not empty, and nothing but what explains it. */
function isErrorObject(value: unknown): boolean {
  if (!isRecord(value) || !Object.hasOwn(value, 'error') || isEmpty(value.error, 0)) return false;
  return Object.keys(value).every((key) => ERROR_KEYS.has(key));
}

/**
 * What an answer holds before its wrappers are read through: the structured content, else the JSON of the text, else
 * the text. A reader that judges one answer several times keeps this as the answer's `structured`, and reads it once.
 */
export function answerValue(result: RecordedResult): unknown {
  return result.structured !== undefined && result.structured !== null ? result.structured : parsedText(result.text);
}

/** The text as the JSON it holds, else as itself; undefined when there is none. */
function parsedText(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const first = trimmed[0];
  if (first === '{' || first === '[' || first === '"' || trimmed === 'null') {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Reads through `{"result": …}` wrappers, and JSON text inside one. */
function unwrap(value: unknown): unknown {
  let current = value;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (typeof current === 'string') {
      const trimmed = current.trim();
      if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
        try {
          current = JSON.parse(trimmed) as unknown;
          continue;
        } catch {
          return current;
        }
      }
      return current;
    }
    if (isRecord(current)) {
      const keys = Object.keys(current);
      if (keys.length === 1 && keys[0] === 'result') {
        current = current.result;
        continue;
      }
    }
    return current;
  }
  return current;
}

function isEmpty(value: unknown, depth: number): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) return Object.values(value).every((inner) => isEmpty(inner, depth + 1));
  return false;
}

/**
 * The field at `path` of an answer's value (a number in the path names a list item), or undefined when the answer
 * has none. Own properties only: a field named `constructor` is the answer's, never an object's inherited member.
 */
export function fieldAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d{0,8})$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (isRecord(current)) {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = current[segment];
    } else return undefined;
  }
  return current;
}

/** A field's value as a condition compares it: a JSON scalar, or undefined for a list, an object or nothing. */
export function scalarAt(value: unknown, path: readonly string[]): ConditionValue | undefined {
  const field = fieldAt(value, path);
  if (field === null || typeof field === 'string' || typeof field === 'boolean') return field;
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
}

/** Whether the field is there and not empty (`present`). */
export function presentAt(value: unknown, path: readonly string[]): boolean {
  return !isEmpty(fieldAt(value, path), 0);
}

/**
 * The value an answer gives an entity (`user_id`): the answer itself when it is a number or a text that reads as an
 * id (one word, at most 200 characters: a lookup that answers the id it found), else its field of that name, as
 * text; undefined when it names none.
 */
export function entityInAnswer(value: unknown, name: string): string | undefined {
  if (typeof value === 'string') return /^\S{1,200}$/.test(value.trim()) ? value.trim() : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const field = isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
  if (typeof field === 'string') return field.trim() === '' ? undefined : field;
  return typeof field === 'number' && Number.isFinite(field) ? String(field) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
