/**
 * The token counter's bounded runs (`inBoundedRuns`): prose is counted exactly as the encoder counts it, and no run
 * of spaces or non-spaces longer than the bound ever reaches the encoder, whose byte-pair merge is quadratic in a
 * run's length (the fuzzer's 40,000 nested parentheses took it 3.5 s). Not timed: the bound is what is checked.
 */
import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { inBoundedRuns } from '../../../generator/tokens/token-counter.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

/** The longest run of spaces or of non-spaces in a text. */
function longestRun(text: string): number {
  let longest = 0;
  let run = 0;
  let previous: boolean | null = null;
  for (const char of text) {
    const space = /\s/.test(char);
    run = space === previous ? run + 1 : 1;
    previous = space;
    longest = Math.max(longest, run);
  }
  return longest;
}

describe('inBoundedRuns', () => {
  it('counts prose exactly: the whole retail SOP, in one piece', () => {
    const text = readFileSync(`${PROJECT_ROOT}/sops/retail_customer_support.md`, 'utf8');
    const pieces: string[] = [];
    const count = inBoundedRuns((piece) => {
      pieces.push(piece);
      return countTokens(piece);
    });
    expect(count(text)).toBe(countTokens(text));
    expect(pieces).toEqual([text]);
  });

  it('hands the encoder no run longer than 256, and loses nothing of the text', () => {
    for (const text of ['('.repeat(6_000), ' '.repeat(3_000), `a${'x'.repeat(1_000)} ${'\n'.repeat(700)}b`]) {
      const pieces: string[] = [];
      const total = inBoundedRuns((piece) => {
        pieces.push(piece);
        return countTokens(piece);
      })(text);
      expect(pieces.join('')).toBe(text);
      expect(Math.max(...pieces.map(longestRun))).toBeLessThanOrEqual(256);
      // Slicing a pathological run changes its count by a token or so per slice, never more.
      expect(Math.abs(total - countTokens(text))).toBeLessThanOrEqual(pieces.length);
    }
  });
});
