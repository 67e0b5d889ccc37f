/**
 * Finds the YAML frontmatter: the block between a first line `---` and the next line that is `---` (or `...`).
 * Returns its text and where it starts, and the body with the frontmatter blanked out (every character but the
 * line breaks made a space), so the markdown scanner sees the same lines, columns and offsets as the file. (Blanking
 * instead of a scanner option keeps one source of truth for positions: the `.md` file.)
 *
 * A frontmatter that is never closed is reported by the caller; its body is taken to start at the first line that
 * starts with `#` (the first heading), so the rest of the file is still checked instead of drowning in YAML errors.
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
  /** The markdown body: the file's text with the frontmatter's characters (not its line breaks) made spaces. */
  readonly body: string;
}

const isFence = (line: string, mark: string) => line.startsWith(mark) && line.slice(mark.length).trim() === '';

export function splitFrontmatter(source: SourceText): SplitResult {
  const text = source.text;
  const firstEnd = lineEnd(text, 0);
  if (!isFence(text.slice(0, firstEnd), '---')) return { frontmatter: null, body: text };
  const yamlStart = Math.min(firstEnd + 1, text.length);
  let closing: { start: number; line: number } | null = null;
  let heading: { start: number; line: number } | null = null;
  for (let start = yamlStart, line = 2; start < text.length; start = lineEnd(text, start) + 1, line++) {
    const content = text.slice(start, lineEnd(text, start));
    if (isFence(content, '---') || isFence(content, '...')) {
      closing = { start, line };
      break;
    }
    if (heading === null && content.startsWith('#')) heading = { start, line };
  }
  const yamlEnd = closing ? Math.max(yamlStart, closing.start - 1) : text.length;
  const bodyStart = closing ? Math.min(lineEnd(text, closing.start) + 1, text.length) : (heading?.start ?? text.length);
  return {
    frontmatter: {
      yaml: text.slice(yamlStart, yamlEnd),
      firstLine: 2,
      closingLine: closing?.line ?? null,
      bodyLine: closing ? null : (heading?.line ?? null),
    },
    body: text.slice(0, bodyStart).replace(/[^\n]/g, ' ') + text.slice(bodyStart),
  };
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}
