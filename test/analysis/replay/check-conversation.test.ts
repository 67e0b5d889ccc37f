/**
 * The rules of `check-conversation.ts` where they are subtle, on the repository's compiled agents: `load_graph`
 * starts a fresh run (path and visit counts), visit limits (it_helpdesk: VERIFY at most 3 times, then
 * SECURITY_HOLD) counted across restarts as the server counts them, an answer recorded in the transcript that
 * differs from the rule's, another agent loaded, guarded tools called off their confirmation step, and the
 * calls that are not steps.
 */
import { describe, expect, it } from 'vitest';
import { call, type ChatStep, chat, moves, repositoryBundle, replayChat, say, user } from '../../support/chat-transcripts.js';

const bundle = repositoryBundle();
const HELPDESK = call('load_graph', { agent: 'it_helpdesk' });
const RETAIL = call('load_graph', { sop_file: 'sops/retail_customer_support.md' });
/** One failed code check: VERIFY, then IS_VERIFIED. */
const WRONG_CODE = moves('VERIFY', 'IS_VERIFIED');

function brief(steps: ChatStep[], agent?: string) {
  const report = replayChat(bundle, chat(steps), agent);
  return {
    verdict: report.verdict,
    findings: report.findings.map(({ severity, rule, step, node, message }) => ({ severity, rule, step, node, message })),
    path: report.final_path,
  };
}

describe('visit limits (it_helpdesk: VERIFY max 3, then SECURITY_HOLD)', () => {
  it('refuses a fourth VERIFY and accepts the escalation to SECURITY_HOLD', () => {
    const report = replayChat(
      bundle,
      chat(HELPDESK, moves('INTAKE', 'IDENTIFY'), WRONG_CODE, WRONG_CODE, WRONG_CODE, moves('VERIFY', 'SECURITY_HOLD')),
    );
    expect(report.findings).toEqual([
      {
        severity: 'error',
        rule: 'visit_limit',
        step: 9,
        node: 'IS_VERIFIED',
        message: 'goto_node VERIFY from IS_VERIFIED: VERIFY has used up its 3 visits (max_visits); the SOP escalates to SECURITY_HOLD',
        at: { message: 9, tool_call_id: 'call_10' },
      },
    ]);
    expect(report.timeline[8]).toMatchObject({ step: 9, kind: 'move', name: 'VERIFY', from: 'IS_VERIFIED', to: 'IS_VERIFIED', ok: false });
    expect([report.terminal, report.final_path.at(-1), report.steps]).toEqual([
      'SECURITY_HOLD',
      'SECURITY_HOLD',
      { total: 10, compliant: 9, first_violation: 9 },
    ]);
  });

  it('counts visits across a restart at the entry node, as the server does: a restart buys no new attempts', () => {
    const restarted = brief([
      HELPDESK,
      ...moves('INTAKE', 'IDENTIFY'),
      ...WRONG_CODE,
      ...WRONG_CODE,
      ...WRONG_CODE,
      ...moves('INTAKE', 'IDENTIFY', 'VERIFY'),
    ]);
    expect(restarted.findings.map((f) => [f.rule, f.node])).toEqual([
      ['visit_limit', 'IDENTIFY'],
      ['unfinished', 'IDENTIFY'],
    ]);
  });

  it('starts counting again after load_graph, which starts a new run', () => {
    const reloaded = brief([
      HELPDESK,
      ...moves('INTAKE', 'IDENTIFY'),
      ...WRONG_CODE,
      ...WRONG_CODE,
      ...WRONG_CODE,
      HELPDESK,
      ...moves('INTAKE', 'IDENTIFY', 'VERIFY', 'IS_VERIFIED', 'HANDOFF'),
    ]);
    expect(reloaded).toEqual({ verdict: 'pass', findings: [], path: ['INTAKE', 'IDENTIFY', 'VERIFY', 'IS_VERIFIED', 'HANDOFF'] });
  });
});

describe('load_graph', () => {
  it('starts a fresh run: the old path is gone, so only the entry node is legal', () => {
    const result = brief([
      RETAIL,
      ...moves('START', 'AUTH', 'ROUTE'),
      RETAIL,
      ...moves('INFO', 'START', 'AUTH', 'ROUTE', 'INFO', 'END_INFO'),
    ]);
    expect(result.findings).toEqual([
      {
        severity: 'error',
        rule: 'illegal_move',
        step: 4,
        node: null,
        message: 'goto_node INFO from the start: not a legal move; legal: START',
      },
    ]);
  });

  it('reports a load_graph of another agent than the one checked', () => {
    const result = brief([HELPDESK, ...moves('INTAKE')], 'retail_customer_support');
    expect(result.findings.map((f) => [f.rule, f.step, f.message])).toEqual([
      ['other_agent', null, 'load_graph starts it_helpdesk; this replay checks retail_customer_support'],
      ['illegal_move', 1, 'goto_node INTAKE from the start: not a node of the SOP; legal: START'],
      ['unfinished', null, 'the conversation never moved into the SOP (no accepted goto_node)'],
    ]);
    const byFile = brief([call('load_graph', { sop_file: './sops/it_helpdesk_password_reset.md' })], 'retail_customer_support');
    expect(byFile.findings[0]?.message).toBe(
      'load_graph starts ./sops/it_helpdesk_password_reset.md; this replay checks sops/retail_customer_support.md',
    );
  });
});

describe('answers recorded in the transcript', () => {
  /** A goto_node call whose tool message records the answer `valid`. */
  const recorded = (node: string, valid: boolean) => call('goto_node', { node_id: node }, { valid });

  it('warns when the transcript records a refused move the rule accepts (another SOP version), and follows the rule', () => {
    const result = brief([RETAIL, ...moves('START'), recorded('AUTH', false), ...moves('ROUTE', 'INFO', 'END_INFO')]);
    expect(result.verdict).toBe('pass');
    expect(result.findings).toEqual([
      {
        severity: 'warning',
        rule: 'recorded_answer_differs',
        step: 2,
        node: 'START',
        message: 'the transcript records goto_node AUTH as refused; this SOP accepts it',
      },
    ]);
  });

  it('warns and fails when it records an accepted move the rule refuses (a server that did not enforce it)', () => {
    const result = brief([RETAIL, ...moves('START', 'AUTH', 'ROUTE', 'CHK_CANCEL'), recorded('COLLECT_CANCEL', true)]);
    expect(result.findings.map((f) => [f.severity, f.rule, f.step])).toEqual([
      ['error', 'illegal_move', 5],
      ['warning', 'recorded_answer_differs', 5],
      ['error', 'unfinished', null],
    ]);
    expect(result.findings[1]?.message).toBe('the transcript records goto_node COLLECT_CANCEL as accepted; this SOP refuses it');
    expect(result.path).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_CANCEL']);
  });

  it("says nothing about an answer that is not the server's JSON", () => {
    const result = brief([
      RETAIL,
      call('goto_node', { node_id: 'START' }, 'moved to START'),
      ...moves('AUTH', 'ROUTE', 'INFO', 'END_INFO'),
    ]);
    expect(result).toMatchObject({ verdict: 'pass', findings: [] });
  });
});

describe('steps', () => {
  it('flags a guarded tool called off its confirmation step under the confirmation policy, besides the node rule', () => {
    const result = brief([RETAIL, ...moves('START', 'AUTH', 'ROUTE', 'CHK_CANCEL'), call('cancel_pending_order', { order_id: '#W1' })]);
    expect(result.findings.filter((f) => f.step === 5).map((f) => [f.rule, f.message])).toEqual([
      ['tool_not_allowed', 'cancel_pending_order called at CHK_CANCEL, which allows get_user_details, get_order_details'],
      [
        'unconfirmed_call',
        'cancel_pending_order called on the path START > AUTH > ROUTE > CHK_CANCEL, which passes none of DO_CANCEL, DO_MOD_ADDR, DO_MOD_ITEMS, DO_MOD_PAY, DO_RETURN, DO_EXCH, DO_USER_ADDR (policy confirm_before_changes: Every change waits for the user\'s explicit "yes" at its confirmation step.)',
      ],
    ]);
  });

  it('flags a tool before the first move, a tool the SOP does not have, and moves it cannot read', () => {
    const steps = [
      RETAIL,
      call('find_user_id_by_email', { email: 'a@example.com' }),
      ...moves('START'),
      call('web_search', { query: 'order status' }),
      call('goto_node', {}),
    ];
    const messages = chat(steps);
    const badJson = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'x', type: 'function', function: { name: 'goto_node', arguments: '{"node_id": AUTH}' } }],
    };
    const report = replayChat(bundle, [...messages, badJson, ...chat(moves('AUTH', 'NOWHERE'))]);
    expect(report.findings.map((f) => [f.rule, f.step, f.message])).toEqual([
      ['tool_not_allowed', 1, 'find_user_id_by_email called before the first move into the SOP'],
      [
        'tool_not_allowed',
        3,
        expect.stringMatching(/^web_search is not a tool of this SOP \(its tools: find_user_id_by_email, .*, transfer_to_human_agents\)$/),
      ],
      ['illegal_move', 4, 'goto_node without a node_id'],
      ['illegal_move', 5, 'goto_node without a node_id (the arguments are not valid JSON)'],
      ['illegal_move', 7, 'goto_node NOWHERE from AUTH: not a node of the SOP; legal: ROUTE, START'],
      ['unfinished', null, 'the conversation ends at AUTH, not at a terminal node'],
    ]);
  });

  it('does not count load_graph, todo and inspect as steps, nor what was said; warns about todos left open', () => {
    const todo = (status: string) =>
      call('todo', {
        todos: [
          { content: 'Answer the question', status, completion_node: 'END_INFO' },
          { content: 'Cancel #W1', status: 'pending' },
        ],
      });
    const report = replayChat(
      bundle,
      chat(
        RETAIL,
        todo('pending'),
        user('Hi'),
        say('Hello!'),
        moves('START', 'AUTH', 'ROUTE', 'INFO'),
        call('inspect', { view: 'where' }),
        moves('END_INFO'),
        todo('completed'),
        // Lists the server refuses change nothing: a status it does not know, a completion node that is not terminal.
        todo('done'),
        call('todo', { todos: [{ content: 'Cancel #W1', status: 'completed', completion_node: 'ROUTE' }] }),
      ),
    );
    expect([report.verdict, report.steps.total]).toEqual(['pass', 5]);
    expect(report.findings).toEqual([
      {
        severity: 'warning',
        rule: 'open_todos',
        step: null,
        node: 'END_INFO',
        message: '1 todo not completed at the end: "Cancel #W1"',
        at: null,
      },
    ]);
  });
});
