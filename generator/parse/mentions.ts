/**
 * Node ids written in the SOP's text, outside the flowchart: in the sections the agent reads (the system prompt's
 * and the node prompts', yaml blocks included), wherever an author names a step. Four ways of writing one count:
 *   - `code`: a whole inline code span (`` `ROUTE` ``);
 *   - `call`: the argument of `goto_node("ROUTE")` or `goto_node('ROUTE')`;
 *   - `phrase`: the word after "go to", "go back to", "go on to" or "continue at" (`go to END_CANCEL.`);
 *   - `node`: the word after "node" (`(node AUTH)`).
 * Every candidate is reported with where it is written; which of them name nodes, and which are mistakes, is for the
 * model and the checks to say (they know the nodes). One pass of a few regular expressions whose every repetition is
 * followed by something it cannot match, and a linear pairing of backtick runs: time linear in the text.
 */
import type { SourcePosition, SourceSpan } from '../diagnostics/diagnostic.js';

export type MentionForm = 'code' | 'call' | 'phrase' | 'node';

export interface MentionCandidate {
  /** The id as written. */
  readonly id: string;
  readonly form: MentionForm;
  /** Exactly the id's characters. */
  readonly span: SourceSpan;
}

/** A range of the text to scan, `[start, end)` offsets, with ranges inside it to leave out (the flowchart block). */
export interface ScannedRange {
  readonly start: number;
  readonly end: number;
}

/** Longest id taken from a code span or a call: a node id is a name, never a paragraph. */
const MAX_ID = 200;
const WORD = /^[A-Za-z0-9_]+$/;
const CALL = /(?<![A-Za-z0-9_])goto_node\(\s*(["'])([^"'\n]{1,200})\1/g;
const PHRASE = /(?<![A-Za-z0-9_])(?:[Gg]o(?:\s+(?:[Bb]ack|[Oo]n))?\s+[Tt]o|[Cc]ontinue\s+[Aa]t|[Nn]ode)\s+([A-Za-z0-9_]+)/g;

/** The candidates of `ranges` of `text` (each range scanned apart, minus `skip`), in text order. */
export function scanMentions(text: string, ranges: readonly ScannedRange[], skip: readonly ScannedRange[]): MentionCandidate[] {
  const lines = lineStarts(text);
  const out: { id: string; form: MentionForm; at: number }[] = [];
  for (const range of pieces(ranges, skip)) {
    const slice = text.slice(range.start, range.end);
    for (const span of codeSpans(slice)) {
      const content = trimmedCode(slice, span.start, span.end);
      if (content !== null && content.end - content.start <= MAX_ID && WORD.test(slice.slice(content.start, content.end)))
        out.push({ id: slice.slice(content.start, content.end), form: 'code', at: range.start + content.start });
    }
    for (const m of slice.matchAll(CALL)) {
      const id = m[2]!;
      if (id.trim() === id && id !== '') out.push({ id, form: 'call', at: range.start + m.index + m[0].length - 1 - id.length });
    }
    for (const m of slice.matchAll(PHRASE)) {
      const id = m[1]!;
      if (id.length > MAX_ID) continue;
      const form: MentionForm = /^[Nn]ode/.test(m[0]) ? 'node' : 'phrase';
      out.push({ id, form, at: range.start + m.index + m[0].length - id.length });
    }
  }
  out.sort((a, b) => a.at - b.at);
  return out.map(({ id, form, at }) => ({ id, form, span: { start: positionOf(lines, at), end: positionOf(lines, at + id.length) } }));
}

/** `ranges` minus `skip`, in order. */
function pieces(ranges: readonly ScannedRange[], skip: readonly ScannedRange[]): ScannedRange[] {
  const out: ScannedRange[] = [];
  for (const range of ranges) {
    let start = range.start;
    for (const s of [...skip].sort((a, b) => a.start - b.start)) {
      if (s.end <= start || s.start >= range.end) continue;
      if (s.start > start) out.push({ start, end: s.start });
      start = Math.max(start, s.end);
    }
    if (start < range.end) out.push({ start, end: range.end });
  }
  return out;
}

/**
 * Inline code spans on one line: a run of backticks opens a span that the next run of the same length closes
 * (CommonMark's rule). A run with no such closer on its line is literal text. Each run's next run of the same length
 * is found in one pass from the right, so the pairing is linear whatever the runs are.
 */
function codeSpans(text: string): { start: number; end: number }[] {
  const runs: { start: number; end: number; line: number }[] = [];
  let line = 0;
  let newline = text.indexOf('\n');
  for (const m of text.matchAll(/`+/g)) {
    while (newline >= 0 && newline < m.index) {
      line++;
      newline = text.indexOf('\n', newline + 1);
    }
    runs.push({ start: m.index, end: m.index + m[0].length, line });
  }
  const nextSame = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const length = runs[i]!.end - runs[i]!.start;
    nextSame[i] = seen.get(length) ?? -1;
    seen.set(length, i);
  }
  const spans: { start: number; end: number }[] = [];
  for (let i = 0; i < runs.length; ) {
    const j = nextSame[i]!;
    const open = runs[i]!;
    const close = j < 0 ? undefined : runs[j];
    if (close === undefined || close.line !== open.line) {
      i++;
      continue;
    }
    spans.push({ start: open.end, end: close.start });
    i = j + 1;
  }
  return spans;
}

/** The code span's content without the one space CommonMark strips from each side, or null when empty. */
function trimmedCode(text: string, start: number, end: number): { start: number; end: number } | null {
  let from = start;
  let to = end;
  while (from < to && text.charCodeAt(from) === 32) from++;
  while (to > from && text.charCodeAt(to - 1) === 32) to--;
  return from < to ? { start: from, end: to } : null;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function positionOf(starts: readonly number[], offset: number): SourcePosition {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}
