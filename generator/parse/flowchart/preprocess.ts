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
import { isInlineWhitespace, isWhitespace, isWordChar } from './char-class.js';
import { syntaxProblem, type RawProblem } from './problem.js';

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
}

/** Normalises line breaks and blanks what Mermaid strips before parsing. */
export function preprocess(source: string): Preprocessed {
  const original = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  const problems: RawProblem[] = [];
  const directives = findDirectives(original, problems);
  const frontMatter = findFrontMatter(original, directives, problems);
  const outside = (d: Range): boolean => !frontMatter || d.end <= frontMatter.start || d.start >= frontMatter.end;
  const blanked = [...(frontMatter ? [frontMatter] : []), ...directives.filter(outside)];
  const withoutDirectives = blank(original, blanked);
  const comments = findCommentLines(withoutDirectives);
  return { text: blank(withoutDirectives, comments), original, problems };
}

/** `%%{ word ... }%%` anywhere in the text, as Mermaid's directive pattern finds them. */
function findDirectives(text: string, problems: RawProblem[]): Range[] {
  const found: Range[] = [];
  for (let at = text.indexOf('%%{'); at !== -1; at = text.indexOf('%%{', at + 1)) {
    let p = skip(text, at + 3, isWhitespace);
    const word = skip(text, p, isWordChar);
    if (word === p) continue; // not a directive: no type word after `%%{`
    p = skip(text, word, isWhitespace);
    if (text.charCodeAt(p) === 0x3a) p = skip(text, p + 1, isWhitespace); // `:`
    const close = text.indexOf('}%%', p);
    if (close === -1) {
      problems.push(
        syntaxProblem(at, at + 3, `Unclosed directive '%%{' at the end of the text`, "Close the directive with '}%%'."),
      );
      found.push({ start: at, end: text.length });
      break;
    }
    found.push({ start: at, end: close + 3 });
    at = close + 2;
  }
  return found;
}

/**
 * The `---` front matter block: its first line may only be preceded by blank lines, `%%` comment lines and
 * directives (Mermaid strips those, then looks for front matter at the start of what is left).
 */
function findFrontMatter(text: string, directives: readonly Range[], problems: RawProblem[]): Range | null {
  let next = 0; // the next directive that may start where we are
  let p = 0;
  while (p < text.length) {
    let content = p + lineIndent(text, p);
    while (next < directives.length && (directives[next] as Range).start < content) next++;
    const directive = directives[next];
    if (directive && directive.start === content) {
      content = skip(text, directive.end, isInlineWhitespace);
      if (content < text.length && text.charCodeAt(content) !== 0x0a) return null;
      p = content + 1;
      continue;
    }
    const end = lineEndOf(text, p);
    if (content === end || text.startsWith('%%', content)) {
      p = end + 1;
      continue;
    }
    if (!isFence(text, p)) return null;
    for (let q = end + 1; q < text.length; q = lineEndOf(text, q) + 1) {
      if (isFence(text, q)) return { start: p, end: lineEndOf(text, q) };
    }
    problems.push(
      syntaxProblem(content, content + 3, "Front matter opened with '---' is never closed", "Close the front matter with a '---' line before 'flowchart'."),
    );
    return { start: p, end: text.length };
  }
  return null;
}

/**
 * Lines whose first non-blank characters are `%%` (front matter and directives were blanked before). As in
 * Mermaid, `%%{` that is not a directive is not a comment either.
 */
function findCommentLines(text: string): Range[] {
  const found: Range[] = [];
  for (let p = 0; p < text.length; p = lineEndOf(text, p) + 1) {
    const content = p + lineIndent(text, p);
    if (text.startsWith('%%', content) && text.charCodeAt(content + 2) !== 0x7b /* { */) {
      found.push({ start: content, end: lineEndOf(text, p) });
    }
  }
  return found;
}

/** A `---` line (inline whitespace around it allowed). */
function isFence(text: string, lineStart: number): boolean {
  const content = lineStart + lineIndent(text, lineStart);
  if (!text.startsWith('---', content)) return false;
  return skip(text, content + 3, isInlineWhitespace) === lineEndOf(text, lineStart);
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

function lineEndOf(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}
