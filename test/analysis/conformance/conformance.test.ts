/**
 * Conformance by alignment (`analysis/conformance/`), on the repository's compiled agents, with transcripts
 * made from their golden paths (`test/support/synthetic-transcripts.ts`):
 *   - every golden path, its calls without a single goto_node, scores 1 and passes; with goto_node, too;
 *   - a planted deviation is found at its step with its kind: a required step skipped, a tool at the wrong node, a
 *     change without the user's yes, a loop gone round once more than the SOP allows; with and without goto_node;
 *   - random walks turned into calls are recovered exactly where the walk is identifiable from its calls, and the
 *     report names exactly the steps where it is not (checked against a brute-force enumeration of the definition);
 *   - the same input gives the same walk whatever the search met before; a bounded search says so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { goesOn, requirementOf } from '../../../contract/run/evidence.js';
import { decideMove, legalTargets, NO_VISITS, type Visits } from '../../../contract/transitions.js';
import { requiredNodes } from '../../../analysis/conformance/required-nodes.js';
import { goldenPaths } from '../../../generator/paths/golden-paths.js';
import type { ReplayReport } from '../../../analysis/replay/replay-report.js';
import { replay } from '../../../analysis/replay/replay.js';
import { type ChatMessage, chat, repositoryBundle } from '../../support/chat-transcripts.js';
import { type Act, actsOfWalk, chatStepsOf, confirmationGuards, stepOf } from '../../support/synthetic-transcripts.js';

const bundle = repositoryBundle();
const RETAIL = bundle.agents.retail_customer_support!;
const HELPDESK = bundle.agents.it_helpdesk!;

function replayOf(messages: readonly ChatMessage[], agent: string, options: { bundle?: SopBundle; maxStates?: number } = {}): ReplayReport {
  const outcome = replay({
    bundle: options.bundle ?? bundle,
    text: JSON.stringify(messages),
    file: 'transcript.json',
    agent,
    ...(options.maxStates === undefined ? {} : { conformance: { maxStatesPerEvent: options.maxStates } }),
  });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.report;
}

const replayActs = (sop: CompiledSop, acts: readonly Act[], declare: boolean): ReplayReport =>
  replayOf(chat(chatStepsOf(acts, declare)), sop.meta.agent);

/** The verification loop calls both of VERIFY's tools (send a code, check it), as a real attempt does. */
const helpdeskActs = (walk: readonly string[]): Act[] =>
  actsOfWalk(HELPDESK, walk).flatMap((a) =>
    a.act === 'call' && a.node === 'VERIFY' ? [a, { act: 'call' as const, node: 'VERIFY', tool: 'check_verification_code' }] : [a],
  );

const deviations = (report: ReplayReport) => report.conformance.deviations.map(({ kind, step, node }) => ({ kind, step, node }));

describe('conforming transcripts', () => {
  it.each([
    ['retail_customer_support', RETAIL],
    ['it_helpdesk', HELPDESK],
  ])('every golden path of %s, as calls without goto_node, scores 1 and passes', (_, sop) => {
    const paths = goldenPaths(sop).paths;
    expect(paths.length).toBeGreaterThan(40);
    for (const path of paths) {
      const report = replayActs(sop, actsOfWalk(sop, path.nodes), false);
      expect(report.conformance.mode, path.nodes.join(' ')).toBe('inferred');
      expect([report.conformance.fitness, deviations(report), report.verdict], path.nodes.join(' ')).toEqual([1, [], 'pass']);
      expect(report.conformance.walk[0]).toBe(sop.transitions.entry);
    }
  });

  it.each([
    ['retail_customer_support', RETAIL],
    ['it_helpdesk', HELPDESK],
  ])('every golden path of %s with its goto_node calls scores 1, on exactly the declared walk', (_, sop) => {
    for (const path of goldenPaths(sop).paths) {
      const report = replayActs(sop, actsOfWalk(sop, path.nodes), true);
      expect(report.conformance.mode).toBe('declared');
      expect([report.conformance.fitness, report.conformance.walk, report.conformance.disagreements], path.nodes.join(' ')).toEqual([
        1,
        path.nodes,
        [],
      ]);
      expect(report.conformance.ambiguity.optimal_alignments).toBe(1);
    }
  });
});

describe('planted deviations, found at their step with their kind', () => {
  const retailPaths = goldenPaths(RETAIL).paths.map((p) => p.nodes);
  const REQUIRED = requiredNodes(RETAIL);

  it.each([false, true])('a required step skipped (AUTH passed without authenticating; goto_node: %s)', (declare) => {
    for (const walk of retailPaths) {
      const acts = actsOfWalk(RETAIL, walk);
      const auth = acts.findIndex((a) => a.act === 'call' && a.node === 'AUTH');
      const skipped = acts.filter((_, i) => i !== auth);
      // The skip is charged on the move out of AUTH: the goto_node ROUTE when declared, else before the next call.
      const next = declare ? skipped.findIndex((a) => a.act === 'move' && a.node === 'ROUTE') : skipped.findIndex((a) => a.act === 'call');
      const report = replayActs(RETAIL, skipped, declare);
      expect(deviations(report), walk.join(' ')).toEqual([
        { kind: 'skipped_required', step: stepOf(skipped, next, declare), node: 'AUTH' },
      ]);
      expect(report.conformance.deviations[0]!.expected).toEqual(['find_user_id_by_email', 'find_user_id_by_name_zip']);
    }
  });

  it('a required step skipped fails the verdict without goto_node, with the policy that requires it', () => {
    const acts = actsOfWalk(RETAIL, retailPaths.find((w) => w.includes('DO_CANCEL'))!).filter(
      (a) => !(a.act === 'call' && a.node === 'AUTH'),
    );
    const report = replayActs(RETAIL, acts, false);
    expect(report.verdict).toBe('fail');
    expect(report.findings.map((f) => [f.rule, f.severity, f.step, f.node])).toEqual([['skipped_required', 'error', 1, 'AUTH']]);
    expect(report.findings[0]!.message).toBe(
      'AUTH was passed without a successful call of find_user_id_by_email, find_user_id_by_name_zip; it is required by authenticate_first and its evidence',
    );
  });

  it('a tool at the wrong node, with goto_node: a lookup declared at AUTH before authenticating is the call out of place', () => {
    for (const walk of retailPaths.slice(0, 30)) {
      const acts = actsOfWalk(RETAIL, walk);
      // A lookup at a step that requires nothing (moving a check step's evidence would leave that step unproved too).
      const lookup = acts.findIndex(
        (a) => a.act === 'call' && a.node !== 'AUTH' && !confirmationGuards(RETAIL, a.tool) && !REQUIRED.has(a.node),
      );
      if (lookup < 0) continue;
      const auth = acts.findIndex((a) => a.act === 'call' && a.node === 'AUTH');
      // The lookup moves to just before the call that authenticates.
      const moved = [...acts.slice(0, auth), acts[lookup]!, ...acts.slice(auth, lookup), ...acts.slice(lookup + 1)];
      const report = replayActs(RETAIL, moved, true);
      expect(deviations(report), walk.join(' ')).toEqual([{ kind: 'unexpected_call', step: stepOf(moved, auth, true), node: 'AUTH' }]);
      expect(report.conformance.deviations[0]!.tool).toBe((acts[lookup] as { tool: string }).tool);
    }
  });

  it('a tool at the wrong node, inferred: a lookup before authenticating is AUTH skipped, at that step, which the log cannot tell from the lookup made at AUTH', () => {
    // Every node after AUTH is reachable for free (a hub, restarts), so only a call that needs AUTH passed counts.
    for (const walk of retailPaths.slice(0, 30)) {
      const acts = actsOfWalk(RETAIL, walk);
      const lookup = acts.findIndex(
        (a) => a.act === 'call' && a.node !== 'AUTH' && !confirmationGuards(RETAIL, a.tool) && !REQUIRED.has(a.node),
      );
      if (lookup < 0) continue;
      const auth = acts.findIndex((a) => a.act === 'call' && a.node === 'AUTH');
      const moved = [...acts.slice(0, auth), acts[lookup]!, ...acts.slice(auth, lookup), ...acts.slice(lookup + 1)];
      const report = replayActs(RETAIL, moved, false);
      const step = stepOf(moved, auth, false);
      expect(deviations(report), walk.join(' ')).toEqual([{ kind: 'skipped_required', step, node: 'AUTH' }]);
      expect(report.conformance.ambiguity.undetermined.find((u) => u.step === step)?.nodes).toContain('AUTH');
    }
  });

  it('a tool at the wrong node when goto_node pins the agent there: the call, not the moves, is the deviation', () => {
    const acts = actsOfWalk(RETAIL, ['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'DENY_CANCEL']);
    const at = acts.findIndex((a) => a.act === 'move' && a.node === 'CHK_CANCEL') + 1;
    const planted = [
      ...acts.slice(0, at + 1),
      { act: 'call' as const, node: 'CHK_CANCEL', tool: 'find_user_id_by_name_zip' },
      ...acts.slice(at + 1),
    ];
    const report = replayActs(RETAIL, planted, true);
    expect(deviations(report)).toEqual([{ kind: 'unexpected_call', step: stepOf(planted, at + 1, true), node: 'CHK_CANCEL' }]);
  });

  it.each([false, true])('a change without the user’s yes (goto_node: %s)', (declare) => {
    let planted = 0;
    for (const walk of retailPaths) {
      const acts = actsOfWalk(RETAIL, walk);
      const yes = acts.findIndex((a) => a.act === 'user');
      if (yes < 0) continue;
      const unconfirmed = acts.map((a, i): Act => (i === yes ? { act: 'user', text: 'Hmm, wait. Is the refund immediate?' } : a));
      const change = unconfirmed.findIndex((a, i) => i > yes && a.act === 'call' && confirmationGuards(RETAIL, a.tool));
      const report = replayActs(RETAIL, unconfirmed, declare);
      expect(deviations(report), walk.join(' ')).toEqual([
        { kind: 'unconfirmed_call', step: stepOf(unconfirmed, change, declare), node: (unconfirmed[change] as { node: string }).node },
      ]);
      expect(report.verdict).toBe('fail');
      planted += 1;
    }
    expect(planted).toBeGreaterThan(50);
  });

  it('a loop gone round once more than max_visits allows (VERIFY a fourth time, goto_node)', () => {
    const declare = true;
    const walk = [
      'INTAKE',
      'IDENTIFY',
      'VERIFY',
      'IS_VERIFIED',
      'VERIFY',
      'IS_VERIFIED',
      'VERIFY',
      'IS_VERIFIED',
      'VERIFY',
      'IS_VERIFIED',
      'HANDOFF',
    ];
    const acts = helpdeskActs(walk);
    const fourth = acts.findIndex(
      (a, i) =>
        a.act === 'move' && a.node === 'VERIFY' && acts.slice(0, i).filter((b) => b.act === 'move' && b.node === 'VERIFY').length === 3,
    );
    const report = replayActs(HELPDESK, acts, declare);
    expect(deviations(report)).toEqual([{ kind: 'visit_limit', step: stepOf(acts, fourth, declare), node: 'VERIFY' }]);
    expect(report.conformance.deviations[0]!.expected).toEqual(['SECURITY_HOLD']);
    const without = replayActs(HELPDESK, helpdeskActs(walk.slice(0, 8).concat('HANDOFF')), declare);
    expect(deviations(without)).toEqual([]);
  });

  it.each([false, true])('a loop gone round once more, seen in the calls (a third reset link; goto_node: %s)', (declare) => {
    const walk = [
      ...'INTAKE IDENTIFY VERIFY IS_VERIFIED TRIAGE CHECK_ACCT ACCT_STATE RESET_PW GUIDE RESET_PW GUIDE RESET_PW GUIDE CAN_SIGN_IN CLOSE_TICKET DONE'.split(
        ' ',
      ),
    ];
    const acts = actsOfWalk(HELPDESK, walk);
    const third = acts.findIndex(
      (a, i) =>
        a.act === 'move' && a.node === 'RESET_PW' && acts.slice(0, i).filter((b) => b.act === 'move' && b.node === 'RESET_PW').length === 2,
    );
    const report = replayActs(HELPDESK, acts, declare);
    // Declared: the goto_node RESET_PW is the step; inferred: its call, which the move comes before.
    expect(deviations(report)).toEqual([
      { kind: 'visit_limit', step: stepOf(acts, declare ? third : third + 1, declare), node: 'RESET_PW' },
    ]);
    expect(report.conformance.deviations[0]!.expected).toEqual(['HANDOFF']);
  });

  it('a loop whose nodes between two visits leave no call is not seen without goto_node: VERIFY’s calls fit fewer visits', () => {
    const walk = [
      'INTAKE',
      'IDENTIFY',
      'VERIFY',
      'IS_VERIFIED',
      'VERIFY',
      'IS_VERIFIED',
      'VERIFY',
      'IS_VERIFIED',
      'VERIFY',
      'IS_VERIFIED',
      'HANDOFF',
    ];
    expect(deviations(replayActs(HELPDESK, helpdeskActs(walk), false))).toEqual([]);
  });
});

describe('random walks turned into calls', () => {
  /**
   * The definition, by brute force: every walk along the rule that explains the calls at no cost (each call made at
   * a node that offers it; no node left without a call of its tools, but a node of reads one of which found something
   * earlier, and a node whose evidence an earlier call found when the move goes on; no guarded node entered off its
   * policies), however many moves it makes. Reachability over (event, path, visits, called) forwards from the start
   * and backwards from the end; an event's nodes are those it can be made at on such a walk. The calls here keep no
   * answers: each counts as found.
   */
  function zeroCostNodes(sop: CompiledSop, tools: readonly string[]): Set<string>[] {
    const required = new Set([...requiredNodes(sop)].filter(([node]) => (sop.toolsByNode[node] ?? []).length > 0).map(([node]) => node));
    const changes = new Set((sop.policies ?? []).flatMap((p) => p.tools));
    type State = { i: number; path: readonly string[]; visits: Visits; called: boolean };
    const key = (s: State) => `${s.i}|${s.path.join('>')}|${JSON.stringify(s.visits)}|${s.called}`;
    const leaves = (s: State, target: string): boolean => {
      const here = s.path.at(-1);
      if (here === undefined || s.called) return true;
      const before = new Set(tools.slice(0, s.i));
      const offered = sop.toolsByNode[here] ?? [];
      const readFirst = offered.length > 0 && offered.every((t) => !changes.has(t)) && offered.some((t) => before.has(t));
      const requirement = requirementOf(sop, here);
      if (requirement !== undefined && goesOn(sop.transitions, s.path, target)) return requirement.tools.some((t) => before.has(t));
      if (requirement === undefined && required.has(here)) return false;
      return offered.length === 0 || readFirst;
    };
    const moves = (s: State): State[] =>
      legalTargets(sop.transitions, s.path, s.visits).flatMap((target) => {
        if (!leaves(s, target)) return [];
        const verdict = decideMove(sop.transitions, s.path, target, s.visits);
        if (!verdict.ok) return [];
        const blocked = (sop.policies ?? []).some((p) => p.guards.includes(target) && !verdict.path.some((n) => p.passes.includes(n)));
        return blocked ? [] : [{ i: s.i, path: verdict.path, visits: verdict.visits, called: false }];
      });
    const sync = (s: State): State | null => {
      const here = s.path.at(-1);
      const tool = tools[s.i];
      if (here === undefined || tool === undefined || !(sop.toolsByNode[here] ?? []).includes(tool)) return null;
      // A node that requires evidence is passed by a call of its evidence tools only.
      const passes = requirementOf(sop, here)?.tools.includes(tool) ?? true;
      return { ...s, i: s.i + 1, called: s.called || passes };
    };
    const seen = new Map<string, State>();
    const edges = new Map<string, string[]>();
    const start: State = { i: 0, path: [], visits: NO_VISITS, called: false };
    const queue = [start];
    seen.set(key(start), start);
    while (queue.length > 0) {
      const s = queue.pop()!;
      const next = [...moves(s), ...[sync(s)].filter((x): x is State => x !== null)];
      edges.set(key(s), next.map(key));
      for (const n of next) {
        if (seen.has(key(n))) continue;
        seen.set(key(n), n);
        queue.push(n);
      }
    }
    const alive = new Set([...seen.keys()].filter((k) => seen.get(k)!.i === tools.length));
    for (let grown = true; grown; ) {
      grown = false;
      for (const [k, next] of edges) {
        if (alive.has(k) || !next.some((n) => alive.has(n))) continue;
        alive.add(k);
        grown = true;
      }
    }
    const nodes = tools.map(() => new Set<string>());
    for (const k of alive) {
      const s = seen.get(k)!;
      const after = sync(s);
      if (after !== null && alive.has(key(after))) nodes[s.i]!.add(s.path.at(-1)!);
    }
    return nodes;
  }

  /**
   * A random walk of `length` moves along the rule; at each node with tools it calls one (never a guarded change), but
   * now and then skips a node of reads one of whose tools it already called (it read first).
   */
  const walkArbitrary = (sop: CompiledSop) =>
    fc
      .tuple(fc.array(fc.nat(), { minLength: 4, maxLength: 18 }), fc.array(fc.nat(), { minLength: 18, maxLength: 18 }))
      .map(([choices, picks]) => {
        const required = requiredNodes(sop);
        const changes = new Set((sop.policies ?? []).flatMap((p) => p.tools));
        let path: readonly string[] = [];
        let visits: Visits = NO_VISITS;
        const calls: { node: string; tool: string }[] = [];
        for (const [step, choice] of choices.entries()) {
          const targets = legalTargets(sop.transitions, path, visits);
          const target = targets[choice % targets.length]!;
          const verdict = decideMove(sop.transitions, path, target, visits);
          if (!verdict.ok) break;
          ({ path, visits } = verdict);
          const all = sop.toolsByNode[target] ?? [];
          const offered = all.filter((tool) => !confirmationGuards(sop, tool));
          // A node that requires evidence is served with its evidence tools (as a conforming agent does).
          const tools = requirementOf(sop, target)?.tools ?? offered;
          const readFirst = all.every((t) => !changes.has(t)) && all.some((t) => calls.some((c) => c.tool === t));
          // A required node is always served (else the walk itself skips it), a node it read for already now and then.
          if (tools.length > 0 && (required.has(target) || !readFirst || picks[step]! % 3 !== 0))
            calls.push({ node: target, tool: tools[picks[step]! % tools.length]! });
          // A node with tools the walk cannot serve (only guarded changes there) ends it: leaving would cost.
          if (tools.length === 0 && all.length > 0) break;
        }
        return calls;
      });

  it.each([
    ['retail_customer_support', RETAIL],
    ['it_helpdesk', HELPDESK],
  ])('%s: cost 0, each identifiable call placed at its node, and exactly the others reported undetermined', (_, sop) => {
    fc.assert(
      fc.property(walkArbitrary(sop), (calls) => {
        const report = replayOf(chat(calls.map((c) => ({ call: c.tool, args: {} }))), sop.meta.agent);
        const c = report.conformance;
        expect(c.cost).toBe(0);
        const oracle = zeroCostNodes(
          sop,
          calls.map((x) => x.tool),
        );
        const order = (nodes: Iterable<string>) => [...nodes].sort((a, b) => sop.nodeIds.indexOf(a) - sop.nodeIds.indexOf(b));
        expect(c.ambiguity.undetermined.map((u) => ({ step: u.step, nodes: u.nodes }))).toEqual(
          oracle.flatMap((nodes, i) => (nodes.size > 1 ? [{ step: i + 1, nodes: order(nodes) }] : [])),
        );
        for (const [i, nodes] of oracle.entries()) {
          expect(nodes.has(calls[i]!.node)).toBe(true);
          if (nodes.size === 1) expect(report.timeline[i]!.from, `call ${i + 1} (${calls[i]!.tool})`).toBe(calls[i]!.node);
        }
      }),
      { numRuns: 60, seed: 17 },
    );
  });
});

describe('the search', () => {
  const cancel = actsOfWalk(RETAIL, ['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL', 'END_CANCEL']);
  const messages = chat(chatStepsOf(cancel, false));

  it('gives the same report whatever transcripts the SOP’s model met before, and in whatever order', () => {
    const fresh = (): SopBundle => JSON.parse(JSON.stringify(bundle)) as SopBundle;
    const alone = replayOf(messages, RETAIL.meta.agent, { bundle: fresh() });
    const warmed = fresh();
    for (const walk of goldenPaths(RETAIL).paths.slice(40).reverse())
      replayOf(chat(chatStepsOf(actsOfWalk(RETAIL, walk.nodes), false)), RETAIL.meta.agent, { bundle: warmed });
    expect(JSON.stringify(replayOf(messages, RETAIL.meta.agent, { bundle: warmed }))).toBe(JSON.stringify(alone));
  });

  it('says when its bound cut the search, and still gives a walk along the rule', () => {
    const skipped = cancel.filter((a) => !(a.act === 'call' && a.node === 'AUTH'));
    const exact = replayActs(RETAIL, skipped, false).conformance;
    const bounded = replayOf(chat(chatStepsOf(skipped, false)), RETAIL.meta.agent, { maxStates: 3 }).conformance;
    expect(exact.search).toMatchObject({ exact: true, cut_at_step: null });
    expect(bounded.search).toMatchObject({ exact: false, bound: 3 });
    expect(bounded.search.cut_at_step).not.toBeNull();
    expect(bounded.cost).toBeGreaterThanOrEqual(exact.cost);
    let path: readonly string[] = [];
    let visits: Visits = NO_VISITS;
    for (const node of bounded.walk) {
      const verdict = decideMove(RETAIL.transitions, path, node, visits);
      expect(verdict.ok, `${path.join(' > ')} → ${node}`).toBe(true);
      if (verdict.ok) ({ path, visits } = verdict);
    }
    expect(bounded.fitness).toBeGreaterThanOrEqual(0);
    expect(bounded.fitness).toBeLessThanOrEqual(exact.fitness);
  });

  it('computes fitness as 1 − cost / worst cost, the worst being every call a deviation before the first move', () => {
    const report = replayActs(
      RETAIL,
      cancel.filter((a) => !(a.act === 'call' && a.node === 'AUTH')),
      false,
    ).conformance;
    // Calls: get_user_details (worst 1), cancel_pending_order (worst 1 + confirm_before_changes 1).
    expect([report.cost, report.worst_cost, report.fitness]).toEqual([1, 3, 0.6667]);
  });

  it('counts a move no goto_node declared when the transcript declares its moves, and names the calls placed elsewhere', () => {
    // Declared as far as ROUTE, then three lookups INFO offers: one undeclared move explains them (1), three log moves would cost 3.
    const acts: Act[] = [
      ...actsOfWalk(RETAIL, ['START', 'AUTH', 'ROUTE']),
      ...['get_order_details', 'get_user_details', 'calculate'].map((tool) => ({ act: 'call' as const, node: 'INFO', tool })),
    ];
    const report = replayActs(RETAIL, acts, true);
    expect(deviations(report)).toEqual([{ kind: 'undeclared_move', step: 5, node: 'INFO' }]);
    expect(report.conformance.disagreements).toEqual([
      { step: 5, tool: 'get_order_details', declared: 'ROUTE', inferred: 'INFO' },
      { step: 6, tool: 'get_user_details', declared: 'ROUTE', inferred: 'INFO' },
      { step: 7, tool: 'calculate', declared: 'ROUTE', inferred: 'INFO' },
    ]);
    // The server's view stays the verdict's: the calls were not allowed at ROUTE.
    expect(report.findings.map((f) => [f.rule, f.step])).toEqual([
      ['tool_not_allowed', 5],
      ['tool_not_allowed', 6],
      ['tool_not_allowed', 7],
      ['unfinished', null],
    ]);
  });
});
