/**
 * Turns a composed YAML document into plain data (objects, arrays, scalars), in one pass, with the checks the
 * `yaml` package's own `toJS` lacks or pays for quadratically:
 *  - aliases resolve through one anchor table built in document order (the package scans every anchor per alias);
 *  - an alias to an unknown or enclosing anchor is a problem, not an exception or a circular value;
 *  - what aliases add when expanded is counted, so an alias bomb stops at a limit, at the alias that crosses it;
 *  - map keys are the author's text (`01:` stays `01`, `1.10:` stays `1.10`), unique, and never collections;
 *  - a map is a record without a prototype (`name-table.ts`): `constructor:` or `__proto__:` is a key like any other,
 *    and a key the author did not write is missing, never a member every object inherits.
 * Recursion follows the document's nesting, which the caller has bounded (`cst-depth.ts`) before composing.
 */
import { type Alias, type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node as YamlNode, type Pair } from 'yaml';
import { nameTable } from '../../../contract/name-table.js';
import { LIMITS } from '../../limits.js';

export interface PlainProblem {
  readonly kind: 'syntax' | 'limit';
  readonly message: string;
  /** Offsets in the block's text (end exclusive). */
  readonly start: number;
  readonly end: number;
}

interface Converted {
  readonly value: unknown;
  /** Values in the expanded subtree (scalars and collections), and its depth. */
  readonly size: number;
  readonly depth: number;
}

/** Thrown inside the walk to stop at the first problem; caught in `yamlToPlain`. */
class StopAt {
  constructor(readonly problem: PlainProblem) {}
}

export function yamlToPlain(doc: Document.Parsed): { value: unknown; problems: PlainProblem[] } {
  const anchors = new Map<string, YamlNode>();
  const done = new Map<YamlNode, Converted>();
  const inProgress = new Set<YamlNode>();
  let aliasValues = 0;

  const fail = (kind: PlainProblem['kind'], message: string, node: { range?: readonly number[] | null } | null): never => {
    const [start = 0, end = start] = node?.range ?? [];
    throw new StopAt({ kind, message, start, end });
  };

  const resolve = (alias: Alias): YamlNode => {
    const target = anchors.get(alias.source);
    if (!target) return fail('syntax', `Unresolved alias \`*${alias.source}\`: no anchor \`&${alias.source}\` before it.`, alias);
    if (inProgress.has(target)) return fail('syntax', `Alias \`*${alias.source}\` refers to a value that contains it.`, alias);
    return target;
  };

  const convert = (node: YamlNode | null, level: number): Converted => {
    if (node === null) return { value: null, size: 1, depth: 1 };
    if (isAlias(node)) {
      const target = done.get(resolve(node))!;
      aliasValues += target.size;
      if (aliasValues > LIMITS.yamlAliasValues) {
        fail('limit', `Aliases expand this YAML by more than ${LIMITS.yamlAliasValues.toLocaleString('en')} values.`, node);
      }
      if (level + target.depth > LIMITS.yamlDepth) {
        fail('limit', `Expanding alias \`*${node.source}\` nests this YAML more than ${LIMITS.yamlDepth} levels deep.`, node);
      }
      return target;
    }
    if (node.anchor) {
      anchors.set(node.anchor, node);
      inProgress.add(node);
    }
    const converted = isScalar(node) ? { value: node.value, size: 1, depth: 1 } : convertCollection(node, level);
    if (node.anchor) {
      inProgress.delete(node);
      done.set(node, converted);
    }
    return converted;
  };

  const convertCollection = (node: YamlNode, level: number): Converted => {
    let size = 1;
    let depth = 0;
    const add = (c: Converted): unknown => {
      size += c.size;
      depth = Math.max(depth, c.depth);
      return c.value;
    };
    if (isSeq(node)) {
      const value = node.items.map((item) =>
        add(isPair(item) ? convertPairs([item], level + 1) : convert(item as YamlNode | null, level + 1)),
      );
      return { value, size, depth: depth + 1 };
    }
    if (isMap(node)) return convertPairs(node.items, level);
    return fail('syntax', 'Unsupported YAML node.', node);
  };

  const convertPairs = (pairs: readonly Pair[], level: number): Converted => {
    const entries: [string, unknown][] = [];
    const seen = new Set<string>();
    let size = 1;
    let depth = 0;
    for (const pair of pairs) {
      const keyNode = pair.key as YamlNode | null;
      const key = keyText(keyNode === null ? null : isAlias(keyNode) ? resolve(keyNode) : keyNode, keyNode);
      if (seen.has(key)) fail('syntax', `Map keys must be unique: \`${key}\` appears twice.`, keyNode);
      seen.add(key);
      const converted = convert(pair.value as YamlNode | null, level + 1);
      size += converted.size + 1;
      depth = Math.max(depth, converted.depth);
      entries.push([key, converted.value]);
    }
    return { value: nameTable(entries), size, depth: depth + 1 };
  };

  /** A map key as the author wrote it; `at` is where it is written (the alias, for an aliased key). */
  const keyText = (node: YamlNode | null, at: YamlNode | null): string => {
    if (node === null) return '';
    if (!isScalar(node)) return fail('syntax', 'A map key must be a plain value, not a list or a map.', at);
    const source = (node as { source?: unknown }).source;
    return typeof source === 'string' ? source : String(node.value);
  };

  try {
    return { value: convert(doc.contents as YamlNode | null, 1).value, problems: [] };
  } catch (stop) {
    if (stop instanceof StopAt) return { value: null, problems: [stop.problem] };
    throw stop;
  }
}
