/**
 * Parses an embedded YAML block (the frontmatter, a node's ```yaml block, the `node_prompts:` map) with the `yaml`
 * package, keeping positions: every node can be mapped back to a span in the `.md` file. Problems are values
 * (`YamlProblem`), never exceptions; the cost is linear in the block's size whatever it holds:
 *  - a block over `LIMITS.yamlCharacters` or nested deeper than `LIMITS.yamlDepth` is refused before it is composed
 *    (see `yaml/nesting.ts`);
 *  - duplicate keys are found by `yaml-to-plain.ts` (the package's own `uniqueKeys` check is quadratic);
 *  - aliases are resolved and bounded there too (the package resolves each alias by a scan of the document).
 */
import {
  Composer,
  type CST,
  type Document,
  isMap,
  isScalar,
  LineCounter,
  Parser,
  type Node as YamlNode,
  type Pair,
  YAMLParseError,
} from 'yaml';
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import { LIMITS } from '../limits.js';
import { cstDepth, lexicalTooDeep } from './yaml/nesting.js';
import { yamlToPlain } from './yaml/yaml-to-plain.js';

export interface YamlBlock {
  /** Plain data of the document (null when empty or when it has problems). */
  readonly value: unknown;
  /** Span in the `.md` file of the node at `path` (a key's value, or the key itself with `key: true`). */
  spanOf(path: readonly (string | number)[], options?: { key?: boolean }): SourceSpan;
  /** The text of the plain scalar at `path` as written (`1.10`, not the number 1.1); undefined for anything else. */
  plainSourceOf(path: readonly (string | number)[]): string | undefined;
  /**
   * The span of the characters `start`..`end` of the text scalar at `path`, when they are written as they are (on one
   * line, plain or in quotes without escapes); undefined when the value is written otherwise (folded, escaped).
   */
  spanWithin(path: readonly (string | number)[], start: number, end: number): SourceSpan | undefined;
}

export interface YamlProblem {
  /** `limit`: the block exceeds one of the compiler's limits (SOP092); `syntax`: it is not usable YAML. */
  readonly kind: 'syntax' | 'limit';
  readonly message: string;
  readonly span: SourceSpan;
}

/** Syntax problems of one block reported one by one; the rest are counted in one more. */
const SYNTAX_PROBLEMS_SHOWN = 20;

/** Reads one YAML block of a `.md` file: `parseYamlBlock`, or a reader reusing earlier parses (`yaml/yaml-reuse.ts`). */
export type ReadYaml = (text: string, firstLine: number, column?: number) => { block: YamlBlock; problems: readonly YamlProblem[] };

/** A problem of a block at offsets in its text. */
interface YamlParseProblem {
  readonly kind: YamlProblem['kind'];
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/**
 * A block parsed apart from its place in the file: every position is an offset in its text, placed by `placeYaml`. It
 * depends on the text alone, so the language server reuses it for a block an edit left as it was, wherever it moved.
 * Its data is frozen: whoever reads it shares it with every compile that reuses it.
 */
export interface YamlParse {
  readonly text: string;
  /** Null when the block was refused before it was composed (a limit). */
  readonly doc: Document.Parsed | null;
  readonly lineCounter: LineCounter;
  readonly value: unknown;
  readonly problems: readonly YamlParseProblem[];
  /** Per map of `doc`, its pairs by key, indexed when first asked. */
  readonly pairsByKey: Map<unknown, Map<string, Pair>>;
}

/**
 * @param text the block's text
 * @param firstLine the `.md` line of the block's first line
 * @param column the `.md` column where block lines start (1 unless the block is indented)
 */
export const parseYamlBlock: ReadYaml = (text, firstLine, column = 1) => placeYaml(parseYamlText(text), firstLine, column);

/** Parses a block's text; positions stay offsets in it. */
export function parseYamlText(text: string): YamlParse {
  const lineCounter = new LineCounter();
  const refused = (message: string, start: number, end: number): YamlParse => ({
    text,
    doc: null,
    lineCounter,
    value: null,
    problems: [{ kind: 'limit', message, start, end }],
    pairsByKey: new Map(),
  });

  if (text.length > LIMITS.yamlCharacters) {
    lineCounter.addNewLine(0);
    return refused(
      `This YAML block holds ${text.length.toLocaleString('en')} characters; a block may hold at most ${LIMITS.yamlCharacters.toLocaleString('en')}.`,
      0,
      0,
    );
  }
  const lexical = lexicalTooDeep(text, LIMITS.yamlDepth);
  if (lexical) {
    // Positions need the line starts, which the parser would have recorded.
    lineCounter.addNewLine(0);
    for (let i = text.indexOf('\n'); i >= 0 && i < lexical.offset; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
    return refused(`This YAML nests more than ${LIMITS.yamlDepth} levels deep.`, lexical.offset, lexical.offset + 1);
  }
  const { tokens, doc } = withoutStackTraces(() => {
    const cst: CST.Token[] = [...new Parser(lineCounter.addNewLine).parse(text)];
    return { tokens: cst, doc: cstDepth(cst).depth > LIMITS.yamlDepth ? null : firstDocument(cst, text.length) };
  });
  if (doc === null) {
    const deepest = cstDepth(tokens);
    return refused(`This YAML nests more than ${LIMITS.yamlDepth} levels deep.`, deepest.offset, deepest.offset + 1);
  }
  // The first few syntax problems say what is wrong; a line of stray quotes can make a hundred thousand.
  const problems: YamlParseProblem[] = doc.errors
    .slice(0, SYNTAX_PROBLEMS_SHOWN)
    .map((error) => ({ kind: 'syntax', message: error.message.split('\n')[0] ?? error.message, start: error.pos[0], end: error.pos[1] }));
  const unshown = doc.errors.length - problems.length;
  if (unshown > 0) {
    const last = doc.errors.at(-1)!;
    const message = `… and ${unshown.toLocaleString('en')} more YAML syntax problems in this block.`;
    problems.push({ kind: 'syntax', message, start: last.pos[0], end: last.pos[1] });
  }
  let value: unknown = null;
  if (problems.length === 0) {
    const plain = yamlToPlain(doc);
    for (const p of plain.problems) problems.push({ kind: p.kind, message: p.message, start: p.start, end: p.end });
    value = deepFreeze(plain.value);
  }
  return { text, doc, lineCounter, value, problems, pairsByKey: new Map() };
}

/** The parsed block at its place in the `.md` file: spans of the file, problems at them. */
export function placeYaml(parse: YamlParse, firstLine: number, column = 1): { block: YamlBlock; problems: readonly YamlProblem[] } {
  const { text, doc, lineCounter, pairsByKey } = parse;
  const toPos = (offset: number) => {
    const p = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    return { line: firstLine + p.line - 1, column: column + p.col - 1 };
  };
  const spanAt = (start: number, end: number): SourceSpan => ({ start: toPos(start), end: toPos(end) });
  const problems = parse.problems.map((p): YamlProblem => ({ kind: p.kind, message: p.message, span: spanAt(p.start, p.end) }));
  if (doc === null) return { block: emptyBlock(spanAt(0, 0)), problems };

  const whole = spanAt(0, text.length);
  const spanOfNode = (node: YamlNode | null | undefined): SourceSpan => (node?.range ? spanAt(node.range[0], node.range[1]) : whole);
  const pairOf = (map: { items: Pair[] }, key: string): Pair | undefined => {
    let index = pairsByKey.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items) {
        const k = pair.key;
        if (isScalar(k)) index.set(String((k as { source?: unknown }).source ?? k.value), pair);
      }
      pairsByKey.set(map, index);
    }
    return index.get(key);
  };
  /** The deepest node on `path` that exists (a missing key points at its parent), and the last pair found. */
  const walk = (path: readonly (string | number)[]): { node: YamlNode | null; pair: Pair | null; complete: boolean } => {
    let node = (doc.contents as YamlNode | null) ?? null;
    let pair: Pair | null = null;
    for (const segment of path) {
      if (isMap(node)) {
        const found = pairOf(node, String(segment));
        if (!found) return { node, pair, complete: false };
        pair = found;
        node = (found.value as YamlNode | null) ?? (found.key as YamlNode);
      } else if (node && 'items' in node && typeof segment === 'number') {
        const item = (node as { items: unknown[] }).items[segment];
        if (!item) return { node, pair, complete: false };
        node = item as YamlNode;
        pair = null;
      } else return { node, pair, complete: false };
    }
    return { node, pair, complete: true };
  };

  const block: YamlBlock = {
    value: parse.value,
    spanOf(path, options) {
      const found = walk(path);
      if (found.complete && options?.key && found.pair?.key) return spanOfNode(found.pair.key as YamlNode);
      return spanOfNode(found.node);
    },
    plainSourceOf(path) {
      const found = walk(path);
      const node = found.node;
      if (!found.complete || !isScalar(node) || node.type !== 'PLAIN') return undefined;
      const source = (node as { source?: unknown }).source;
      return typeof source === 'string' ? source : undefined;
    },
    spanWithin(path, start, end) {
      const found = walk(path);
      const node = found.node;
      if (!found.complete || !isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
      const quotes = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : node.type === 'PLAIN' ? 0 : -1;
      if (quotes < 0) return undefined;
      const from = node.range[0] + quotes;
      const written = text.slice(from, node.range[1] - quotes);
      if (written !== node.value || written.includes('\n')) return undefined;
      return spanAt(from + Math.max(0, Math.min(start, written.length)), from + Math.max(0, Math.min(end, written.length)));
    },
  };
  return { block, problems };
}

/** Composes the first document of the token stream; a second one is an error, as in `yaml`'s `parseDocument`. */
function firstDocument(tokens: readonly CST.Token[], length: number): Document.Parsed {
  let first: Document.Parsed | undefined;
  for (const doc of new Composer({ uniqueKeys: false }).compose(tokens, true, length)) {
    if (!first) first = doc;
    else {
      const [start = 0, end = start] = doc.range;
      first.errors.push(
        new YAMLParseError([start, end], 'MULTIPLE_DOCS', 'The block holds a second YAML document (a `---` line); it may hold one.'),
      );
      break;
    }
  }
  return first!;
}

/**
 * Runs `parse` with stack traces off. The `yaml` package reports each problem as an `Error`, and capturing its stack
 * (which nothing here reads) took 8 µs per problem: a 155 KB line of stray quotes, 100,000 problems, 0.8 s. The
 * previous limit is restored before returning; compiling is synchronous, so nothing else runs meanwhile.
 */
function withoutStackTraces<T>(parse: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parse();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Freezes plain data (maps, lists, scalars from `yamlToPlain`) all the way down. */
function deepFreeze(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

function emptyBlock(at: SourceSpan): YamlBlock {
  return { value: null, spanOf: () => at, plainSourceOf: () => undefined, spanWithin: () => undefined };
}
