/**
 * Splits the markdown body into level-2 sections with unified + remark-parse (CommonMark, so a `## ` inside a
 * code block is not a heading). Each section keeps its heading text, its source range and its mdast
 * children; later stages slice the original text by these ranges, so content is kept exactly as written.
 */
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { Code, Heading, PhrasingContent, Root, RootContent } from 'mdast';
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import { offsetAt, type SourceText } from './source-text.js';

export interface MarkdownSection {
  readonly heading: string;
  /** Offset of the `##` heading line and of the end of the section (next level-2 heading or EOF). */
  readonly start: number;
  readonly end: number;
  readonly headingSpan: SourceSpan;
  readonly children: readonly RootContent[];
}

export interface MarkdownOutline {
  readonly sections: readonly MarkdownSection[];
}

// Only the block structure matters here (headings, fenced code, containers): prose is sliced from the source
// as written. Turning micromark's inline constructs off changes no block boundary (CommonMark parses blocks
// first) and makes parsing ~1.6x faster, which is most of a cold build's time.
const INLINE_CONSTRUCTS = [
  'attention',
  'autolink',
  'characterEscape',
  'characterReference',
  'codeText',
  'hardBreakEscape',
  'htmlText',
  'labelEnd',
  'labelStartImage',
  'labelStartLink',
];
const parser = unified()
  .use(remarkParse)
  .data('micromarkExtensions', [{ disable: { null: INLINE_CONSTRUCTS } }]);

export function parseMarkdownOutline(source: SourceText, body: string): MarkdownOutline {
  const root = parser.parse(body) as Root;
  const sections: { heading: string; start: number; headingSpan: SourceSpan; children: RootContent[] }[] = [];
  for (const child of root.children) {
    if (child.type === 'heading' && child.depth <= 2) {
      if (child.depth === 1) {
        // A level-1 title ends the previous section but starts none: it is not part of the system prompt.
        sections.push({ heading: '', start: startOffset(source, child), headingSpan: spanOfNode(child), children: [] });
        continue;
      }
      sections.push({ heading: headingText(child), start: startOffset(source, child), headingSpan: spanOfNode(child), children: [] });
    } else {
      sections.at(-1)?.children.push(child);
    }
  }
  const out: MarkdownSection[] = [];
  for (let i = 0; i < sections.length; i++) {
    const s = sections[i]!;
    const end = sections[i + 1]?.start ?? source.text.length;
    if (s.heading !== '') out.push({ ...s, end });
  }
  return { sections: out };
}

export function findSection(outline: MarkdownOutline, name: string): MarkdownSection | undefined {
  const wanted = name.toLowerCase();
  return outline.sections.find((s) => s.heading.toLowerCase() === wanted);
}

/** The heading's text; a whole-heading code span (`### \`AUTH\``) counts as its content. */
export function headingText(heading: Heading): string {
  return phrasingText(heading.children)
    .trim()
    .replace(/^`+([^`]*)`+$/, '$1')
    .trim();
}

function phrasingText(nodes: readonly PhrasingContent[]): string {
  let out = '';
  for (const n of nodes) {
    if ('value' in n && typeof n.value === 'string') out += n.value;
    else if ('children' in n) out += phrasingText(n.children as PhrasingContent[]);
  }
  return out;
}

export function startOffset(source: SourceText, node: { position?: { start: { line: number; column: number } } }): number {
  return node.position ? offsetAt(source, node.position.start) : 0;
}

export function endOffset(source: SourceText, node: { position?: { end: { line: number; column: number } } }): number {
  return node.position ? offsetAt(source, node.position.end) : 0;
}

export function spanOfNode(node: {
  position?: { start: { line: number; column: number }; end: { line: number; column: number } };
}): SourceSpan {
  const p = node.position;
  return p
    ? { start: { line: p.start.line, column: p.start.column }, end: { line: p.end.line, column: p.end.column } }
    : { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
}

/** A fenced code block's content: where its first line is in the file, and its indentation. */
export function codeContentStart(code: Code): { line: number; column: number } {
  const start = code.position?.start ?? { line: 1, column: 1 };
  return { line: start.line + 1, column: start.column };
}
