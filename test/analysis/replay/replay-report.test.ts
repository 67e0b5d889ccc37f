/**
 * The replay report (`replay-report.ts`): the score (compliant steps / steps) and the prefix score (steps before
 * the first non-compliant one / steps), rounded to 4 decimals; what counts as a step and as compliant; the
 * verdict; the report's JSON shape and its text.
 */
import { describe, expect, it } from 'vitest';
import { renderReplayText } from '../../../analysis/replay/replay-report.js';
import { call, chat, moves, repositoryBundle, replayChat } from '../../support/chat-transcripts.js';

const bundle = repositoryBundle();
const RETAIL = call('load_graph', { agent: 'retail_customer_support' });
const HASH = bundle.agents.retail_customer_support!.sourceHash;

/** 8 steps; 3 (a tool AUTH does not allow) and 6 (a move skipping the status decision) break a rule. */
const TWO_BAD_OF_EIGHT = chat(
  RETAIL,
  moves('START', 'AUTH'),
  call('get_user_details', { user_id: 'u1' }),
  moves('ROUTE', 'CHK_CANCEL', 'DENY_CANCEL', 'IS_PENDING_C', 'DENY_CANCEL'),
);

describe('score and prefix score', () => {
  it('counts compliant steps, and the steps before the first violation, over all steps', () => {
    const report = replayChat(bundle, TWO_BAD_OF_EIGHT);
    expect(report.timeline.map((step) => `${step.step}:${step.name}:${step.ok}`)).toEqual([
      '1:START:true',
      '2:AUTH:true',
      '3:get_user_details:false',
      '4:ROUTE:true',
      '5:CHK_CANCEL:true',
      '6:DENY_CANCEL:false',
      '7:IS_PENDING_C:true',
      '8:DENY_CANCEL:true',
    ]);
    expect([report.score, report.prefix_score, report.steps]).toEqual([0.75, 0.25, { total: 8, compliant: 6, first_violation: 3 }]);
  });

  it.each([
    // [moves after START, score, prefix score]: 2/3 and 1/3 round to 4 decimals; a violation first gives prefix 0.
    [['AUTH', 'ROUTE'], 1, 1],
    [['ROUTE', 'AUTH'], 0.6667, 0.3333],
    [['AUTH', 'INFO', 'ROUTE', 'INFO', 'END_INFO', 'CHK_CANCEL'], 0.7143, 0.2857],
  ])('START then %j: score %s, prefix %s', (nodes, score, prefix) => {
    const report = replayChat(bundle, chat(RETAIL, moves('START', ...nodes)));
    expect([report.score, report.prefix_score]).toEqual([score, prefix]);
  });

  it('scores a conversation with no step 0 and fails it', () => {
    const report = replayChat(bundle, chat(RETAIL));
    expect([report.verdict, report.score, report.prefix_score, report.steps]).toEqual([
      'fail',
      0,
      0,
      { total: 0, compliant: 0, first_violation: null },
    ]);
  });

  it('counts a step with warnings only as compliant, and one with two errors once', () => {
    const warned = replayChat(
      bundle,
      chat(RETAIL, call('goto_node', { node_id: 'START' }, { valid: false }), moves('AUTH', 'ROUTE', 'INFO', 'END_INFO')),
    );
    expect([warned.verdict, warned.score, warned.findings.map((f) => f.severity)]).toEqual(['pass', 1, ['warning']]);
    expect(warned.timeline[0]).toMatchObject({ ok: true, rules: ['recorded_answer_differs'] });
    // A policy of severity warning (`severity: warning` in the frontmatter) flags its calls without failing them.
    const retail = bundle.agents.retail_customer_support!;
    const lenient = {
      ...bundle,
      agents: { retail_customer_support: { ...retail, policies: retail.policies?.map((p) => ({ ...p, severity: 'warning' as const })) } },
    };
    const unconfirmed = replayChat(
      lenient,
      chat(
        RETAIL,
        moves('START', 'AUTH', 'ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR'),
        call('modify_user_address', {}),
        moves('END_UADDR'),
      ),
    );
    expect([unconfirmed.verdict, unconfirmed.score, unconfirmed.findings.map((f) => [f.severity, f.rule])]).toEqual([
      'pass',
      1,
      [['warning', 'unconfirmed_call']],
    ]);
    expect(unconfirmed.timeline[5]).toMatchObject({ name: 'modify_user_address', ok: true, rules: ['unconfirmed_call'] });
    const twice = replayChat(
      bundle,
      chat(RETAIL, moves('START', 'AUTH', 'ROUTE', 'INFO'), call('cancel_pending_order', {}), moves('END_INFO')),
    );
    expect(twice.timeline[4]).toMatchObject({ ok: false, rules: ['tool_not_allowed', 'unconfirmed_call'] });
    expect([twice.steps, twice.score]).toEqual([{ total: 6, compliant: 5, first_violation: 5 }, 0.8333]);
  });

  it('fails a conversation whose every step is compliant when it does not end on a terminal node', () => {
    const report = replayChat(bundle, chat(RETAIL, moves('START', 'AUTH', 'ROUTE', 'INFO')));
    expect([report.verdict, report.score, report.prefix_score, report.terminal]).toEqual(['fail', 1, 1, null]);
  });
});

describe('the report', () => {
  it('has the sop-replay/1 shape, with no time and no absolute path', () => {
    const report = replayChat(bundle, TWO_BAD_OF_EIGHT);
    expect(Object.keys(report)).toEqual([
      'format',
      'file',
      'input',
      'agent',
      'source_hash',
      'run',
      'verdict',
      'score',
      'prefix_score',
      'steps',
      'terminal',
      'terminals_reached',
      'final_path',
      'checked',
      'findings',
      'timeline',
      'reader',
      'notes',
      'conformance',
    ]);
    expect(report).toMatchObject({
      format: 'sop-replay/1',
      file: 'transcript.json',
      input: 'messages',
      agent: 'retail_customer_support',
      source_hash: HASH,
      run: null,
      verdict: 'fail',
      terminal: 'DENY_CANCEL',
      terminals_reached: ['DENY_CANCEL'],
      final_path: ['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'DENY_CANCEL'],
      checked: { moves: true, domain_tools: true, confirmations: true },
    });
    expect(JSON.stringify(replayChat(bundle, TWO_BAD_OF_EIGHT))).toBe(JSON.stringify(report));
  });

  it('renders the verdict line, then one line per finding with its step and place', () => {
    expect(renderReplayText(replayChat(bundle, TWO_BAD_OF_EIGHT))).toBe(
      [
        `sop replay: transcript.json (chat messages) against retail_customer_support ${HASH}`,
        'FAIL  score 0.7500 (6/8 steps compliant), prefix 0.2500; ended at DENY_CANCEL; terminals reached: DENY_CANCEL',
        '  step 3 (message 3, call call_4) error tool_not_allowed: get_user_details called at AUTH, which allows find_user_id_by_email, find_user_id_by_name_zip',
        '  step 6 (message 6, call call_7) error illegal_move: goto_node DENY_CANCEL from CHK_CANCEL: not a legal move; legal: IS_PENDING_C, START, ROUTE',
        'conformance (walk anchored by goto_node): fitness 0.5000 (cost 4 of 8); one optimal alignment',
        '  step 3 (message 3, call call_4) unexpected_call: get_user_details called at AUTH, which offers find_user_id_by_email, find_user_id_by_name_zip; no walk explains it at a lower cost',
        '  step 4 (message 4, call call_5) skipped_required: AUTH was passed without a successful call of find_user_id_by_email, find_user_id_by_name_zip; it is required by authenticate_first and its evidence',
        '  step 6 (message 6, call call_7) declared_move_off_walk: goto_node DENY_CANCEL is not on the walk: the rule refuses it from CHK_CANCEL; the walk stays at CHK_CANCEL',
        // The check step read no order (its call was get_user_details): the evidence it requires is missing.
        '  step 7 (message 7, call call_8) skipped_required: CHK_CANCEL was passed without a successful call of get_order_details; it is required by order_read_before_changes and its evidence',
        '',
      ].join('\n'),
    );
  });
});
