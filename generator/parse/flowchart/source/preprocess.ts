/**
 * The text Mermaid's flowchart grammar actually sees. Before its parser runs, Mermaid removes a `---` front matter
 * block (after blank lines, comments or directives), `%%{...}%%` directives (anywhere) and `%%` comment lines.
 * We do the same, but blank those ranges out (every character but `\n` becomes a space) instead of deleting them,
 * so offsets and positions stay those of the author's text. Line breaks are normalised to `\n` first, keeping one
 * line break per `\r\n`, `\r` or `\n` so line numbers do not move.
 *
 * A bare `%%` line is blanked too, although Mermaid keeps it (and then draws a node called `%%`): that is never
 * what the author meant.
 */
import { syntaxProblem, type RawProblem } from '../problem.js';
import { CH, isInlineWhitespace, isWhitespace, isWordChar } from './char-class.js';
import { lineEnd } from './lines.js';

export interface Preprocessed {
  /** The normalised text with front matter, directives and comment lines blanked. */
  readonly text: string;
  /** The normalised text as written (what positions refer to). */
  readonly original: string;
  readonly problems: readonly RawProblem[];
}

interface Range {
  readonly start: number;
  readonly end: number;
  /** A directive without its closing `}%%` (it swallows the rest of the text, as in Mermaid). */
  readonly unclosed?: boolean;
}

/** Normalises line breaks and blanks what Mermaid strips before parsing. */
export function preprocess(source: string): Preprocessed {
  const original = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  const problems: RawProblem[] = [];
  const directives = findDirectives(original);
  const frontMatter = findFrontMatter(original, directives, problems);
  const outside = directives.filter((d) => frontMatter.every((f) => d.end <= f.start || d.start >= f.end));
  for (const d of outside) {
    if (!d.unclosed) continue;
    problems.push(syntaxProblem(d.start, d.start + 3, "Unclosed directive '%%{': expected '}%%'", "Close the directive with '}%%'."));
  }
  const blanked = [...frontMatter, ...outside];
  const withoutDirectives = blank(original, blanked);
  const comments = findCommentLines(withoutDirectives);
  return { text: blank(withoutDirectives, comments), original, problems };
}

/** `%%{ word ... }%%` anywhere in the text, as Mermaid's directive pattern finds them. */
function findDirectives(text: string): Range[] {
  const found: Range[] = [];
  for (let at = text.indexOf('%%{'); at !== -1; at = text.indexOf('%%{', at + 1)) {
    let p = skip(text, at + 3, isWhitespace);
    const word = skip(text, p, isWordChar);
    if (word === p) continue; // not a directive: no type word after `%%{`
    p = skip(text, word, isWhitespace);
    if (text.charCodeAt(p) === CH.colon) p = skip(text, p + 1, isWhitespace);
    const close = text.indexOf('}%%', p);
    if (close === -1) {
      found.push({ start: at, end: text.length, unclosed: true });
      break;
    }
    found.push({ start: at, end: close + 3 });
    at = close + 2;
  }
  return found;
}

/**
 * The `---` front matter, as Mermaid finds it. Mermaid strips its preamble twice: the first time, front matter
 * must start the text (its fences may be indented alike); then directives and comment lines are removed, the rest
 * is trimmed, and front matter is looked for again at the new start (so it may follow blank lines, comments and
 * directives, and its closing fence must not be indented). Between the fences there must be at least one line
 * break more than the fences' own, and the closing fence must end its line.
 */
function findFrontMatter(text: string, directives: readonly Range[], problems: RawProblem[]): Range[] {
  const found: Range[] = [];
  const atStart = fenceIndent(text, 0);
  const first = atStart === null ? null : closeFrontMatter(text, 0, [atStart, '']);
  if (first) found.push(first);
  const start = firstContentLine(text, first ? first.end + 1 : 0, directives);
  if (start === -1 || fenceIndent(text, start) === null) return found;
  const second = closeFrontMatter(text, start, ['']);
  if (second) return [...found, second];
  const content = start + lineIndent(text, start);
  problems.push(
    syntaxProblem(
      content,
      content + 3,
      "Front matter opened with '---' is never closed by a '---' line Mermaid accepts",
      "Close it with a '---' line that is not indented and not right after the opening one, before 'flowchart'.",
    ),
  );
  return [...found, { start, end: text.length }];
}

/** If the line at `lineStart` is a `---` fence, its indentation; otherwise null. */
function fenceIndent(text: string, lineStart: number): string | null {
  const indent = lineIndent(text, lineStart);
  const content = lineStart + indent;
  if (!text.startsWith('---', content) || skip(text, content + 3, isInlineWhitespace) !== lineEnd(text, lineStart)) return null;
  return text.slice(lineStart, content);
}

/** The front matter opened at `open`, closed by a fence with one of the given indentations (or null). */
function closeFrontMatter(text: string, open: number, indents: readonly string[]): Range | null {
  const afterOpen = lineEnd(text, open) + 1;
  for (let line = lineEnd(text, afterOpen) + 1; line < text.length; line = lineEnd(text, line) + 1) {
    const indent = fenceIndent(text, line);
    const end = lineEnd(text, line);
    if (indent !== null && indents.includes(indent) && end < text.length) return { start: open, end };
  }
  return null;
}

/** The start of the first line at or after `from` that is not blank, a comment or a directive (or -1). */
function firstContentLine(text: string, from: number, directives: readonly Range[]): number {
  let next = 0; // the next directive that may start where we are
  let p = from;
  while (p < text.length) {
    let content = p + lineIndent(text, p);
    while (next < directives.length && (directives[next] as Range).start < content) next++;
    const directive = directives[next];
    if (directive && directive.start === content) {
      content = skip(text, directive.end, isInlineWhitespace);
      if (content < text.length && text.charCodeAt(content) !== CH.lf) return -1;
      p = content + 1;
      continue;
    }
    const end = lineEnd(text, p);
    if (content !== end && !(text.startsWith('%%', content) && text.charCodeAt(content + 2) !== CH.lbrace)) return p;
    p = end + 1;
  }
  return -1;
}

/**
 * Lines whose first non-blank characters are `%%` (front matter and directives were blanked before). As in
 * Mermaid, `%%{` that is not a directive is not a comment either.
 */
function findCommentLines(text: string): Range[] {
  const found: Range[] = [];
  for (let p = 0; p < text.length; p = lineEnd(text, p) + 1) {
    const content = p + lineIndent(text, p);
    if (text.startsWith('%%', content) && text.charCodeAt(content + 2) !== CH.lbrace) {
      found.push({ start: content, end: lineEnd(text, p) });
    }
  }
  return found;
}

function blank(text: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const r of sorted) {
    if (r.end <= at) continue;
    const start = Math.max(r.start, at);
    out += text.slice(at, start) + text.slice(start, r.end).replace(/[^\n]/g, ' ');
    at = r.end;
  }
  return out + text.slice(at);
}

function skip(text: string, from: number, accept: (code: number) => boolean): number {
  let p = from;
  while (p < text.length && accept(text.charCodeAt(p))) p++;
  return p;
}

function lineIndent(text: string, lineStart: number): number {
  return skip(text, lineStart, isInlineWhitespace) - lineStart;
}
