/**
 * Recognisers for the lines that open or close CommonMark leaf blocks and list items (spec 0.31): ATX headings,
 * setext underlines, thematic breaks, code fences and list markers. Each looks at one line of `text`, from `at` (the
 * first non-blank character, at most three columns in) to `end` (the line's end), and scans forward once: no
 * regular expression, so a line of any length costs its length.
 */

const isBlank = (c: number) => c === 32 || c === 9;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Offset just past the run of `code` starting at `at` (not past `end`). */
function runEnd(text: string, at: number, end: number, code: number): number {
  let i = at;
  while (i < end && text.charCodeAt(i) === code) i++;
  return i;
}

/** True when only spaces and tabs are between `at` and `end`. */
function onlyBlanks(text: string, at: number, end: number): boolean {
  for (let i = at; i < end; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
}

/** `end` moved back over spaces and tabs (never before `floor`). */
function trimmedEnd(text: string, floor: number, end: number): number {
  let e = end;
  while (e > floor && isBlank(text.charCodeAt(e - 1))) e--;
  return e;
}

export interface AtxHeading {
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** The content without the opening and closing `#` runs, trimmed. */
  readonly text: string;
}

/** `#` to `######` followed by a blank or the end of the line. */
export function atxHeading(text: string, at: number, lineEnd: number): AtxHeading | null {
  const marks = runEnd(text, at, lineEnd, 35 /* # */) - at;
  if (marks < 1 || marks > 6) return null;
  const after = at + marks;
  if (after < lineEnd && !isBlank(text.charCodeAt(after))) return null;
  let start = after;
  while (start < lineEnd && isBlank(text.charCodeAt(start))) start++;
  let end = trimmedEnd(text, start, lineEnd);
  // A closing run of `#` counts only when it is the whole content or follows a blank.
  let closing = end;
  while (closing > start && text.charCodeAt(closing - 1) === 35) closing--;
  if (closing === start) end = start;
  else if (closing < end && isBlank(text.charCodeAt(closing - 1))) end = trimmedEnd(text, start, closing);
  return { depth: marks as AtxHeading['depth'], text: text.slice(start, end) };
}

/** A setext underline: a run of `=` (level 1) or `-` (level 2), then only blanks. */
export function setextUnderline(text: string, at: number, end: number): 1 | 2 | null {
  const c = text.charCodeAt(at);
  if (at >= end || (c !== 61 /* = */ && c !== 45) /* - */) return null;
  return onlyBlanks(text, runEnd(text, at, end, c), end) ? (c === 61 ? 1 : 2) : null;
}

/** Three or more `*`, `-` or `_` (the same one), with only blanks between and after them. */
export function isThematicBreak(text: string, at: number, end: number): boolean {
  const c = text.charCodeAt(at);
  if (at >= end || (c !== 42 && c !== 45 && c !== 95)) return false;
  let count = 0;
  for (let i = at; i < end; i++) {
    const d = text.charCodeAt(i);
    if (d === c) count++;
    else if (!isBlank(d)) return false;
  }
  return count >= 3;
}

export interface CodeFence {
  readonly char: number;
  readonly length: number;
  /** The info string, trimmed (empty when there is none). */
  readonly info: string;
}

/** An opening fence: three or more backticks (whose info string has none) or tildes. */
export function codeFenceOpen(text: string, at: number, lineEnd: number): CodeFence | null {
  const c = text.charCodeAt(at);
  if (at >= lineEnd || (c !== 96 /* ` */ && c !== 126) /* ~ */) return null;
  const end = runEnd(text, at, lineEnd, c);
  if (end - at < 3) return null;
  let infoStart = end;
  while (infoStart < lineEnd && isBlank(text.charCodeAt(infoStart))) infoStart++;
  const info = text.slice(infoStart, trimmedEnd(text, infoStart, lineEnd));
  if (c === 96 && info.includes('`')) return null;
  return { char: c, length: end - at, info };
}

/** Whether the line closes `fence` at `at`: a run of its character at least as long, then only blanks. */
export function closesFence(text: string, at: number, lineEnd: number, fence: CodeFence): boolean {
  const end = runEnd(text, at, lineEnd, fence.char);
  return end - at >= fence.length && onlyBlanks(text, end, lineEnd);
}

export interface ListMarker {
  /** `-`, `+` or `*` for bullets; `.` or `)` for ordered items: lists continue only with the same one. */
  readonly delimiter: string;
  readonly ordered: boolean;
  /** The ordered item's number (bullets: 0). */
  readonly start: number;
  /** Offset just past the marker. */
  readonly end: number;
}

/** A bullet (`-`, `+`, `*`) or ordered marker (1–9 digits, then `.` or `)`), followed by a blank or the line's end. */
export function listMarker(text: string, at: number, lineEnd: number): ListMarker | null {
  if (at >= lineEnd) return null;
  const c = text.charCodeAt(at);
  let marker: ListMarker;
  if (c === 45 || c === 43 || c === 42) marker = { delimiter: text[at]!, ordered: false, start: 0, end: at + 1 };
  else {
    let i = at;
    while (i < lineEnd && i - at < 10 && isDigit(text.charCodeAt(i))) i++;
    const digits = i - at;
    const d = i < lineEnd ? text.charCodeAt(i) : Number.NaN;
    if (digits < 1 || digits > 9 || (d !== 46 && d !== 41)) return null;
    marker = { delimiter: text[i]!, ordered: true, start: Number(text.slice(at, i)), end: i + 1 };
  }
  return marker.end >= lineEnd || isBlank(text.charCodeAt(marker.end)) ? marker : null;
}
