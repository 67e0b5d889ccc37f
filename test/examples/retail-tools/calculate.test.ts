/**
 * The `calculate` tool's arithmetic, in process: precedence and associativity, signs and parentheses, decimals,
 * Python's `round(x, 2)` (ties to even on the double's exact value), and refusals for everything else, with no
 * way to make it run code. The same tool over a real server is in tools.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { calculate, roundLikePython } from '../../../examples/retail-tools/calculate.js';

const value = (expression: string) => {
  const outcome = calculate(expression);
  if (!outcome.ok) throw new Error(`refused ${expression}: ${outcome.error}`);
  return outcome.value;
};
const refusal = (expression: string) => {
  const outcome = calculate(expression);
  if (outcome.ok) throw new Error(`${expression} gave ${outcome.value}`);
  return outcome.error;
};

describe('calculate', () => {
  it.each([
    ['2 + 3 * 4', 14],
    ['(2 + 3) * 4', 20],
    ['10 - 4 - 3', 3],
    ['100 / 10 / 5', 2],
    ['2 * 3 / 4', 1.5],
    ['-3 + 5', 2],
    ['-(2 + 3) * 2', -10],
    ['--3', 3],
    ['+4 - -4', 8],
    ['2 * -3', -6],
    ['((((1))))', 1],
    ['.5 + 1.', 1.5],
    ['449.99 - 849.99', -400],
    ['129.99 + 34.99', 164.98],
    ['0.1 + 0.2', 0.3],
    ['1 / 3', 0.33],
    ['2 / 3', 0.67],
    ['  7\t', 7],
    ['10000000 * 10000000', 100000000000000],
  ])('%s = %s', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });

  it('rounds like Python: ties to even on the exact value, never on a decimal reading of it', () => {
    // Exact binary ties: 0.125 and 0.375 are exact doubles, halfway between cents.
    expect(roundLikePython(0.125)).toBe(0.12);
    expect(roundLikePython(0.375)).toBe(0.38);
    expect(roundLikePython(-0.125)).toBe(-0.12);
    expect(roundLikePython(2.5)).toBe(2.5);
    // 2.675 is stored as 2.67499999…, and 1.005 as 1.00499999…: both round down in Python.
    expect(roundLikePython(2.675)).toBe(2.67);
    expect(roundLikePython(1.005)).toBe(1);
    expect(roundLikePython(1.015)).toBe(1.01);
    expect(roundLikePython(0.285)).toBe(0.28);
    expect(value('1 / 8')).toBe(0.12);
    expect(value('5 / 8')).toBe(0.62);
  });

  it.each([
    ['1 / 0', /^Division by zero at position 3/],
    ['5 / (2 - 2)', /^Division by zero/],
    ['0 / 0', /^Division by zero/],
    ['', /empty/],
    ['   ', /empty/],
    ['2 +', /ends where a number/],
    ['(1 + 2', /never closed/],
    ['1 + 2)', /Unexpected "\)" at position 6/],
    ['2 3', /Unexpected number 3 at position 3/],
    ['2 ** 3', /"\*\*" at position 3 is not supported/],
    ['7 // 2', /"\/\/" at position 3 is not supported/],
    ['1.2.3', /second decimal point/],
    ['.', /lone "\."/],
    ['2(3)', /Unexpected "\("/],
    ['5 % 2', /Invalid character "%" at position 3/],
    ['1e3', /Invalid character "e"/],
    ['0x10', /Invalid character "x"/],
    ['9'.repeat(400), /too large/],
  ])('refuses %j', (expression, message) => {
    expect(refusal(expression)).toMatch(message);
  });

  it('never runs code: identifiers, calls and JavaScript are refused at their first character', () => {
    for (const attempt of [
      'process.exit(1)',
      "require('fs')",
      'constructor.constructor("return process")()',
      '__import__("os").system("true")',
      '[].length',
      '1; 2',
      'Infinity',
      'NaN',
    ]) {
      expect(refusal(attempt)).toMatch(/^(Invalid character|A lone|Unexpected)/);
    }
  });

  it('bounds the work: long input and deep nesting are refused, not a stack overflow', () => {
    expect(refusal('1+'.repeat(600))).toMatch(/longer than 1000 characters/);
    expect(refusal(`${'('.repeat(300)}1${')'.repeat(300)}`)).toMatch(/nests deeper than 200 levels/);
    expect(refusal(`${'-'.repeat(300)}1`)).toMatch(/nests deeper than 200 levels/);
    expect(value(`${'('.repeat(150)}1${')'.repeat(150)}`)).toBe(1);
  });
});
