/**
 * Which key of the frontmatter a position is on, from the compiler's own YAML (`YamlBlock`: the parsed value and the
 * span of any key in the file): the path to it, e.g. `['policies', 'confirm_before_changes', 'every_path_to']`. For
 * hover. Bounded: a frontmatter of thousands of keys is looked through up to a fixed number of them.
 */
import type { SourcePosition, SourceSpan } from '../../generator/diagnostics/diagnostic.js';
import type { YamlBlock } from '../../generator/parse/yaml-block.js';
import { spanContains } from './source-lines.js';

export type YamlPath = readonly (string | number)[];

export interface KeyAt {
  readonly path: YamlPath;
  readonly span: SourceSpan;
}

const MAX_DEPTH = 5;
const MAX_KEYS = 5_000;

export function yamlKeyAt(yaml: YamlBlock, position: SourcePosition): KeyAt | undefined {
  let visited = 0;
  const walk = (value: unknown, path: YamlPath): KeyAt | undefined => {
    if (path.length >= MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (const [key, child] of entries) {
      if (++visited > MAX_KEYS) return undefined;
      const at = [...path, key];
      if (typeof key === 'string') {
        const span = yaml.spanOf(at, { key: true });
        if (spanContains(span, position)) return { path: at, span };
      }
      const inner = walk(child, at);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return walk(yaml.value, []);
}
