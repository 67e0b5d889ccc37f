// Layout of literal initializers: one line when it fits in MAX_WIDTH (counting the column it starts at and what
// follows it), else one element or property per line; strings with line breaks as `+` chains.
import { describe, expect, it } from 'vitest';
import { block, code, literalText, MAX_WIDTH } from '../../../generator/emit/literal.js';
import type { LiteralValue } from '../../../generator/emit/literal.js';

const fits = 'x'.repeat(MAX_WIDTH - 10 - 1 - "['']".length); // at column 10 with a 1-wide tail: exactly MAX_WIDTH

const cases: [name: string, given: { value: LiteralValue; column?: number; tail?: number }, want: string][] = [
  ['a short list on one line', { value: ['a', 'b'] }, "['a', 'b']"],
  ['a list that exactly fits', { value: [fits], column: 10, tail: 1 }, `['${fits}']`],
  ['one character more wraps', { value: [`${fits}x`], column: 10, tail: 1 }, `[\n  '${fits}x',\n]`],
  [
    'nested values that fit stay on their line, a long string stays whole',
    { value: { a: { b: 1, c: [true, null] }, long: 'y'.repeat(200) } },
    `{\n  a: { b: 1, c: [true, null] },\n  long: '${'y'.repeat(200)}',\n}`,
  ],
  ['a string with line breaks is a chain', { value: { p: 'l1\nl2\n' } }, "{\n  p: 'l1\\n' +\n    'l2\\n',\n}"],
  ['a final line break alone keeps one line', { value: 'l1\n' }, "'l1\\n'"],
  ['a block always takes lines', { value: block({ a: 1, b: code('B') }) }, '{\n  a: 1,\n  b: B,\n}'],
  ['empty values', { value: [[], {}] }, '[[], {}]'],
  ['an empty block', { value: block([]) }, '[]'],
  ['a nested block breaks its parent', { value: { a: block([1]) } }, '{\n  a: [\n    1,\n  ],\n}'],
];

describe('literalText', () => {
  it.each(cases)('%s', (_name, { value, column = 0, tail = 0 }, want) => {
    expect(literalText(value, { column, tail })).toBe(want);
  });
});
