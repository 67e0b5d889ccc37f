/**
 * Fork/join in the transition rule (`contract/transitions.ts`): the branches of a fork are worked through in any
 * order, a finished branch is closed at its fork, the join is entered only when its strategy says the branches are
 * done (`all`, `any`), and the join's edges reserved for an outcome open by how it came out. A fork's record lives
 * while the fork is on the path, and entering the fork anew starts it afresh.
 */
import { describe, expect, it } from 'vitest';
import {
  decideMove,
  type ForkProgress,
  legalTargets,
  type MoveAccepted,
  type Outcome,
  type TransitionTable,
  type Visits,
} from '../../contract/transitions.js';

// START → TRIAGE → FORK ⇉ {REPRO → REPRO_CHECK, LOGS} → JOIN → passed: FIX → DONE | failed: HUMAN; TRIAGE is a hub.
function table(strategy: 'all' | 'any'): TransitionTable {
  return {
    entry: 'START',
    hubs: ['TRIAGE'],
    successors: {
      START: ['TRIAGE'],
      TRIAGE: ['FORK'],
      FORK: ['REPRO', 'LOGS'],
      REPRO: ['REPRO_CHECK'],
      REPRO_CHECK: ['JOIN', 'REPRO'],
      LOGS: ['JOIN'],
      JOIN: ['FIX', 'HUMAN'],
      FIX: ['DONE', 'TRIAGE'],
      DONE: [],
      HUMAN: [],
    },
    forks: { FORK: { branches: ['REPRO', 'LOGS'], join: 'JOIN', strategy, passed: ['FIX'], failed: ['HUMAN'] } },
  };
}

interface Run {
  path: readonly string[];
  visits: Visits;
  forks: readonly ForkProgress[];
  back?: string;
}

function play(t: TransitionTable, moves: readonly (string | readonly [string, Outcome])[]): Run {
  let run: Run = { path: [], visits: {}, forks: [] };
  for (const move of moves) {
    const [target, outcome] = typeof move === 'string' ? [move, 'passed' as const] : move;
    const verdict = decideMove(t, run.path, target, run.visits, run.forks, outcome);
    if (!verdict.ok) throw new Error(`${target} refused after ${run.path.join(' > ')}: ${JSON.stringify(verdict)}`);
    const accepted = verdict as MoveAccepted;
    run = { path: accepted.path, visits: accepted.visits, forks: accepted.forks ?? [], ...(accepted.back ? { back: accepted.back } : {}) };
  }
  return run;
}

describe('fork/join', () => {
  it('opens a record when the fork is entered, and offers every branch', () => {
    const run = play(table('all'), ['START', 'TRIAGE', 'FORK']);
    expect(run.forks).toEqual([{ fork: 'FORK', depth: 2, done: [] }]);
    expect(legalTargets(table('all'), run.path, run.visits, run.forks)).toEqual(['REPRO', 'LOGS', 'START', 'TRIAGE']);
  });

  it('all: finishing a branch goes back to the fork, which no longer offers it; the last one enters the join', () => {
    const t = table('all');
    const first = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', 'JOIN']);
    expect(first.path).toEqual(['START', 'TRIAGE', 'FORK']);
    expect(first.back).toBe('FORK');
    expect(first.forks).toEqual([{ fork: 'FORK', depth: 2, done: [{ branch: 'LOGS', outcome: 'passed' }] }]);
    expect(legalTargets(t, first.path, first.visits, first.forks)).toEqual(['REPRO', 'START', 'TRIAGE']);
    expect(decideMove(t, first.path, 'LOGS', first.visits, first.forks)).toEqual({
      ok: false,
      reason: 'branch-done',
      node: 'LOGS',
      fork: 'FORK',
    });
    const joined = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', 'JOIN', 'REPRO', 'REPRO_CHECK', 'REPRO', 'REPRO_CHECK', 'JOIN']);
    expect(joined.path).toEqual(['START', 'TRIAGE', 'FORK', 'REPRO', 'REPRO_CHECK', 'JOIN']);
    expect(joined.back).toBeUndefined();
    expect(joined.forks[0]?.outcome).toBe('passed');
    expect(legalTargets(t, joined.path, joined.visits, joined.forks)).toEqual(['FIX', 'START', 'TRIAGE']);
  });

  it('all: one failed branch fails the join; only the failed edge opens', () => {
    const t = table('all');
    const run = play(t, ['START', 'TRIAGE', 'FORK', 'REPRO', 'REPRO_CHECK', ['JOIN', 'failed'], 'LOGS', 'JOIN']);
    expect(run.path.at(-1)).toBe('JOIN');
    expect(run.forks[0]?.outcome).toBe('failed');
    expect(decideMove(t, run.path, 'FIX', run.visits, run.forks)).toEqual({
      ok: false,
      reason: 'join-outcome',
      node: 'FIX',
      join: 'JOIN',
      outcome: 'failed',
    });
    expect(legalTargets(t, run.path, run.visits, run.forks)).toEqual(['HUMAN', 'START', 'TRIAGE']);
  });

  it('any: the first branch that passes completes the join; failures go back until every branch is done', () => {
    const t = table('any');
    expect(play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', 'JOIN']).path.at(-1)).toBe('JOIN');
    const failedOnce = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', ['JOIN', 'failed']]);
    expect(failedOnce.path.at(-1)).toBe('FORK');
    const allFailed = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', ['JOIN', 'failed'], 'REPRO', 'REPRO_CHECK', ['JOIN', 'failed']]);
    expect(allFailed.path.at(-1)).toBe('JOIN');
    expect(allFailed.forks[0]?.outcome).toBe('failed');
    const secondPassed = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', ['JOIN', 'failed'], 'REPRO', 'REPRO_CHECK', 'JOIN']);
    expect(secondPassed.forks[0]?.outcome).toBe('passed');
  });

  it('drops the record when the path leaves the fork, and starts afresh when the fork is entered again', () => {
    const t = table('all');
    const restarted = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', 'JOIN', 'START']);
    expect(restarted.forks).toEqual([]);
    const backToHub = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', 'JOIN', 'TRIAGE', 'FORK']);
    expect(backToHub.forks).toEqual([{ fork: 'FORK', depth: 2, done: [] }]);
    const loop = play(t, ['START', 'TRIAGE', 'FORK', 'LOGS', 'JOIN', 'REPRO', 'REPRO_CHECK', 'JOIN', 'FIX', 'TRIAGE', 'FORK']);
    expect(loop.forks).toEqual([{ fork: 'FORK', depth: 2, done: [] }]);
  });

  it('the join is entered only from a branch: a move that is no edge is refused as before', () => {
    const t = table('all');
    const atFork = play(t, ['START', 'TRIAGE', 'FORK']);
    expect(decideMove(t, atFork.path, 'JOIN', atFork.visits, atFork.forks)).toEqual({ ok: false, reason: 'not-a-move' });
  });

  it('a table without forks answers as before (no forks field)', () => {
    const plain: TransitionTable = { entry: 'A', hubs: [], successors: { A: ['B'], B: [] } };
    expect(decideMove(plain, ['A'], 'B')).toEqual({ ok: true, path: ['A', 'B'], visits: {} });
  });
});
