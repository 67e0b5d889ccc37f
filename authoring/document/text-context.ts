/**
 * Where in a SOP the cursor is, for completion: in the frontmatter, the flowchart, a node's yaml block (or the
 * `node_prompts:` map), on a `### ` prompt heading, or in prose; and, inside YAML, the keys above the cursor and
 * whether a key or a value is being typed. The regions come from the compiler's parse (its sections and blocks,
 * the frontmatter split); the YAML around the cursor is read line by line, by indentation, because completion
 * runs on text that is being typed and so rarely parses.
 */
import type { SourcePosition } from '../../generator/diagnostics/diagnostic.js';
import { codeContentStart } from '../../generator/parse/markdown-sections.js';
import { splitFrontmatter } from '../../generator/parse/split-frontmatter.js';
import type { SopDocument } from './sop-document.js';

export type Region =
  | { readonly kind: 'frontmatter' }
  | { readonly kind: 'flowchart' }
  /** A node's ```yaml block (`node` from its heading), or the `node_prompts:` map (`node` null); from `firstLine`. */
  | { readonly kind: 'node-yaml'; readonly node: string | null; readonly map: boolean; readonly firstLine: number }
  | { readonly kind: 'prompt-heading' }
  | { readonly kind: 'prose' };

export interface YamlContext {
  /** The keys above the cursor, outermost first (list items skipped). */
  readonly parents: readonly string[];
  /** `key`: a key is being typed; `value`: the value of `parents`' last key (in a list or flow list too). */
  readonly at: 'key' | 'value';
  /** The keys already written beside the one being typed (same indentation, same parent). */
  readonly siblings: readonly string[];
}

export function regionAt(document: SopDocument, position: SourcePosition): Region {
  const { lines } = document;
  const split = splitFrontmatter({ file: document.file, text: lines.text });
  const fm = split.frontmatter;
  if (fm !== null) {
    const last = fm.closingLine !== null ? fm.closingLine - 1 : (fm.bodyLine ?? lines.lineCount + 1) - 1;
    if (position.line >= fm.firstLine && position.line <= last) return { kind: 'frontmatter' };
    if (position.line < fm.firstLine || position.line === fm.closingLine) return { kind: 'prose' };
  }
  const offset = lines.offsetOf(position);
  for (const section of document.build.parsed?.sections ?? []) {
    if (offset < section.start || offset > section.end) continue;
    const heading = section.heading.toLowerCase();
    let currentNode: string | null = null;
    for (const block of section.children) {
      if (block.kind === 'heading' && block.depth === 3) {
        currentNode = block.text;
        if (block.start.line === position.line) return { kind: 'prompt-heading' };
      }
      const inside = block.kind === 'code' && position.line >= codeContentStart(block).line && position.line < block.end.line;
      if (!inside || block.kind !== 'code') continue;
      if (heading === 'sop flowchart' && block.lang === 'mermaid') return { kind: 'flowchart' };
      if (heading.startsWith('node prompts') && block.lang === 'yaml') {
        const map = /(^|\n)\s*node_prompts\s*:/.test(block.value);
        return { kind: 'node-yaml', node: map ? null : currentNode, map, firstLine: codeContentStart(block).line };
      }
    }
    // A heading being typed in the prompts section (`### ` with nothing after it yet is not a heading for markdown).
    if (heading.startsWith('node prompts') && /^###\s/.test(lines.line(position.line))) return { kind: 'prompt-heading' };
  }
  return { kind: 'prose' };
}

const KEY_LINE = /^(\s*)(?:-\s+)?([A-Za-z_][\w-]*)\s*:/;
const indentOf = (line: string) => line.length - line.trimStart().length;
const skipped = (line: string) => line.trim() === '' || line.trimStart().startsWith('#');

/** The YAML keys around a position, read by indentation, looking no higher than `firstLine` (the block's first line). */
export function yamlContextAt(document: SopDocument, position: SourcePosition, firstLine: number): YamlContext {
  const { lines } = document;
  const text = lines.line(position.line);
  const before = text.slice(0, Math.max(position.column - 1, 0));
  /** The keys that hold a line indented by `level`, outermost first. */
  const ancestors = (level: number): string[] => {
    const found: string[] = [];
    let limit = level;
    for (let n = position.line - 1; n >= firstLine && limit > 0; n--) {
      const line = lines.line(n);
      if (skipped(line) || indentOf(line) >= limit) continue;
      const key = KEY_LINE.exec(line);
      if (key) found.unshift(key[2]!);
      limit = indentOf(line);
    }
    return found;
  };
  const own = KEY_LINE.exec(before);
  if (own !== null) return { parents: [...ancestors(indentOf(before)), own[2]!], at: 'value', siblings: [] };
  if (!/^\s*[\w-]*$/.test(before)) return { parents: ancestors(indentOf(text)), at: 'value', siblings: [] };
  const level = indentOf(before);
  const siblings: string[] = [];
  for (const step of [-1, 1]) {
    for (let n = position.line + step; n >= firstLine && n <= lines.lineCount; n += step) {
      const line = lines.line(n);
      if (skipped(line)) continue;
      if (indentOf(line) < level || line.startsWith('---') || line.startsWith('```')) break;
      const key = KEY_LINE.exec(line);
      if (indentOf(line) === level && key) siblings.push(key[2]!);
    }
  }
  return { parents: ancestors(level), at: 'key', siblings };
}
