/**
 * The alignment given what the calls answered (`sop replay` of transcripts that keep their answers, inferred walks):
 * it takes the branch the data says, charges a branch the data contradicts (`against_data`), does not charge a check
 * step whose order was read earlier (evidence lasts the run), charges a step that offers tools left without a call
 * half a unit, and scores a conversation whose authentication comes after its first change lower than the original.
 */
import { describe, expect, it } from 'vitest';
import { replay } from '../../../analysis/replay/replay.js';
import type { ReplayReport } from '../../../analysis/replay/replay-report.js';
import { repositoryBundle } from '../../support/chat-transcripts.js';
import { writeTau2Simulation } from '../../support/corpus/writers/tau2.js';
import type { Turn } from '../../support/corpus/writers/turns.js';

const bundle = repositoryBundle();

function replayed(turns: readonly Turn[]): ReplayReport {
  const outcome = replay({
    bundle,
    text: writeTau2Simulation(turns, { n: 1, reward: 1 }),
    file: 'sim.json',
    agent: 'retail_customer_support',
  });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.report;
}

const found: Turn = { call: 'find_user_id_by_email', args: { email: 'a@example.com' }, answer: { text: '{"result":"u1"}' } };
const order = (id: string, status: string): Turn => ({
  call: 'get_order_details',
  args: { order_id: id },
  answer: { text: JSON.stringify({ order_id: id, user_id: 'u1', status }) },
});
const yes: Turn[] = [{ say: 'Shall I cancel it?' }, { user: 'Yes, go ahead.' }];
const cancel = (id: string): Turn => ({
  call: 'cancel_pending_order',
  args: { order_id: id, reason: 'no longer needed' },
  answer: { text: '{}' },
});

describe('the alignment, given the answers', () => {
  it('walks the branch the data says, and charges the one it contradicts', () => {
    const pending = replayed([found, order('#A', 'pending'), ...yes, cancel('#A')]);
    expect(pending.conformance.walk).toEqual([
      'START',
      'AUTH',
      'ROUTE',
      'CHK_CANCEL',
      'IS_PENDING_C',
      'COLLECT_CANCEL',
      'DO_CANCEL',
      'END_CANCEL',
    ]);
    expect(pending.conformance.cost).toBe(0);
    expect(pending.verdict).toBe('pass');

    const delivered = replayed([found, order('#A', 'delivered'), ...yes, cancel('#A')]);
    expect(delivered.conformance.deviations.map((d) => [d.kind, d.node, d.expected])).toEqual([
      ['against_data', 'COLLECT_CANCEL', ['get_order_details.status == pending']],
    ]);
    expect(delivered.conformance.deviations[0]!.message).toBe(
      'IS_PENDING_C → COLLECT_CANCEL needs get_order_details.status == pending, and get_order_details answered #A: status = "delivered"',
    );
    expect(delivered.findings.map((f) => f.rule)).toContain('against_data');
    expect(delivered.verdict).toBe('fail');
  });

  it('takes an order read while answering a question as read for the check step: no charge for reading first', () => {
    const readFirst = replayed([
      found,
      order('#A', 'pending'),
      { call: 'get_user_details', args: { user_id: 'u1' }, answer: { text: '{"user_id":"u1","orders":["#A"]}' } },
      ...yes,
      cancel('#A'),
    ]);
    expect(readFirst.conformance.cost).toBe(0);
  });

  it('charges half a unit for a step that offers tools left without a call, on any SOP', () => {
    // COLLECT_RETURN offers get_user_details and calculate: the refund is never computed, nor the method looked up.
    const skipped = replayed([
      found,
      order('#A', 'delivered'),
      { say: 'Shall I return them?' },
      { user: 'Yes, go ahead.' },
      { call: 'return_delivered_order_items', args: { order_id: '#A', item_ids: ['1'], payment_method_id: 'p' }, answer: { text: '{}' } },
    ]);
    expect(skipped.conformance.deviations.map((d) => [d.kind, d.node, d.cost, d.severity])).toEqual([
      ['step_without_call', 'COLLECT_RETURN', 0.5, 'warning'],
    ]);
    expect(skipped.verdict).toBe('pass');
  });

  it('scores a conversation whose authentication comes after its first change lower than the original', () => {
    const original = replayed([found, order('#A', 'pending'), ...yes, cancel('#A')]);
    const moved = replayed([order('#A', 'pending'), ...yes, cancel('#A'), found]);
    expect(moved.conformance.fitness).toBeLessThan(original.conformance.fitness);
    expect(moved.findings.map((f) => f.rule)).toContain('skipped_required');
  });

  it('counts a lookup that found no one as no authentication, whatever shape the nothing has', () => {
    for (const nothing of ['', '[]', '{}', 'null', '{"result":""}', '{"error":"User not found"}']) {
      const report = replayed([
        { call: 'find_user_id_by_email', args: { email: 'a@example.com' }, answer: { text: nothing } },
        order('#A', 'pending'),
        ...yes,
        cancel('#A'),
      ]);
      expect(report.conformance.by_kind.skipped_required, nothing).toBe(1);
    }
  });
});
