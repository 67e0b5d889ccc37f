/**
 * Finds the YAML frontmatter: the block between a first line `---` and the next line that is `---` (or
 * `...`). Returns its text and where it starts, and the body with the frontmatter lines blanked out, so the
 * markdown parser sees the same line numbers as the file. (Blanking instead of a remark plugin keeps one
 * source of truth for positions: the `.md` file.)
 */
import type { SourceText } from './source-text.js';

export interface FrontmatterBlock {
  readonly yaml: string;
  /** Line (1-based) of the first YAML line, i.e. the line after the opening `---`. */
  readonly firstLine: number;
  /** Line of the closing `---`, or null when it was never closed. */
  readonly closingLine: number | null;
}

export interface SplitResult {
  readonly frontmatter: FrontmatterBlock | null;
  /** The markdown body: same length in lines as the file, frontmatter lines replaced by empty lines. */
  readonly body: string;
}

export function splitFrontmatter(source: SourceText): SplitResult {
  const lines = source.text.split('\n');
  if (lines[0]?.trimEnd() !== '---') return { frontmatter: null, body: source.text };
  let closing = -1;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!.trimEnd();
    if (l === '---' || l === '...') {
      closing = i;
      break;
    }
  }
  const end = closing === -1 ? lines.length : closing + 1;
  const yaml = lines.slice(1, closing === -1 ? lines.length : closing).join('\n');
  const body = [...lines.slice(0, end).map(() => ''), ...lines.slice(end)].join('\n');
  return {
    frontmatter: { yaml, firstLine: 2, closingLine: closing === -1 ? null : closing + 1 },
    body,
  };
}
