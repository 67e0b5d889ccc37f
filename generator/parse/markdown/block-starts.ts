/**
 * Recognisers for the lines that open or close CommonMark leaf blocks and list items (spec 0.31): ATX headings,
 * setext underlines, thematic breaks, code fences and list markers. Each looks at one line from a given offset
 * (the first non-blank character, at most three columns in) and scans forward once: no regular expression, so a
 * line of any length costs its length.
 */

const isBlank = (c: number) => c === 32 || c === 9;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Offset just past the run of `code` starting at `at`. */
function runEnd(line: string, at: number, code: number): number {
  let i = at;
  while (line.charCodeAt(i) === code) i++;
  return i;
}

/** True when only spaces and tabs follow `at`. */
function onlyBlanksFrom(line: string, at: number): boolean {
  for (let i = at; i < line.length; i++) if (!isBlank(line.charCodeAt(i))) return false;
  return true;
}

/** End of the line without its trailing spaces and tabs (never before `floor`). */
function trimmedEnd(line: string, floor: number): number {
  let end = line.length;
  while (end > floor && isBlank(line.charCodeAt(end - 1))) end--;
  return end;
}

export interface AtxHeading {
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** The content without the opening and closing `#` runs, trimmed. */
  readonly text: string;
}

/** `#` to `######` followed by a blank or the end of the line. */
export function atxHeading(line: string, at: number): AtxHeading | null {
  const marks = runEnd(line, at, 35 /* # */) - at;
  if (marks < 1 || marks > 6) return null;
  const after = at + marks;
  if (after < line.length && !isBlank(line.charCodeAt(after))) return null;
  let start = after;
  while (isBlank(line.charCodeAt(start))) start++;
  let end = trimmedEnd(line, start);
  // A closing run of `#` counts only when it is the whole content or follows a blank.
  let closing = end;
  while (closing > start && line.charCodeAt(closing - 1) === 35) closing--;
  if (closing === start) end = start;
  else if (closing < end && isBlank(line.charCodeAt(closing - 1))) end = trimmedEnd(line.slice(0, closing), start);
  return { depth: marks as AtxHeading['depth'], text: line.slice(start, end) };
}

/** A setext underline: a run of `=` (level 1) or `-` (level 2), then only blanks. */
export function setextUnderline(line: string, at: number): 1 | 2 | null {
  const c = line.charCodeAt(at);
  if (c !== 61 /* = */ && c !== 45 /* - */) return null;
  return onlyBlanksFrom(line, runEnd(line, at, c)) ? (c === 61 ? 1 : 2) : null;
}

/** Three or more `*`, `-` or `_` (the same one), with only blanks between and after them. */
export function isThematicBreak(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  if (c !== 42 && c !== 45 && c !== 95) return false;
  let count = 0;
  for (let i = at; i < line.length; i++) {
    const d = line.charCodeAt(i);
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
export function codeFenceOpen(line: string, at: number): CodeFence | null {
  const c = line.charCodeAt(at);
  if (c !== 96 /* ` */ && c !== 126 /* ~ */) return null;
  const end = runEnd(line, at, c);
  if (end - at < 3) return null;
  if (c === 96 && line.indexOf('`', end) >= 0) return null;
  let infoStart = end;
  while (isBlank(line.charCodeAt(infoStart))) infoStart++;
  return { char: c, length: end - at, info: line.slice(infoStart, trimmedEnd(line, infoStart)) };
}

/** Whether the line closes `fence` at `at`: a run of its character at least as long, then only blanks. */
export function closesFence(line: string, at: number, fence: CodeFence): boolean {
  const end = runEnd(line, at, fence.char);
  return end - at >= fence.length && onlyBlanksFrom(line, end);
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
export function listMarker(line: string, at: number): ListMarker | null {
  const c = line.charCodeAt(at);
  let marker: ListMarker;
  if (c === 45 || c === 43 || c === 42) marker = { delimiter: line[at]!, ordered: false, start: 0, end: at + 1 };
  else {
    let i = at;
    while (i - at < 10 && isDigit(line.charCodeAt(i))) i++;
    const digits = i - at;
    const d = line.charCodeAt(i);
    if (digits < 1 || digits > 9 || (d !== 46 && d !== 41)) return null;
    marker = { delimiter: line[i]!, ordered: true, start: Number(line.slice(at, i)), end: i + 1 };
  }
  return marker.end >= line.length || isBlank(line.charCodeAt(marker.end)) ? marker : null;
}
