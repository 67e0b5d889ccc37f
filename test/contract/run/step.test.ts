/**
 * The step function (`contract/run/step.ts`) on a small shop SOP, event by event, as the gateway and `sop replay`
 * both use it: evidence lasts the run and is what the call returned; branches decided by data; changes bound to the
 * entities the way decided for; a change of unknown outcome reconciled by a read, never repeated blindly.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedResult } from '../../../contract/run/call-results.js';
import type { ConfirmationInput } from '../../../contract/run/call.js';
import { type RunRules, runRules } from '../../../contract/run/rules.js';
import { EMPTY_RUN_STATE, type RunState } from '../../../contract/run/state.js';
import { type RunEvent, type Step, step } from '../../../contract/run/step.js';
import { shopSop } from './shop-sop.js';

const GATEWAY = { domainCalls: true } as const;
const UNSEEN: ConfirmationInput = { kind: 'unseen' };

/** A run driven event by event; each call goes through its decision and, when forwarded, its answer. */
class Run {
  state: RunState = EMPTY_RUN_STATE;
  constructor(readonly rules: RunRules) {}

  step<E extends RunEvent>(event: E): Step<E['kind']> {
    const next = step(this.rules, this.state, event, GATEWAY);
    this.state = next.state;
    return next;
  }

  moves(...targets: string[]): void {
    for (const target of targets) {
      const { decision } = this.step({ kind: 'move', target });
      if (decision.kind !== 'moved') throw new Error(`${target}: ${JSON.stringify(decision)}`);
    }
  }

  move(target: string) {
    return this.step({ kind: 'move', target }).decision;
  }

  /** A domain call the gateway forwards, answered with `result` (or of unknown outcome). */
  call(tool: string, args: Record<string, unknown>, result: RecordedResult | 'unknown') {
    const decided = this.step({ kind: 'call', tool, args, confirmation: UNSEEN }).decision;
    if (decided.kind !== 'forward') return decided;
    const at = this.state.path;
    this.step({ kind: 'answer', tool, args, at, outcome: result === 'unknown' ? { kind: 'unknown' } : { kind: 'answered', result } });
    return decided;
  }
}

const order = (id: string, status: string): RecordedResult => ({ structured: { order_id: id, user_id: 'u1', status } });
const found: RecordedResult = { structured: { result: 'u1' } };

function authenticated(rules = runRules(shopSop())): Run {
  const run = new Run(rules);
  run.moves('START', 'AUTH');
  run.call('find_user_id_by_email', { email: 'a@b.c' }, found);
  run.moves('ROUTE');
  return run;
}

describe('evidence', () => {
  it('is what the call returned: an error or an empty answer proves nothing, an answer that names someone does', () => {
    for (const empty of [{ text: '' }, { text: '[]' }, { text: '{}' }, { text: 'null' }, { structured: { result: '' } }]) {
      const run = new Run(runRules(shopSop()));
      run.moves('START', 'AUTH');
      run.call('find_user_id_by_email', { email: 'a@b.c' }, empty);
      expect(run.move('ROUTE')).toMatchObject({ kind: 'refused', rule: 'evidence', validNext: ['START'] });
    }
    const run = new Run(runRules(shopSop()));
    run.moves('START', 'AUTH');
    run.call('find_user_id_by_email', { email: 'a@b.c' }, { text: 'User not found', isError: true });
    expect(run.move('ROUTE')).toMatchObject({ kind: 'refused', rule: 'evidence' });
    run.call('find_user_id_by_email', { email: 'a@b.c' }, found);
    expect(run.move('ROUTE')).toMatchObject({ kind: 'moved', node: 'ROUTE' });
    expect(run.state.evidence).toEqual([
      { node: 'AUTH', depth: 1, tool: 'find_user_id_by_email', about: { name: 'user_id', value: 'u1' } },
    ]);
  });

  it('lasts the run: the order read at INFO is checked at CHK and cancelled without a second read', () => {
    const run = authenticated();
    run.moves('INFO');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending'));
    run.moves('ROUTE', 'CHK', 'IS_PENDING', 'DO_CANCEL');
    expect(run.call('cancel_pending_order', { order_id: '#W1', reason: 'no longer needed' }, order('#W1', 'cancelled'))).toMatchObject({
      kind: 'forward',
    });
    // The user found at AUTH stays found after a restart.
    run.moves('START', 'AUTH', 'ROUTE');
  });

  it('asks for a read during the visit where the SOP says `fresh`', () => {
    const run = authenticated(runRules(shopSop({ freshCheck: true })));
    run.moves('INFO');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending'));
    run.moves('ROUTE', 'CHK');
    const held = run.move('IS_PENDING');
    expect(held).toMatchObject({ kind: 'refused', rule: 'evidence' });
    expect(held.kind === 'refused' && held.error).toContain('that found it during this visit');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending'));
    expect(run.move('IS_PENDING')).toMatchObject({ kind: 'moved' });
  });

  it('binds a change to the entities read: reading order A never allows changing order B', () => {
    const run = authenticated();
    run.moves('CHK');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending'));
    run.moves('IS_PENDING', 'DO_CANCEL');
    const other = run.call('cancel_pending_order', { order_id: '#W2', reason: 'no longer needed' }, order('#W2', 'cancelled'));
    expect(other).toMatchObject({ kind: 'refuse', rule: 'evidence' });
  });
});

describe('branches decided by data', () => {
  it('says what to read when nothing was read, and which branch the data allows when it says otherwise', () => {
    const rules = runRules(shopSop());
    const state: RunState = { ...EMPTY_RUN_STATE, path: ['START', 'AUTH', 'ROUTE', 'CHK', 'IS_PENDING'] };
    const unread = step(rules, state, { kind: 'move', target: 'DO_CANCEL' }, GATEWAY).decision;
    expect(unread).toMatchObject({ kind: 'refused', rule: 'data' });
    expect(unread.kind === 'refused' && unread.error).toBe(
      'Cannot go to DO_CANCEL from IS_PENDING: that branch needs get_order_details.status == pending, and no answer of get_order_details ' +
        'was read in this run. Read it first: call get_order_details (offered at INFO, CHK), then decide here.',
    );

    const run = authenticated();
    run.moves('CHK');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'delivered'));
    run.moves('IS_PENDING');
    const against = run.move('DO_CANCEL');
    expect(against).toMatchObject({ kind: 'refused', rule: 'data', validNext: ['DENY', 'START', 'ROUTE'] });
    expect(against.kind === 'refused' && against.error).toBe(
      'Cannot go to DO_CANCEL from IS_PENDING: that branch needs get_order_details.status == pending, and get_order_details answered ' +
        'order_id "#W1": status = "delivered". The data allows DENY (get_order_details.status != pending).',
    );
    expect(run.move('DENY')).toMatchObject({ kind: 'moved' });
  });

  it('compares exactly: `pending (item modified)` is not `pending`', () => {
    const run = authenticated();
    run.moves('CHK');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending (item modified)'));
    run.moves('IS_PENDING');
    expect(run.move('DO_CANCEL')).toMatchObject({ kind: 'refused', rule: 'data' });
  });

  it('holds for the entities whose data satisfies it, and the changes after it must name one of them', () => {
    const run = authenticated();
    run.moves('INFO');
    run.call('get_order_details', { order_id: '#A' }, order('#A', 'pending'));
    run.call('get_order_details', { order_id: '#B' }, order('#B', 'delivered'));
    run.moves('ROUTE', 'CHK', 'IS_PENDING', 'DO_CANCEL');
    // Leaving AUTH decided for the user found there; leaving CHK for the orders read; the branch for the pending one.
    expect(run.state.narrowed?.map((n) => [n.node, n.values])).toEqual([
      ['AUTH', ['u1']],
      ['CHK', ['#A', '#B']],
      ['IS_PENDING', ['#A']],
    ]);
    const wrong = run.call('cancel_pending_order', { order_id: '#B', reason: 'no longer needed' }, order('#B', 'cancelled'));
    expect(wrong).toMatchObject({ kind: 'refuse', rule: 'data' });
    expect(wrong.kind === 'refuse' && wrong.refusal.error).toContain(
      'names order_id "#B", but the way here decided for "#A" only (at IS_PENDING: get_order_details.status == pending)',
    );
    expect(run.call('cancel_pending_order', { order_id: '#A', reason: 'no longer needed' }, order('#A', 'cancelled'))).toMatchObject({
      kind: 'forward',
    });
    // Back at ROUTE the order's decisions are off the path: the next task decides anew (the user stays decided).
    run.moves('ROUTE');
    expect(run.state.narrowed?.map((n) => n.node)).toEqual(['AUTH']);
  });

  it('decides nothing without the gateway: a server that sees no domain call leaves the branch to the agent', () => {
    const rules = runRules(shopSop());
    const state: RunState = { ...EMPTY_RUN_STATE, path: ['START', 'AUTH', 'ROUTE', 'CHK', 'IS_PENDING'] };
    expect(step(rules, state, { kind: 'move', target: 'DO_CANCEL' }, { domainCalls: false }).decision).toMatchObject({ kind: 'moved' });
  });
});

describe('a change of unknown outcome', () => {
  function atCancel(): Run {
    const run = authenticated();
    run.moves('CHK');
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending'));
    run.moves('IS_PENDING', 'DO_CANCEL');
    return run;
  }

  it('is reconciled, not repeated: the same order cannot be changed again until it is read again', () => {
    const run = atCancel();
    const args = { order_id: '#W1', reason: 'no longer needed' };
    expect(run.call('cancel_pending_order', args, 'unknown')).toMatchObject({ kind: 'forward' });
    const again = run.call('cancel_pending_order', args, order('#W1', 'cancelled'));
    expect(again).toMatchObject({ kind: 'refuse', rule: 'unknown-outcome' });
    expect(again.kind === 'refuse' && again.refusal.error).toBe(
      'An earlier cancel_pending_order on order_id "#W1" may or may not have taken effect (its outcome is unknown). ' +
        'Read order_id "#W1" again to see whether it did, before changing it again: nothing was sent.',
    );
    // A read that found nothing settles nothing; one that found the order does.
    run.moves('ROUTE', 'INFO');
    run.call('get_order_details', { order_id: '#W1' }, { text: 'timeout', isError: true });
    expect(run.state.unsettled).toEqual([{ tool: 'cancel_pending_order', entity: { name: 'order_id', value: '#W1' } }]);
    run.call('get_order_details', { order_id: '#W1' }, order('#W1', 'pending'));
    expect(run.state.unsettled).toBeUndefined();
  });

  it('keeps the evidence of a change that succeeded: an address, then the payment, with no read between', () => {
    const run = atCancel();
    expect(run.call('modify_pending_order_address', { order_id: '#W1', zip: '1' }, order('#W1', 'pending'))).toMatchObject({
      kind: 'forward',
    });
    expect(run.call('cancel_pending_order', { order_id: '#W1', reason: 'no longer needed' }, order('#W1', 'cancelled'))).toMatchObject({
      kind: 'forward',
    });
  });
});

describe('the todo list', () => {
  it('takes a list whose completion nodes are terminal, and refuses another, leaving the run as it was', () => {
    const rules = runRules(shopSop());
    const written = step(
      rules,
      EMPTY_RUN_STATE,
      { kind: 'todo', todos: [{ content: 'cancel', status: 'pending', completion_node: 'END_CANCEL' }] },
      GATEWAY,
    );
    expect(written.decision).toEqual({ kind: 'written' });
    expect(written.state.todos).toHaveLength(1);
    const refused = step(
      rules,
      written.state,
      { kind: 'todo', todos: [{ content: 'x', status: 'pending', completion_node: 'CHK' }] },
      GATEWAY,
    );
    expect(refused.decision).toMatchObject({ kind: 'refused', terminalNodes: ['END_INFO', 'END_CANCEL', 'DENY'] });
    expect(refused.state).toBe(written.state);
    expect(step(rules, refused.state, { kind: 'start' }, GATEWAY).state).toEqual(EMPTY_RUN_STATE);
  });
});
