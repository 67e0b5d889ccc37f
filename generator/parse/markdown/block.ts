/**
 * The top-level blocks of a markdown document, as the block scanner (`scan-blocks.ts`) reports them: what the
 * compiler needs to cut a SOP into sections (headings), find its ```mermaid and ```yaml blocks (fenced code), and
 * know that anything else at the top level (paragraphs, lists, quotes, HTML) is prose kept as written. Positions
 * are 1-based lines and columns (a tab is one column) with 0-based offsets, the way mdast reports them.
 */

export interface MarkdownPoint {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

interface BlockExtent {
  readonly start: MarkdownPoint;
  /** Exclusive: just after the block's last character (trailing blanks of its last line included). */
  readonly end: MarkdownPoint;
}

export interface HeadingBlock extends BlockExtent {
  readonly kind: 'heading';
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** The heading's text as written, without its `#` marks or setext underline, trimmed. */
  readonly text: string;
}

export interface CodeBlock extends BlockExtent {
  readonly kind: 'code';
  /** The first word of a fenced block's info string (` ```yaml ` → `yaml`); null for indented code or no info. */
  readonly lang: string | null;
  /** The lines inside the fences, with the fence's indentation removed; no final line break. */
  readonly value: string;
}

/** Everything else at the top level (paragraphs, lists, quotes, HTML, breaks): one block per run between the others. */
export interface ProseBlock extends BlockExtent {
  readonly kind: 'prose';
}

export type MarkdownBlock = HeadingBlock | CodeBlock | ProseBlock;
