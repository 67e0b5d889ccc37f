/**
 * Mutations of a SOP's text, from small edits an author makes by mistake (a truncated file, a deleted or
 * duplicated line, a stray bracket) to the amplifications that find cost problems: a line or a character repeated
 * thousands of times, an id a megabyte long, an id renamed to `constructor` or `__proto__`, YAML anchors fanned out
 * into a bomb, brackets and quotes nested deep.
 * Each mutation is a pure function of its input and the random source, and says what it did, so a finding can be
 * read and reproduced.
 */
import type { Random } from './random.js';

export interface Mutated {
  readonly text: string;
  readonly did: string;
}

type Mutation = (text: string, rng: Random, maxSize: number) => Mutated;

/** The names `Object.prototype` and `Function.prototype` carry, and `__proto__`: code that keys plain objects by names trips on them. */
const MEMBER_NAMES = [
  ...new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Function.prototype),
    '__proto__',
    'prototype',
  ]),
];

/** Fragments of every syntax a SOP holds: markdown, Mermaid, YAML, and characters that break naive scanners. */
const SNIPPETS = [
  '---',
  '...',
  '```',
  '```mermaid',
  '```yaml',
  '~~~',
  '## ',
  '### ',
  '#',
  '> ',
  '- ',
  '1. ',
  '    ',
  '\t',
  '<div>',
  '<!--',
  '-->',
  '-->',
  '-.->',
  '==>',
  '---',
  '|',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '"',
  "'",
  '`',
  '%%',
  '%%{',
  '}%%',
  ':',
  ';',
  '&',
  ':::',
  'subgraph',
  'end',
  'click',
  'style',
  'classDef',
  '@{',
  'e1@-->',
  '#quot;',
  '&amp;',
  'A@{ shape: diamond }',
  'node_prompts:',
  'tools:',
  'examples:',
  'prompt: |',
  '&a',
  '*a',
  '<<:',
  '? ',
  '!!binary',
  '!!set',
  '~',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\uFEFF',
  '\u0000',
  '\\',
  '\u00e9',
  '\ud83d\ude00',
  '\ud800',
];

const lines = (text: string) => text.split('\n');
const offset = (text: string, rng: Random) => rng.below(text.length + 1);
const insertAt = (text: string, at: number, piece: string) => text.slice(0, at) + piece + text.slice(at);
/** `piece` repeated so the whole input stays under `maxSize`. */
const repeated = (piece: string, count: number, room: number) =>
  piece.repeat(Math.max(1, Math.min(count, Math.floor(room / Math.max(1, piece.length)))));

const MUTATIONS: readonly Mutation[] = [
  (text, rng) => {
    const at = offset(text, rng);
    return { text: text.slice(0, at), did: `truncate at ${at}` };
  },
  (text, rng) => {
    const ls = lines(text);
    const at = rng.below(ls.length);
    const count = 1 + rng.below(5);
    ls.splice(at, count);
    return { text: ls.join('\n'), did: `delete lines ${at + 1}-${at + count}` };
  },
  (text, rng) => {
    const ls = lines(text);
    const [a, b] = [rng.below(ls.length), rng.below(ls.length)];
    [ls[a], ls[b]] = [ls[b]!, ls[a]!];
    return { text: ls.join('\n'), did: `swap lines ${a + 1} and ${b + 1}` };
  },
  (text, rng) => {
    const at = offset(text, rng);
    const piece = rng.next() < 0.8 ? rng.pick(SNIPPETS) : String.fromCharCode(rng.below(0x3000));
    return { text: insertAt(text, at, piece), did: `insert ${JSON.stringify(piece)} at ${at}` };
  },
  (text, rng, maxSize) => {
    const ls = lines(text);
    const at = rng.below(ls.length);
    const line = `${ls[at]}\n`;
    const copies = repeated(line, rng.magnitude(100_000), maxSize - text.length);
    ls.splice(at, 0, copies.slice(0, -1));
    return { text: ls.join('\n'), did: `repeat line ${at + 1} ${copies.length / line.length} times` };
  },
  (text, rng, maxSize) => {
    const piece = rng.pick([...SNIPPETS, '\n', ' ', 'A', '\n\n', '- ', '> ', '  ']);
    const at = offset(text, rng);
    const run = repeated(piece, rng.magnitude(1_000_000), maxSize - text.length);
    return { text: insertAt(text, at, run), did: `insert ${JSON.stringify(piece)} x${run.length / piece.length} at ${at}` };
  },
  (text, rng, maxSize) => {
    // A node, key or tool name grown long: every id of the file is an UPPER_CASE or snake_case word.
    const ids = [...new Set(text.match(/\b[A-Z][A-Z_]{2,}\b|\b[a-z]+_[a-z_]+\b/g) ?? [])];
    if (ids.length === 0) return { text, did: 'no id to grow' };
    const id = rng.pick(ids);
    const grown = id + repeated('X', rng.magnitude(1_000_000), maxSize - text.length);
    const at = text.indexOf(id);
    return { text: text.slice(0, at) + grown + text.slice(at + id.length), did: `grow the first ${id} by ${grown.length - id.length}` };
  },
  (text, rng) => {
    // An id renamed, everywhere, to a name every object or function carries (issue 21: names are data).
    const ids = [...new Set(text.match(/\b[A-Z][A-Z_]{2,}\b|\b[a-z]+_[a-z_]+\b/g) ?? [])];
    if (ids.length === 0) return { text, did: 'no id to rename' };
    const id = rng.pick(ids);
    const name = rng.pick(MEMBER_NAMES);
    return { text: replaceWord(text, id, name), did: `rename ${id.length > 80 ? `${id.slice(0, 80)}…` : id} to ${name}` };
  },
  (text, rng) => {
    // YAML anchors fanned out level by level (a "billion laughs"), in the frontmatter or a node's yaml block.
    const depth = 2 + rng.below(8);
    const width = 2 + rng.below(9);
    const levels = ['l0: &l0 [x, y]'];
    for (let i = 1; i < depth; i++)
      levels.push(
        `l${i}: &l${i} [${Array(width)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const target = rng.next() < 0.5 ? text.indexOf('\n---', 3) : text.indexOf('\n```', text.indexOf('```yaml'));
    const at = Math.max(target, 0);
    return { text: insertAt(text, at, `\n${levels.join('\n')}`), did: `alias fan-out ${width}^${depth} at ${at}` };
  },
  (text, rng, maxSize) => {
    const [open, close] = rng.pick([
      ['[', ']'],
      ['{', '}'],
      ['(', ')'],
      ['"', '"'],
      ['`', '`'],
      ['> ', ''],
      ['- ', ''],
      ['((', '))'],
      ['[[', ']]'],
    ]);
    const depth = Math.max(1, Math.min(rng.magnitude(200_000), Math.floor((maxSize - text.length) / 2)));
    const at = offset(text, rng);
    return { text: insertAt(text, at, open!.repeat(depth) + close!.repeat(depth)), did: `nest ${open}${close} ${depth} deep at ${at}` };
  },
  (text, rng) => {
    const eol = rng.pick(['\r\n', '\r']);
    return { text: text.replace(/\n/g, eol), did: `line endings ${JSON.stringify(eol)}` };
  },
];

/** One to four mutations of `text`, never growing it past `maxSize` characters (much). */
export function mutate(text: string, rng: Random, maxSize: number): Mutated {
  let out = text;
  const did: string[] = [];
  for (let n = 1 + rng.below(4); n > 0; n--) {
    const step = rng.pick(MUTATIONS)(out, rng, maxSize);
    out = step.text;
    did.push(step.did);
  }
  return { text: out, did: did.join('; ') };
}

/**
 * Every whole-word occurrence of `word` replaced by `name`, as `\bword\b` would, without a regular expression: an id
 * an earlier mutation grew to a megabyte is too large for one.
 */
function replaceWord(text: string, word: string, name: string): string {
  const isWordChar = (at: number) => at >= 0 && at < text.length && /\w/.test(text[at]!);
  let out = '';
  let from = 0;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
    if (isWordChar(at - 1) || isWordChar(at + word.length)) continue;
    out += text.slice(from, at) + name;
    from = at + word.length;
  }
  return out + text.slice(from);
}
