/**
 * The transition rule with visit limits (`contract/transitions.ts`): a node that has used up its visits is
 * refused with its escalation node named, that escalation node becomes legal exactly where the refused move would
 * have been legal (as a successor, a hub on the path or the entry node), a restart does not reset the counts, and
 * a table without limits behaves as before.
 */
import { describe, expect, it } from 'vitest';
import { decideMove, legalTargets, nextPath, type TransitionTable, type Visits } from '../../contract/transitions.js';

// VERIFY ⇄ CHECK loop (3 attempts, then LOCKED); ROUTE is a hub (2 visits, then HUMAN); TASK ends at DONE.
const TABLE: TransitionTable = {
  entry: 'START',
  hubs: ['ROUTE'],
  successors: {
    START: ['VERIFY'],
    VERIFY: ['CHECK'],
    CHECK: ['VERIFY', 'ROUTE', 'LOCKED'],
    ROUTE: ['TASK', 'HUMAN'],
    TASK: ['DONE'],
    DONE: [],
    LOCKED: [],
    HUMAN: [],
    AWAY: [],
  },
  limits: { VERIFY: { max: 3, escalation: 'LOCKED' }, ROUTE: { max: 2, escalation: 'HUMAN' } },
};

/** Plays moves that must all be legal; returns the path and visits after them. */
function play(targets: readonly string[]): { path: readonly string[]; visits: Visits } {
  let path: readonly string[] = [];
  let visits: Visits = {};
  for (const target of targets) {
    const verdict = decideMove(TABLE, path, target, visits);
    if (!verdict.ok) throw new Error(`${target} refused after ${path.join(' > ')}: ${verdict.reason}`);
    ({ path, visits } = verdict);
  }
  return { path, visits };
}

describe('visit limits', () => {
  it('counts moves into limited nodes only', () => {
    expect(play(['START', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK']).visits).toEqual({ VERIFY: 2 });
  });

  it('refuses the move that would exceed the limit, naming the escalation node', () => {
    const { path, visits } = play(['START', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK']);
    expect(visits).toEqual({ VERIFY: 3 });
    expect(decideMove(TABLE, path, 'VERIFY', visits)).toEqual({
      ok: false,
      reason: 'visit-limit',
      node: 'VERIFY',
      max: 3,
      escalation: 'LOCKED',
    });
    expect(legalTargets(TABLE, path, visits)).toEqual(['ROUTE', 'LOCKED', 'START']);
  });

  it('opens the escalation node only where the used-up node would have been legal', () => {
    const stuck = play(['START', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK']);
    // HUMAN is ROUTE's escalation: ROUTE still has visits, so HUMAN stays illegal from CHECK.
    expect(decideMove(TABLE, stuck.path, 'HUMAN', stuck.visits)).toEqual({ ok: false, reason: 'not-a-move' });
    // A restart keeps the counts: from START, VERIFY is a used-up successor, so LOCKED opens there too.
    const restarted = decideMove(TABLE, stuck.path, 'START', stuck.visits);
    expect(restarted.ok).toBe(true);
    if (!restarted.ok) return;
    expect(restarted.visits).toEqual({ VERIFY: 3 });
    expect(decideMove(TABLE, restarted.path, 'VERIFY', restarted.visits)).toMatchObject({ ok: false, reason: 'visit-limit' });
    expect(legalTargets(TABLE, restarted.path, restarted.visits)).toEqual(['START', 'LOCKED']);
    expect(nextPath(TABLE, restarted.path, 'LOCKED', restarted.visits)).toEqual(['START', 'LOCKED']);
  });

  it('limits a hub re-entered from anywhere on the path, and opens its escalation node there', () => {
    const { path, visits } = play(['START', 'VERIFY', 'CHECK', 'ROUTE', 'TASK', 'ROUTE', 'TASK', 'DONE']);
    expect(visits).toEqual({ VERIFY: 1, ROUTE: 2 });
    expect(decideMove(TABLE, path, 'ROUTE', visits)).toMatchObject({ ok: false, reason: 'visit-limit', escalation: 'HUMAN' });
    expect(legalTargets(TABLE, path, visits)).toEqual(['START', 'HUMAN']);
    expect(nextPath(TABLE, path, 'HUMAN', visits)).toEqual(['START', 'VERIFY', 'CHECK', 'ROUTE', 'TASK', 'DONE', 'HUMAN']);
  });

  it('reads only own counts: a node id such as constructor is never counted by accident', () => {
    const table: TransitionTable = {
      entry: 'constructor',
      hubs: [],
      successors: { constructor: ['toString'], toString: [] },
      limits: { toString: { max: 1, escalation: 'constructor' } },
    };
    const first = decideMove(table, [], 'constructor', {});
    expect(first).toEqual({ ok: true, path: ['constructor'], visits: {} });
    expect(decideMove(table, ['constructor'], 'toString', {})).toEqual({
      ok: true,
      path: ['constructor', 'toString'],
      visits: { toString: 1 },
    });
  });

  it('leaves a table without limits as it was: visits are never counted', () => {
    const plain: TransitionTable = { entry: TABLE.entry, hubs: TABLE.hubs, successors: TABLE.successors };
    let path: readonly string[] = [];
    for (const target of ['START', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK', 'VERIFY', 'CHECK', 'VERIFY']) {
      const verdict = decideMove(plain, path, target, {});
      expect(verdict).toMatchObject({ ok: true, visits: {} });
      if (verdict.ok) path = verdict.path;
    }
    expect(decideMove(plain, path, 'AWAY')).toEqual({ ok: false, reason: 'not-a-move' });
    expect(decideMove(plain, path, 'NOWHERE')).toEqual({ ok: false, reason: 'not-a-move' });
  });
});
