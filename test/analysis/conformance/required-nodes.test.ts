/**
 * Which nodes a run must really pass (`required-nodes.ts`): the `passes` nodes of a policy that guards something
 * beyond them, with the policies and their severity; not the nodes of a policy whose guarded nodes are its own
 * `passes` nodes (where a tool may be called, not a step that must happen).
 */
import { describe, expect, it } from 'vitest';
import { requiredNodes } from '../../../analysis/conformance/required-nodes.js';
import { repositoryBundle } from '../../support/chat-transcripts.js';
import { compiledFromText } from '../../support/compiled-from-text.js';
import { BASE_SOP } from '../../support/sop-text.js';

const bundle = repositoryBundle();

describe('requiredNodes', () => {
  it('the retail SOP: AUTH and the check steps (policies with their evidence), the status decisions, no DO_* step', () => {
    const orderRead = { policies: ['order_read_before_changes'], severity: 'error', evidence: ['get_order_details'] };
    expect([...requiredNodes(bundle.agents.retail_customer_support!)]).toEqual([
      ['AUTH', { policies: ['authenticate_first'], severity: 'error', evidence: ['find_user_id_by_email', 'find_user_id_by_name_zip'] }],
      ['IS_PENDING_C', { policies: ['status_checked_before_changes'], severity: 'error' }],
      ['IS_PENDING_M', { policies: ['status_checked_before_changes'], severity: 'error' }],
      ['IS_DELIVERED_R', { policies: ['status_checked_before_changes'], severity: 'error' }],
      ['IS_DELIVERED_E', { policies: ['status_checked_before_changes'], severity: 'error' }],
      ['CHK_CANCEL', orderRead],
      ['CHK_MOD', orderRead],
      ['CHK_RETURN', orderRead],
      ['CHK_EXCH', orderRead],
    ]);
  });

  it('a node that requires evidence with no policy naming it is required by its evidence alone', () => {
    const text = BASE_SOP.replace('tools: [lookup]\n```', 'tools: [lookup]\nevidence: true\n```');
    expect([...requiredNodes(compiledFromText(text))]).toEqual([['ASK', { policies: [], severity: 'error', evidence: ['lookup'] }]]);
  });

  it('none without policies', () => {
    expect(requiredNodes(bundle.agents.it_helpdesk!).size).toBe(0);
  });

  it('a node several policies need lists them all; its severity is an error when one of them is', () => {
    const text = BASE_SOP.replace(
      'tools: [lookup]\n---',
      [
        'tools: [lookup]',
        'policies:',
        '  ask_first:',
        '    every_path_to: DONE',
        '    passes: ASK',
        '    severity: warning',
        '  ask_before_done:',
        '    every_path_to: [DONE]',
        '    passes: [ASK]',
        '---',
      ].join('\n'),
    );
    expect([...requiredNodes(compiledFromText(text))]).toEqual([
      ['ASK', { policies: ['ask_first', 'ask_before_done'], severity: 'error' }],
    ]);
    const warningOnly = text.replace(/ {2}ask_before_done:\n.*\n.*\n/, '');
    expect([...requiredNodes(compiledFromText(warningOnly))]).toEqual([['ASK', { policies: ['ask_first'], severity: 'warning' }]]);
  });
});
