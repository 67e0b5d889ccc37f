/**
 * Splits the markdown body into level-2 sections with the block scanner (`markdown/scan-blocks.ts`, CommonMark's
 * block structure, so a `## ` inside a code block, an HTML comment or a list item is not a heading). Each section
 * keeps its heading text, its source range and its top-level blocks; later stages slice the original text by
 * these ranges, so content is kept exactly as written.
 */
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import type { CodeBlock, HeadingBlock, MarkdownBlock } from './markdown/block.js';
import { type ScannedBlocks, scanBlocks } from './markdown/scan-blocks.js';
import type { SourceText } from './source-text.js';

export interface MarkdownSection {
  readonly heading: string;
  /** Offset of the `##` heading and of the end of the section (next level-1 or level-2 heading, or EOF). */
  readonly start: number;
  readonly end: number;
  readonly headingSpan: SourceSpan;
  /** The section's top-level blocks after its heading, in order. */
  readonly children: readonly MarkdownBlock[];
}

export interface MarkdownOutline {
  readonly sections: readonly MarkdownSection[];
  /** Where the scanner stopped at a limit (then the outline covers the text before it only). */
  readonly stopped: ScannedBlocks['stopped'];
}

/** @param body where the markdown starts in `source.text` (after the frontmatter): its offset and line. */
export function parseMarkdownOutline(source: SourceText, body: { readonly offset: number; readonly line: number }): MarkdownOutline {
  const sections: { heading: string; start: number; headingSpan: SourceSpan; children: MarkdownBlock[] }[] = [];
  const scanned = scanBlocks(source.text, body.offset, body.line);
  for (const block of scanned.blocks) {
    if (block.kind === 'heading' && block.depth <= 2) {
      // A level-1 title ends the previous section but starts none: it is not part of the system prompt.
      sections.push({
        heading: block.depth === 1 ? '' : headingText(block),
        start: block.start.offset,
        headingSpan: spanOf(block),
        children: [],
      });
    } else sections.at(-1)?.children.push(block);
  }
  const out: MarkdownSection[] = [];
  for (let i = 0; i < sections.length; i++) {
    const s = sections[i]!;
    if (s.heading !== '') out.push({ ...s, end: sections[i + 1]?.start ?? source.text.length });
  }
  return { sections: out, stopped: scanned.stopped };
}

/** The section whose heading is `name`, case-insensitively. */
export function findSection(outline: MarkdownOutline, name: string): MarkdownSection | undefined {
  const wanted = name.toLowerCase();
  return outline.sections.find((s) => s.heading.toLowerCase() === wanted);
}

/** The first section whose heading starts with `prefix`, case-insensitively (`## Node Prompts (Solo)`). */
export function findSectionStartingWith(outline: MarkdownOutline, prefix: string): MarkdownSection | undefined {
  const wanted = prefix.toLowerCase();
  return outline.sections.find((s) => s.heading.toLowerCase().startsWith(wanted));
}

/** The heading's text; a whole-heading code span (`### \`AUTH\``) counts as its content. */
export function headingText(heading: HeadingBlock): string {
  const text = heading.text;
  if (text.length < 2 || !text.startsWith('`') || !text.endsWith('`')) return text;
  let from = 0;
  while (text.charCodeAt(from) === 96) from++;
  let to = text.length;
  while (to > from && text.charCodeAt(to - 1) === 96) to--;
  const inner = text.slice(from, to);
  return inner.includes('`') ? text : inner.trim();
}

export function spanOf(block: MarkdownBlock): SourceSpan {
  return { start: { line: block.start.line, column: block.start.column }, end: { line: block.end.line, column: block.end.column } };
}

/** Where a fenced code block's content starts in the file: the line after the fence, at the fence's column. */
export function codeContentStart(code: CodeBlock): { line: number; column: number } {
  return { line: code.start.line + 1, column: code.start.column };
}
