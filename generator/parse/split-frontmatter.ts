/**
 * Finds the YAML frontmatter: the block between a first line `---` and the next line that is `---` (or `...`).
 * Returns its text and where it starts, and where the markdown body starts: the markdown scanner starts there,
 * with the file's own line numbers and offsets, so every position it reports is a position in the file.
 *
 * A frontmatter that is never closed is reported by the caller; its body is taken to start at the first line that
 * starts with `#` (the first heading), so the rest of the file is still checked instead of drowning in YAML errors.
 * One pass over the lines, reading them in place.
 */
import type { SourceText } from './source-text.js';

export interface FrontmatterBlock {
  readonly yaml: string;
  /** Line (1-based) of the first YAML line, i.e. the line after the opening `---`. */
  readonly firstLine: number;
  /** Line of the closing `---`, or null when it was never closed. */
  readonly closingLine: number | null;
  /** When never closed: the line where the body was taken to start (the first heading), if any. */
  readonly bodyLine: number | null;
}

export interface SplitResult {
  readonly frontmatter: FrontmatterBlock | null;
  /** Where the markdown body starts in the text: its offset (a line start) and its line number. */
  readonly body: { readonly offset: number; readonly line: number };
}

export function splitFrontmatter(source: SourceText): SplitResult {
  const text = source.text;
  if (!isFenceLine(text, 0, '---')) return { frontmatter: null, body: { offset: 0, line: 1 } };
  const yamlStart = Math.min(lineEnd(text, 0) + 1, text.length);
  let closing: { start: number; line: number } | null = null;
  let heading: { start: number; line: number } | null = null;
  for (let start = yamlStart, line = 2; start < text.length; start = lineEnd(text, start) + 1, line++) {
    if (isFenceLine(text, start, '---') || isFenceLine(text, start, '...')) {
      closing = { start, line };
      break;
    }
    if (heading === null && text.charCodeAt(start) === 35 /* # */) heading = { start, line };
  }
  const yamlEnd = closing ? Math.max(yamlStart, closing.start - 1) : text.length;
  const bodyStart = closing ? Math.min(lineEnd(text, closing.start) + 1, text.length) : (heading?.start ?? text.length);
  const bodyLine = closing ? closing.line + 1 : (heading?.line ?? 1);
  return {
    frontmatter: {
      yaml: text.slice(yamlStart, yamlEnd),
      firstLine: 2,
      closingLine: closing?.line ?? null,
      bodyLine: closing ? null : (heading?.line ?? null),
    },
    body: { offset: bodyStart, line: bodyLine },
  };
}

/** Whether the line at `start` is `mark` followed by nothing but whitespace. */
function isFenceLine(text: string, start: number, mark: string): boolean {
  return text.startsWith(mark, start) && text.slice(start + mark.length, lineEnd(text, start)).trim() === '';
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}
