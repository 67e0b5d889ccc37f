/**
 * The user's confirmation before a guarded call (`confirmation.ts`), on the retail agent's `confirm_before_changes`
 * policy (`confirmation: true`, the compiler's default pattern): the agent asks at the confirmation step, the
 * user answers "yes" there, and that "yes" allows one call. Each test is a chat transcript replayed in full.
 */
import { describe, expect, it } from 'vitest';
import { call, type ChatStep, chat, moves, repositoryBundle, replayChat, say, user } from '../../support/chat-transcripts.js';

const bundle = repositoryBundle();
const ORDER = '#W7342738';
const CANCEL = call('cancel_pending_order', { order_id: ORDER, reason: 'no longer needed' });
const ASK = say(`To confirm: cancel order ${ORDER} (Bluetooth Speaker, $289.66), refunded to PayPal. Shall I cancel it? Yes or no?`);

/** Authenticated, the order's status checked, the reason collected: up to the move into DO_CANCEL. */
const UP_TO_DO_CANCEL: ChatStep[] = [
  call('load_graph', { agent: 'retail_customer_support' }),
  ...moves('START', 'AUTH'),
  call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' }),
  ...moves('ROUTE', 'CHK_CANCEL'),
  call('get_order_details', { order_id: ORDER }),
  ...moves('IS_PENDING_C', 'COLLECT_CANCEL'),
  say('What is the reason: "no longer needed" or "ordered by mistake"?'),
  user('No longer needed.'),
  ...moves('DO_CANCEL'),
];

function confirmationFindings(...steps: (ChatStep | ChatStep[])[]) {
  const report = replayChat(bundle, chat(...steps));
  return report.findings.map(({ rule, policy, step, node, message }) => ({ rule, policy, step, node, message }));
}

describe('confirmation before a guarded call', () => {
  it('accepts the question at the confirmation step, the user\'s "yes" there, then one call', () => {
    const report = replayChat(bundle, chat(UP_TO_DO_CANCEL, ASK, user('Yes, cancel it.'), CANCEL, moves('END_CANCEL')));
    expect(report.findings).toEqual([]);
    expect([report.verdict, report.score, report.steps.total]).toEqual(['pass', 1, 11]);
  });

  it.each([
    ['Yes.', true],
    ['yeah, go ahead', true],
    ['Sure!', true],
    ['Correct, please proceed.', true],
    ['I confirm', true],
    ['Yes, but wait: is the refund immediate?', false],
    ['yes... hold on a second', false],
    ['Hmm, wait.', false],
    ['No, keep it.', false],
    ['Yesterday you said it had shipped.', false],
    ['ok', false],
  ])('reads %j as a confirmation: %s', (answer, confirmed) => {
    const findings = confirmationFindings(UP_TO_DO_CANCEL, ASK, user(answer), CANCEL, moves('END_CANCEL'));
    if (confirmed) expect(findings).toEqual([]);
    else {
      expect(findings).toEqual([
        {
          rule: 'unconfirmed_call',
          policy: 'confirm_before_changes',
          step: 10,
          node: 'DO_CANCEL',
          message: expect.stringMatching(
            /^cancel_pending_order at DO_CANCEL: the user's last message before the call, ".*", is not a confirmation \(pattern \/\^.*\/i\) \(policy confirm_before_changes: Every change waits for the user's explicit "yes" at its confirmation step\.\)$/,
          ),
        },
      ]);
      expect(findings[0]?.message).toContain(JSON.stringify(answer));
    }
  });

  it('allows one call per "yes": the same answer used twice confirms only the first', () => {
    const messages = chat(UP_TO_DO_CANCEL, ASK, user('Yes.'), CANCEL, CANCEL, moves('END_CANCEL'));
    const yes = messages.findIndex((message) => message.content === 'Yes.');
    const report = replayChat(bundle, messages);
    expect(report.findings.map(({ rule, step, message }) => ({ rule, step, message }))).toEqual([
      {
        rule: 'unconfirmed_call',
        step: 11,
        message: `cancel_pending_order at DO_CANCEL: the user's confirmation (message ${yes}) was already used for an earlier call (policy confirm_before_changes: Every change waits for the user's explicit "yes" at its confirmation step.)`,
      },
    ]);
    expect(report.timeline.filter((step) => step.name === 'cancel_pending_order').map((step) => step.ok)).toEqual([true, false]);
  });

  it('needs the agent to have asked at the step: an unprompted "yes" is not a confirmation', () => {
    const messages = chat(UP_TO_DO_CANCEL, user('yes, cancel it'), CANCEL, moves('END_CANCEL'));
    const yes = messages.findIndex((message) => message.content === 'yes, cancel it');
    expect(confirmationFindings(UP_TO_DO_CANCEL, user('yes, cancel it'), CANCEL, moves('END_CANCEL'))).toEqual([
      {
        rule: 'unconfirmed_call',
        policy: 'confirm_before_changes',
        step: 10,
        node: 'DO_CANCEL',
        message: `cancel_pending_order at DO_CANCEL: the agent asked nothing at DO_CANCEL before the user's message (message ${yes}) (policy confirm_before_changes: Every change waits for the user's explicit "yes" at its confirmation step.)`,
      },
    ]);
  });

  it('needs the answer at the step: a "yes" given before the move into it does not count', () => {
    const early = [...UP_TO_DO_CANCEL.slice(0, -1), ASK, user('Yes, go ahead.'), ...moves('DO_CANCEL')];
    expect(confirmationFindings(early, CANCEL, moves('END_CANCEL'))).toEqual([
      expect.objectContaining({
        rule: 'unconfirmed_call',
        message: expect.stringMatching(
          /^cancel_pending_order at DO_CANCEL: the user said nothing at DO_CANCEL between the move there and the call/,
        ),
      }),
    ]);
  });

  it('asks again at the next confirmation step: a "yes" for the cancellation does not confirm the address change', () => {
    const findings = confirmationFindings(
      UP_TO_DO_CANCEL,
      ASK,
      user('Yes.'),
      CANCEL,
      moves('END_CANCEL', 'ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR'),
      call('modify_user_address', { user_id: 'sophia_martin_4832', address1: '456 Elm Ave' }),
      moves('END_UADDR'),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'unconfirmed_call',
        step: 15,
        node: 'DO_USER_ADDR',
        message: expect.stringMatching(
          /^modify_user_address at DO_USER_ADDR: the user said nothing at DO_USER_ADDR between the move there/,
        ),
      }),
    ]);
  });

  it('takes a "no", the way back to ROUTE, and a later "yes" at the step entered again', () => {
    const report = replayChat(
      bundle,
      chat(
        UP_TO_DO_CANCEL,
        ASK,
        user('No, keep it for now.'),
        moves('ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL'),
        user('Actually, I do want to cancel it: no longer needed.'),
        moves('DO_CANCEL'),
        ASK,
        user('Yes'),
        CANCEL,
        moves('END_CANCEL'),
      ),
    );
    expect(report.findings).toEqual([]);
    expect(report.final_path).toEqual([
      'START',
      'AUTH',
      'ROUTE',
      'CHK_CANCEL',
      'IS_PENDING_C',
      'COLLECT_CANCEL',
      'DO_CANCEL',
      'END_CANCEL',
    ]);
  });
});
