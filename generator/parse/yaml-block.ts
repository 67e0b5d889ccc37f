/**
 * Parses an embedded YAML block (the frontmatter, a node's ```yaml block, the `node_prompts:` map) with the
 * `yaml` package, keeping positions: every node can be mapped back to a span in the `.md` file. Syntax errors
 * become values (`YamlProblem`), never exceptions.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { SourceSpan } from '../diagnostics/diagnostic.js';

export interface YamlBlock {
  readonly doc: Document.Parsed;
  /** Plain JS value of the document (null when empty). */
  readonly value: unknown;
  /** Span in the `.md` file of the node at `path` (a key's value, or the key itself with `key: true`). */
  spanOf(path: readonly (string | number)[], options?: { key?: boolean }): SourceSpan;
  /** Span of a YAML node. */
  spanOfNode(node: YamlNode | null | undefined): SourceSpan;
}

export interface YamlProblem {
  readonly message: string;
  readonly span: SourceSpan;
}

/**
 * @param text the block's text
 * @param firstLine the `.md` line of the block's first line
 * @param column the `.md` column where block lines start (1 unless the block is indented)
 */
export function parseYamlBlock(text: string, firstLine: number, column = 1): { block: YamlBlock; problems: readonly YamlProblem[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const toPos = (offset: number) => {
    const p = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    return { line: firstLine + p.line - 1, column: column + p.col - 1 };
  };
  const whole: SourceSpan = { start: toPos(0), end: toPos(text.length) };
  const spanOfNode = (node: YamlNode | null | undefined): SourceSpan =>
    node?.range ? { start: toPos(node.range[0]), end: toPos(node.range[1]) } : whole;

  const spanOf = (path: readonly (string | number)[], options?: { key?: boolean }): SourceSpan => {
    // Walk as deep as the path exists; report at the deepest node found (a missing key points at its parent).
    let node: unknown = doc.contents;
    let best: YamlNode | null = (doc.contents as YamlNode | null) ?? null;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (!pair) break;
        if (i === path.length - 1 && options?.key && pair.key) return spanOfNode(pair.key as YamlNode);
        node = pair.value;
        best = (pair.value as YamlNode | null) ?? (pair.key as YamlNode);
      } else if (node && typeof node === 'object' && 'items' in node && typeof segment === 'number') {
        const item = (node as { items: unknown[] }).items[segment];
        if (!item) break;
        node = item;
        best = item as YamlNode;
      } else break;
    }
    return spanOfNode(best);
  };

  const problems: YamlProblem[] = doc.errors.map((error) => ({
    message: error.message.split('\n')[0] ?? error.message,
    span: { start: toPos(error.pos[0]), end: toPos(error.pos[1]) },
  }));
  const value = problems.length > 0 ? null : doc.toJS({ maxAliasCount: 100 });
  return { block: { doc, value, spanOf, spanOfNode }, problems };
}
