/**
 * The batch summary (`batch-summary.ts`, `batch-render.ts`, `batch-outcomes.ts`): the AUC is the probability that a
 * random success scores above a random failure, ties counted half (checked pair by pair against the rank formula);
 * totals per kind and per node, most first; outcomes read from a file or a reward, the file's most specific key
 * first; CSV by RFC 4180.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEVIATION_KINDS, type DeviationKind } from '../../../analysis/conformance/cost-model.js';
import { isSuccess, outcomeKeys, outcomeOf, parseOutcomes } from '../../../analysis/replay/batch-outcomes.js';
import { renderBatchCsv, renderBatchText } from '../../../analysis/replay/batch-render.js';
import { aucOf, type BatchRow, errorRow, type ScoredRow, summarize } from '../../../analysis/replay/batch-summary.js';

/** The definition, pair by pair. */
function pairwiseAuc(positives: readonly number[], negatives: readonly number[]): number {
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

function row(
  transcript: string,
  fitness: number,
  outcome: boolean | null,
  kinds: Partial<Record<DeviationKind, number>> = {},
  byNode: [string | null, DeviationKind, number][] = [],
): ScoredRow {
  const deviations = Object.fromEntries(DEVIATION_KINDS.map((kind) => [kind, kinds[kind] ?? 0])) as Record<DeviationKind, number>;
  const nodes = new Map<string | null, Map<DeviationKind, number>>();
  for (const [node, kind, n] of byNode) nodes.set(node, new Map([...(nodes.get(node) ?? new Map()), [kind, n]]));
  const r: BatchRow = {
    transcript,
    file: transcript,
    agent: 'retail_customer_support',
    reader: 'chat',
    mode: 'inferred',
    verdict: fitness === 1 ? 'pass' : 'fail',
    fitness,
    cost: 0,
    worst_cost: 0,
    deviations,
    terminal: fitness === 1 ? 'END_INFO' : null,
    steps: 3,
    undetermined_steps: 0,
    exact: true,
    outcome,
  };
  return { row: r, byNode: nodes };
}

describe('aucOf', () => {
  it('is the Mann–Whitney statistic: a random success above a random failure, ties counted half', () => {
    const score = fc.integer({ min: 0, max: 8 }).map((n) => n / 8);
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 12 }), fc.array(score, { minLength: 1, maxLength: 12 }), (pos, neg) => {
        expect(aucOf(pos, neg)).toBeCloseTo(pairwiseAuc(pos, neg), 4);
      }),
      { numRuns: 300, seed: 3 },
    );
    expect([aucOf([1, 1], [0.5]), aucOf([0.5], [1, 1]), aucOf([1], [1]), aucOf([], [1]), aucOf([1], [])]).toEqual([1, 0, 0.5, null, null]);
  });
});

describe('summarize', () => {
  it('totals per kind and per node (most first, then in flowchart order), outcomes with means and AUC', () => {
    const summary = summarize({
      rows: [
        row('a.json', 1, true),
        row('b.json', 0.75, false, { skipped_required: 1 }, [['AUTH', 'skipped_required', 1]]),
        row('c.json', 0.5, false, { skipped_required: 1, unconfirmed_call: 1 }, [
          ['AUTH', 'skipped_required', 1],
          ['DO_CANCEL', 'unconfirmed_call', 1],
        ]),
        row('d.json', 0.75, true, { unexpected_call: 2 }, [['DO_CANCEL', 'unexpected_call', 2]]),
        row('e.json', 1, null),
        errorRow('f.json', 'f.json', 'f.json: the file holds no conversation'),
      ],
      superseded: [],
      skipped: [],
      outcomeSource: '--outcomes outcomes.json',
      unmatchedKeys: ['zzz.json'],
      nodeOrder: ['START', 'AUTH', 'DO_CANCEL'],
    });
    expect(summary.totals).toMatchObject({ transcripts: 6, passed: 2, failed: 3, errors: 1, mean_fitness: 0.8, terminal_reached: 2 });
    expect(summary.totals.by_kind.skipped_required).toEqual({ deviations: 2, transcripts: 2 });
    expect(summary.totals.by_kind.unexpected_call).toEqual({ deviations: 2, transcripts: 1 });
    expect(summary.totals.by_node).toEqual([
      { node: 'DO_CANCEL', deviations: 3, transcripts: 2, by_kind: { unexpected_call: 2, unconfirmed_call: 1 } },
      { node: 'AUTH', deviations: 2, transcripts: 2, by_kind: { skipped_required: 2 } },
    ]);
    expect(summary.outcomes).toEqual({
      source: '--outcomes outcomes.json',
      successes: 2,
      failures: 2,
      unknown: 1,
      mean_fitness_success: 0.875,
      mean_fitness_failure: 0.625,
      auc: pairwiseAuc([1, 0.75], [0.75, 0.5]),
      unmatched_keys: ['zzz.json'],
    });
    const text = renderBatchText(summary);
    expect(text).toContain(
      '6 transcripts: 2 passed, 3 failed, 1 could not be replayed; mean fitness 0.8000; ended on a terminal node: 2\n',
    );
    expect(text).toContain('  DO_CANCEL  3 in 2 transcripts: unexpected_call 2, unconfirmed_call 1\n');
    expect(text).toContain(
      'outcomes (--outcomes outcomes.json): 2 successes, mean fitness 0.8750; 2 failures, mean fitness 0.6250; 1 without an outcome; AUC of fitness for success 0.8750\n',
    );
    expect(text).toContain('  1 key named no transcript: zzz.json\n');
  });

  it('writes CSV by RFC 4180: a header, a row per transcript, quoted cells where a comma, quote or line break needs it', () => {
    const summary = summarize({
      rows: [row('runs/a, "first".json', 1, true), errorRow('b.json', 'b.json', 'b.json: line 2: not an object')],
      superseded: [],
      skipped: [],
      outcomeSource: null,
      unmatchedKeys: [],
      nodeOrder: [],
    });
    const lines = renderBatchCsv(summary).split('\r\n');
    expect(lines[0]).toBe(
      `transcript,file,agent,reader,mode,verdict,fitness,cost,worst_cost,steps,terminal,undetermined_steps,exact,outcome,${DEVIATION_KINDS.join(',')},error`,
    );
    expect(lines[1]).toBe(
      `"runs/a, ""first"".json","runs/a, ""first"".json",retail_customer_support,chat,inferred,pass,1,0,0,3,END_INFO,0,true,true,${DEVIATION_KINDS.map(() => 0).join(',')},`,
    );
    expect(lines[2]).toBe(`b.json,b.json,,,,error,,,,,,,,,${DEVIATION_KINDS.map(() => '').join(',')},b.json: line 2: not an object`);
    expect(lines).toHaveLength(4);
    expect(summary.outcomes).toBeNull();
  });
});

describe('outcomes', () => {
  it('reads true, false or a reward (success when it is 1), and says what else it got', () => {
    expect(parseOutcomes('{"a.json": true, "b": false, "c": 1, "d": 0.5, "e": 0.9999999}')).toEqual({
      ok: true,
      table: new Map([
        ['a.json', true],
        ['b', false],
        ['c', true],
        ['d', false],
        ['e', true],
      ]),
    });
    expect(parseOutcomes('{"a": "yes"}')).toEqual({
      ok: false,
      error: 'the outcome of "a" is "yes"; expected true, false or a reward (a number)',
    });
    expect(parseOutcomes('[true]').ok).toBe(false);
    expect(parseOutcomes('{').ok).toBe(false);
    expect([isSuccess(1), isSuccess(0.99), isSuccess(1.0000001)]).toEqual([true, false, true]);
  });

  it('names a transcript by its shown name, file name, stem and own id; the most specific key wins, and beats a reward', () => {
    expect(outcomeKeys('runs/week-48/a.json', undefined, undefined)).toEqual(['runs/week-48/a.json', 'a.json', 'a']);
    expect(outcomeKeys('runs/results.json', 'sim-7', 'sim-7')).toEqual([
      'runs/results.json#sim-7',
      'results.json#sim-7',
      'results#sim-7',
      'sim-7',
    ]);
    const table = new Map([
      ['a', false],
      ['runs/week-48/a.json', true],
    ]);
    expect(outcomeOf(table, outcomeKeys('runs/week-48/a.json', undefined, undefined), 0)).toEqual({
      outcome: true,
      key: 'runs/week-48/a.json',
    });
    expect(outcomeOf(table, outcomeKeys('runs/b.json', undefined, undefined), 1)).toEqual({ outcome: true, key: null });
    expect(outcomeOf(undefined, ['x'], undefined)).toEqual({ outcome: null, key: null });
  });
});
