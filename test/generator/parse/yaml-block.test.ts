/**
 * YAML blocks: plain data as the author wrote it (keys and the version as text), aliases that work, and every
 * input that used to crash or hang the build (alias bombs, unresolved or recursive aliases, deep nesting,
 * duplicate keys by the thousand) coming back as a positioned problem instead.
 */
import { describe, expect, it } from 'vitest';
import { entryOf } from '../../../contract/name-table.js';
import { parseYamlBlock } from '../../../generator/parse/yaml-block.js';

const parse = (text: string) => parseYamlBlock(text, 10, 3);

describe('parseYamlBlock', () => {
  it('gives plain data, with aliases expanded and positions in the .md file', () => {
    const { block, problems } = parse('common: &tools [a, b]\nnode:\n  tools: *tools\n  n: 2');
    expect(problems).toEqual([]);
    expect(block.value).toEqual({ common: ['a', 'b'], node: { tools: ['a', 'b'], n: 2 } });
    // Line 1 of the block is .md line 10, its column 1 is .md column 3.
    expect(block.spanOf(['node', 'tools']).start).toEqual({ line: 12, column: 12 });
    expect(block.spanOf(['node', 'n'], { key: true }).start).toEqual({ line: 13, column: 5 });
    expect(block.spanOf(['node', 'missing']).start).toEqual({ line: 12, column: 5 });
  });

  it('keeps keys and plain scalars as written where the text matters', () => {
    const { block } = parse('01: a\n1.10: b\nnull: c\nversion: 1.10\nother: 1.0');
    expect(Object.keys(block.value as object)).toEqual(['01', '1.10', 'null', 'version', 'other']);
    expect(block.plainSourceOf(['version'])).toBe('1.10');
    expect(block.plainSourceOf(['other'])).toBe('1.0');
    expect(block.plainSourceOf(['01'])).toBe('a');
    expect(parse('v: "1.10"').block.plainSourceOf(['v'])).toBeUndefined(); // quoted: the value is already text
  });

  it('keeps __proto__ as data', () => {
    const value = parse('__proto__: {polluted: true}').block.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.keys(entryOf(value, '__proto__') as object)).toEqual(['polluted']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('makes every map a record without a prototype: a key the author did not write is missing, whatever its name', () => {
    const value = parse('a: {constructor: 1}\nlist: [{toString: 2}]').block.value as Record<string, Record<string, unknown>>;
    const nested = value['a']!;
    const inList = (value['list'] as unknown as Record<string, unknown>[])[0]!;
    for (const map of [value, nested, inList]) expect(Object.getPrototypeOf(map)).toBeNull();
    expect(nested['constructor']).toBe(1);
    expect(inList['toString']).toBe(2);
    expect(value['constructor']).toBeUndefined();
    expect(value['hasOwnProperty']).toBeUndefined();
  });

  const problemOf = (text: string) => {
    const { problems } = parse(text);
    expect(problems).toHaveLength(1);
    return problems[0]!;
  };

  it('stops an alias bomb at the alias that crosses the limit', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [k, prev] of [...'bcdefgh'].map((k, i) => [k, 'abcdefg'[i]]))
      levels.push(`${k}: &${k} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    const problem = problemOf(levels.join('\n'));
    expect(problem).toMatchObject({ kind: 'limit', message: expect.stringMatching(/more than 100,000 values/) });
    expect(problem.span.start).toEqual({ line: 14, column: 38 }); // line 5 of the block, the 8th `*d`
  });

  it('reports an unresolved or a recursive alias at the alias', () => {
    expect(problemOf('a: *nowhere')).toMatchObject({
      kind: 'syntax',
      message: 'Unresolved alias `*nowhere`: no anchor `&nowhere` before it.',
      span: { start: { line: 10, column: 6 } },
    });
    expect(problemOf('later: *x\nx: &x 1').message).toMatch(/Unresolved alias `\*x`/);
    expect(problemOf('a: &a [1, *a]')).toMatchObject({ kind: 'syntax', message: 'Alias `*a` refers to a value that contains it.' });
    expect(problemOf('a: &a {b: {c: *a}}').message).toMatch(/contains it/);
  });

  it('refuses a block nested too deep before composing it (the composer recurses)', () => {
    for (const text of [
      `x: ${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      Array.from({ length: 80 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
    ]) {
      expect(problemOf(text)).toMatchObject({ kind: 'limit', message: 'This YAML nests more than 64 levels deep.' });
    }
    expect(problemOf(`tools: ${'? '.repeat(10_000)}x`)).toMatchObject({
      kind: 'limit',
      span: { start: { line: 10, column: 3 + 7 + 126 } },
    });
    const deepAlias = `a: &a ${'['.repeat(40)}${']'.repeat(40)}\nb: ${'['.repeat(40)}*a${']'.repeat(40)}`;
    expect(problemOf(deepAlias).message).toMatch(/Expanding alias `\*a` nests this YAML more than 64 levels/);
  });

  it('refuses a block over the size limit without parsing it', () => {
    expect(problemOf(`a: "${'x'.repeat(1024 * 1024)}"`)).toMatchObject({
      kind: 'limit',
      message: expect.stringMatching(/at most 262,144/),
    });
  });

  it('finds duplicate keys in one pass, among thousands', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`);
    keys.push('k17: again');
    expect(problemOf(keys.join('\n'))).toMatchObject({
      kind: 'syntax',
      message: 'Map keys must be unique: `k17` appears twice.',
      span: { start: { line: 10 + 20_000, column: 3 } },
    });
  });

  it('rejects a list or a map as a key, and a second document', () => {
    expect(problemOf('[a, b]: 1').message).toBe('A map key must be a plain value, not a list or a map.');
    expect(problemOf('? {a: 1}\n: 2').message).toBe('A map key must be a plain value, not a list or a map.');
    expect(problemOf('a: 1\n---\nb: 2').message).toMatch(/second YAML document/);
  });

  it('reports the first 20 syntax problems of a block, and counts the rest in one more', () => {
    const { problems } = parse(`a: [x] ${'"q" '.repeat(50_000)}`);
    expect(problems).toHaveLength(21);
    expect(problems[20]!.message).toMatch(/^… and [\d,]+ more YAML syntax problems in this block\.$/);
  });

  it('reports syntax errors of the yaml package at their position', () => {
    expect(problemOf('a: [1')).toMatchObject({ kind: 'syntax', span: { start: { line: 10 } } });
  });
});
