/**
 * The opening and the requests after it, on conversations written as tool names: what every intent starts with
 * joins the opening (retries and loops included), a read every request makes again does not, and the requests are
 * cut where a change ends one (reads before a change belong to it; a change that usually follows another continues
 * its request).
 */
import { describe, expect, it } from 'vitest';
import { groupIntents, INFO } from '../../../analysis/discover/intents.js';
import type { ObservedConversation } from '../../../analysis/discover/observed-log.js';
import { findOpening } from '../../../analysis/discover/opening.js';
import { toolKind } from '../../../analysis/discover/tool-kinds.js';

function conversations(tools: readonly string[], ...traces: string[]): ObservedConversation[] {
  return traces.map((trace, i) => {
    const calls = trace.split(' ').map((name) => tools.indexOf(name));
    if (calls.includes(-1)) throw new Error(`unknown tool in ${trace}`);
    return {
      name: `c${i}`,
      calls: Int32Array.from(calls),
      outcome: new Uint8Array(calls.length),
      confirmed: new Uint8Array(calls.length),
      success: null,
    };
  });
}

const RETAIL = [
  'find_user_id_by_email',
  'find_user_id_by_name_zip',
  'get_order_details',
  'cancel_pending_order',
  'modify_user_address',
  'transfer_to_human_agents',
];
const [FIND_EMAIL, FIND_ZIP, CANCEL, ADDRESS] = [0, 1, 3, 4] as const;

describe('findOpening', () => {
  it('takes the lookup every intent starts with (either way, retried), not the read only some intents make', () => {
    const c = conversations(
      RETAIL,
      'find_user_id_by_email get_order_details cancel_pending_order',
      'find_user_id_by_name_zip get_order_details cancel_pending_order',
      'find_user_id_by_email find_user_id_by_name_zip get_order_details cancel_pending_order',
      'find_user_id_by_email get_order_details cancel_pending_order get_order_details cancel_pending_order',
      'find_user_id_by_name_zip modify_user_address',
      'find_user_id_by_email modify_user_address',
      'find_user_id_by_email get_order_details transfer_to_human_agents',
    );
    const opening = findOpening(c, RETAIL.map(toolKind), 0.2);
    expect([...opening.tools].sort()).toEqual([FIND_EMAIL, FIND_ZIP]);
    expect([...opening.ends]).toEqual([1, 1, 2, 1, 1, 1, 1]);
  });

  it('keeps a loop of the opening in it (a code sent and checked again) and stops where changes branch', () => {
    const tools = [
      'create_ticket',
      'search_directory',
      'send_verification_code',
      'check_verification_code',
      'unlock_account',
      'reset_mfa_enrollment',
      'close_ticket',
    ];
    const c = conversations(
      tools,
      'create_ticket search_directory send_verification_code check_verification_code unlock_account close_ticket',
      'create_ticket search_directory send_verification_code check_verification_code send_verification_code check_verification_code unlock_account close_ticket',
      'create_ticket search_directory send_verification_code check_verification_code reset_mfa_enrollment close_ticket',
      'create_ticket search_directory send_verification_code check_verification_code reset_mfa_enrollment close_ticket',
    );
    const opening = findOpening(c, tools.map(toolKind), 0.2);
    expect(opening.tools.map((t) => tools[t])).toEqual([
      'create_ticket',
      'search_directory',
      'send_verification_code',
      'check_verification_code',
    ]);
    expect([...opening.ends]).toEqual([4, 6, 4, 4]);
  });

  it('finds none when conversations start in different ways', () => {
    const c = conversations(RETAIL, 'cancel_pending_order', 'modify_user_address', 'transfer_to_human_agents');
    expect(findOpening(c, RETAIL.map(toolKind), 0.2).tools).toEqual([]);
  });
});

describe('groupIntents', () => {
  it('cuts requests at their changes: reads go with the change after them, reads after the last change are a question', () => {
    const c = conversations(
      RETAIL,
      'find_user_id_by_email get_order_details cancel_pending_order get_order_details cancel_pending_order',
      'find_user_id_by_email modify_user_address get_order_details',
      'find_user_id_by_email get_order_details cancel_pending_order cancel_pending_order modify_user_address',
    );
    const intents = groupIntents(c, Int32Array.from([1, 1, 1]), RETAIL.map(toolKind), 0.2);
    const cut = (intent: number) =>
      intents.groups
        .concat(intents.rare)
        .find((g) => g.intent === intent)!
        .segments.map((s) => [s.conversation, s.start, s.end]);
    // The retry of a cancel continues its request; the default address after it does not (it never follows a cancel).
    expect(cut(CANCEL)).toEqual([
      [0, 1, 3],
      [0, 3, 5],
      [2, 1, 4],
    ]);
    expect(cut(ADDRESS)).toEqual([
      [1, 1, 2],
      [2, 4, 5],
    ]);
    expect(cut(INFO)).toEqual([[1, 2, 3]]);
    expect(intents.segments).toBe(6);
  });

  it('continues a request with the change that usually follows its change (unlock, then close the ticket)', () => {
    const tools = ['get_account_status', 'unlock_account', 'close_ticket', 'transfer_to_human_agents'];
    const c = conversations(
      tools,
      'get_account_status unlock_account close_ticket',
      'get_account_status unlock_account close_ticket',
      'get_account_status unlock_account transfer_to_human_agents',
      'get_account_status unlock_account close_ticket',
      'get_account_status unlock_account close_ticket',
      'get_account_status unlock_account close_ticket',
    );
    const intents = groupIntents(c, new Int32Array(6), tools.map(toolKind), 0.2);
    expect(intents.groups.map((g) => tools[g.intent])).toEqual(['unlock_account']);
    // Seen after one unlock in six: below the noise threshold, a request of its own.
    expect(intents.rare.map((g) => [tools[g.intent], g.segments.length])).toEqual([['transfer_to_human_agents', 1]]);
  });
});
