/**
 * The Inductive Miner (IMf) on small logs whose tree is known: each operator found from its directly-follows graph,
 * infrequent behaviour filtered by the noise threshold, and the fall-throughs.
 */
import { describe, expect, it } from 'vitest';
import { eventLog } from '../../../analysis/discover/event-log.js';
import { mineTree } from '../../../analysis/discover/inductive-miner.js';
import { treeText } from '../../../analysis/discover/process-tree.js';
import { sequenceBounds } from '../../../analysis/discover/split-log.js';

const NAMES = 'abcdefghij';

/** 'abc*3' → the trace a b c, three times. */
function log(...variants: string[]) {
  return eventLog(
    variants.map((v) => {
      const [trace, count] = v.split('*');
      return { trace: [...trace!].map((c) => NAMES.indexOf(c)), count: Number(count ?? 1) };
    }),
  );
}

const text = (tree: ReturnType<typeof mineTree>) => treeText(tree, (a) => NAMES[a]!);

describe('mineTree', () => {
  it.each([
    ['a sequence', ['abc*5'], 0.2, '->(a, b, c)'],
    ['a choice', ['ab*3', 'ac*2'], 0.2, '->(a, X(b, c))'],
    ['an optional step', ['abc*3', 'ac*2'], 0.2, '->(a, X(b, tau), c)'],
    ['repeats collapse into one step', ['aabbbc*4'], 0.2, '->(a, b, c)'],
    ['a loop', ['abc*3', 'abcbc*2'], 0.2, '->(a, *(->(b, c), tau))'],
    ['a loop with a redo', ['abd*3', 'abcbd*2'], 0.2, '->(a, *(b, c), d)'],
    ['parallel steps', ['abcd*3', 'acbd*3'], 0.2, '->(a, +(b, c), d)'],
    ['two separate intents', ['ab*3', 'cd*3'], 0.2, 'X(->(a, b), ->(c, d))'],
  ])('finds %s', (_, variants, noise, want) => {
    expect(text(mineTree(log(...variants), noise))).toBe(want);
  });

  it('filters infrequent edges only when the whole graph has no cut (IMf)', () => {
    // A reversal seen once already makes b and c parallel in the unfiltered graph: IMf keeps that cut.
    expect(text(mineTree(log('abc*20', 'acb*1'), 0.2))).toBe('->(a, +(b, c))');
    // A rare way back leaves no cut; filtered (ending the trace counts as d's strongest edge), the graph is a sequence.
    expect(text(mineTree(log('abcd*20', 'dabc*1'), 0.2))).toBe('->(a, b, c, d)');
    expect(text(mineTree(log('abc*20', 'abcb*1'), 0.2))).toBe('->(a, b, c)');
    // At 0 nothing is filtered: every behaviour seen stays possible.
    expect(text(mineTree(log('abc*20', 'abcb*1'), 0))).toBe('->(a, *(->(b, X(c, tau)), tau))');
  });

  it('keeps a rare skip below the threshold out, and a frequent one in', () => {
    expect(text(mineTree(log('abc*20', 'ac*1'), 0.2))).toBe('->(a, b, c)');
    expect(text(mineTree(log('abc*10', 'ac*5'), 0.2))).toBe('->(a, X(b, tau), c)');
  });

  it('is deterministic: the order variants come in does not change the tree', () => {
    const a = mineTree(log('abd*3', 'acd*3', 'abcbd*1'), 0.1);
    const b = mineTree(log('abcbd*1', 'acd*3', 'abd*3'), 0.1);
    expect(text(a)).toBe(text(b));
  });

  it('ends in a flower when no cut explains the log', () => {
    expect(text(mineTree(log('abc*1', 'bca*1', 'cab*1', 'acb*1', 'bac*1', 'cba*1'), 0))).toMatch(/^\+\(|\*\(tau, X\(a, b, c\)\)/);
  });
});

describe('sequenceBounds', () => {
  it('cuts where the fewest events fall outside their part', () => {
    expect(sequenceBounds([0, 0, 1, 2, 2], 3)).toEqual([0, 2, 3, 5]);
    // Dropping one event either way: the earliest cut wins.
    expect(sequenceBounds([0, 2, 1, 2], 3)).toEqual([0, 1, 1, 4]);
    expect(sequenceBounds([], 2)).toEqual([0, 0, 0]);
  });
});
