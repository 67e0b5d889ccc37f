/**
 * One engine, two uses: random conversations with the retail SOP, played through the gateway over MCP (a real SDK
 * client, the gateway's session service, a real MCP server upstream over Streamable HTTP answering what the test
 * scripts: orders of random status, users found or not, empty answers, errors, calls that never come back), get the
 * same decision at every step when `sop replay` reads them back, from the gateway's audit log and from a τ²-bench
 * transcript of what the client saw (the user's yes or no said where the gateway asked). The moves and calls are
 * random too: mostly what the SOP offers where the run is, sometimes anything. And the audit log and the transcript
 * get the same verdict and the same deviations.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { entryOf } from '../../../contract/name-table.js';
import type { FindingRule } from '../../../analysis/replay/check-conversation.js';
import { replay } from '../../../analysis/replay/replay.js';
import type { ReplayReport } from '../../../analysis/replay/replay-report.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';
import type { Turn } from '../../support/corpus/writers/turns.js';
import { writeTau2Simulation } from '../../support/corpus/writers/tau2.js';
import { type GatewayUnderTest, legacyClient, REPO_BUNDLE, RETAIL, startGateway } from '../../support/gateway.js';
import { type ScriptedAnswer, type ScriptedServer, startScriptedServer } from '../../support/scripted-server.js';

const retail = REPO_BUNDLE.agents[RETAIL]!;
let upstream: ScriptedServer;
let gateway: GatewayUnderTest;
let bundle: SopBundle;

beforeAll(async () => {
  upstream = await startScriptedServer(retail.tools);
  const sop: CompiledSop = {
    ...retail,
    meta: { ...retail.meta, mcpServers: [{ name: 'retail-tools', url: upstream.url, timeout_ms: 150 }] },
  };
  bundle = { ...REPO_BUNDLE, agents: { [RETAIL]: sop } };
  gateway = await startGateway({ bundle });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const ORDERS = ['#A', '#B', '#C'];
const STATUSES = ['pending', 'delivered', 'pending (item modified)', 'processed'];
const LOOKUPS = new Set(['find_user_id_by_email', 'find_user_id_by_name_zip']);

/** One step of a random conversation: choices the run interprets where it stands (see `play`). */
interface Choice {
  readonly kind: 'move' | 'call';
  /** Which of the offered moves or tools (mostly), or anything (`wild`). */
  readonly pick: number;
  readonly wild: boolean;
  readonly order: number;
  /** Which answer the upstream gives: see `answerFor`. */
  readonly answer: number;
  readonly status: number;
  /** The user's answer if the gateway asks. */
  readonly yes: boolean;
}

const choice: fc.Arbitrary<Choice> = fc.record({
  kind: fc.constantFrom('move', 'call') as fc.Arbitrary<'move' | 'call'>,
  pick: fc.nat(),
  wild: fc.nat({ max: 9 }).map((n) => n === 0),
  order: fc.nat({ max: ORDERS.length - 1 }),
  answer: fc.nat({ max: 99 }),
  status: fc.nat({ max: STATUSES.length - 1 }),
  yes: fc.boolean(),
});

/** What the upstream answers a call: mostly found, sometimes empty, an error, an error without the flag, or nothing ever. */
function answerFor(tool: string, args: Record<string, unknown>, c: Choice): ScriptedAnswer {
  if (c.answer < 4) return 'hang';
  if (c.answer < 10) return { text: `No such thing as ${JSON.stringify(args)}`, isError: true };
  if (c.answer < 14) return { text: JSON.stringify({ error: 'not found' }) };
  if (c.answer < 20) return c.answer % 2 === 0 ? { text: '' } : { text: '[]', structuredContent: { result: [] } };
  if (LOOKUPS.has(tool)) return { text: JSON.stringify({ result: 'sophia_1' }), structuredContent: { result: 'sophia_1' } };
  if (typeof args.order_id === 'string') {
    const order = { order_id: args.order_id, user_id: 'sophia_1', status: STATUSES[c.status]! };
    return { text: JSON.stringify(order), structuredContent: order };
  }
  return { text: JSON.stringify({ ok: true }), structuredContent: { ok: true } };
}

/** What the gateway decided at a step: the move or call went on (`ok`), or the rule that held it. */
type Decision = 'ok' | string;

const MOVE_FINDINGS: Readonly<Record<string, FindingRule>> = {
  'not-a-move': 'illegal_move',
  'unknown-node': 'illegal_move',
  'visit-limit': 'visit_limit',
  evidence: 'skipped_required',
  data: 'against_data',
};
const CALL_FINDINGS: Readonly<Record<string, readonly FindingRule[]>> = {
  'no-position': ['tool_not_allowed'],
  'not-in-sop': ['tool_not_allowed'],
  'node-tools': ['tool_not_allowed'],
  policy: ['policy', 'unconfirmed_call'],
  evidence: ['unproven_entity'],
  data: ['unproven_entity'],
  'unknown-outcome': ['unsettled_change'],
  confirmation: ['unconfirmed_call'],
};

/** Plays a random conversation through the gateway; returns the decisions, the turns the client saw, and the run. */
async function play(choices: readonly Choice[], prefix: string) {
  const lastYes: boolean[] = [];
  const client = await legacyClient(gateway, () => lastYes.shift() ?? false);
  const turns: Turn[] = [];
  const decisions: { step: number; kind: 'move' | 'call'; decision: Decision }[] = [];
  const loaded = await client.call('load_graph', { agent: RETAIL });
  turns.push({ call: 'load_graph', args: { agent: RETAIL }, answer: { text: loaded.text } });
  const runId = loaded.answer.run_id as string;
  let here: string | null = null;
  let path: readonly string[] = [];
  let calledHere = false;
  let lost: { tool: string; args: Record<string, unknown> } | undefined;
  for (const [i, c] of choices.entries()) {
    // Mostly what an agent following the SOP does (call a tool where one is offered and none was called yet, else go
    // on along an edge; from a terminal, back to the hub or the start); now and then anything (`wild`).
    const tools = here === null ? [] : (entryOf(retail.toolsByNode, here) ?? []);
    const retry = lost !== undefined && c.pick % 2 === 0;
    const kind = retry ? 'call' : c.wild ? c.kind : tools.length > 0 && !calledHere ? 'call' : 'move';
    if (kind === 'move') {
      const successors = here === null ? [] : (entryOf(retail.transitions.successors, here) ?? []);
      const back = [retail.transitions.entry, ...retail.transitions.hubs.filter((h) => path.includes(h))];
      const offered = here === null ? [retail.transitions.entry] : successors.length > 0 ? successors : back;
      const target = c.wild ? retail.nodeIds[c.pick % retail.nodeIds.length]! : offered[c.pick % offered.length]!;
      const moved = await client.call('goto_node', { node_id: target });
      turns.push({
        call: 'goto_node',
        args: { node_id: target },
        answer: { text: moved.text, ...(moved.isError ? { isError: true } : {}) },
      });
      let decision: Decision = 'ok';
      if (moved.isError) decision = 'unknown-node';
      else if (moved.answer.valid === true) {
        if (moved.answer.path.at(-1) !== here) calledHere = false;
        path = moved.answer.path;
        here = path.at(-1) ?? null;
      } else {
        const audit = await gateway.store.audit(runId, { limit: 10_000 });
        const detail = audit.at(-1)!.detail;
        decision = detail?.kind === 'move' ? (detail.rule ?? 'refused') : 'refused';
        // Held at a step: call its tools again (a new answer may prove what was missing), or go elsewhere.
        calledHere = c.pick % 2 === 0;
      }
      decisions.push({ step: decisions.length + 1, kind: 'move', decision });
      continue;
    }
    calledHere = true;
    const required = here === null ? undefined : entryOf(retail.evidence, here)?.tools;
    const offered = required ?? tools;
    const call = `${prefix}c${i}`;
    // An agent whose call never came back often tries it again.
    const again = retry ? lost : undefined;
    const tool =
      again?.tool ?? (c.wild || offered.length === 0 ? retail.tools[c.pick % retail.tools.length]! : offered[c.pick % offered.length]!);
    const args: Record<string, unknown> = { ...(again?.args ?? {}), call };
    if (again === undefined) {
      if (LOOKUPS.has(tool)) args.email = 'sophia@example.com';
      else if (tool === 'get_user_details' || tool === 'modify_user_address') args.user_id = 'sophia_1';
      else if (!['calculate', 'list_all_product_types', 'transfer_to_human_agents', 'get_product_details'].includes(tool))
        args.order_id = ORDERS[c.order];
    }
    const answer = answerFor(tool, args, c);
    lost = answer === 'hang' ? { tool, args } : undefined;
    upstream.answers.set(call, answer);
    const asked = client.asked.length;
    lastYes.push(c.yes);
    const result = await client.call(tool, args);
    lastYes.length = 0;
    if (client.asked.length > asked) turns.push({ say: `May I call ${tool} now?` }, { user: c.yes ? 'Yes, go ahead.' : 'No, wait.' });
    turns.push({ call: tool, args, answer: { text: result.text, ...(result.isError ? { isError: true } : {}) } });
    const refused = result.isError && typeof result.answer === 'object' && result.answer !== null ? result.answer.refused_by : undefined;
    decisions.push({ step: decisions.length + 1, kind: 'call', decision: typeof refused === 'string' ? refused : 'ok' });
  }
  await client.close();
  return { decisions, turns, runId };
}

function replayed(text: string, file: string): ReplayReport {
  const outcome = replay({ bundle, text, file, agent: RETAIL });
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.report;
}

/** The rules of a replayed step that are errors, in the order found. */
function stepRules(report: ReplayReport, step: number): FindingRule[] {
  return report.findings.filter((f) => f.step === step && f.severity === 'error').map((f) => f.rule);
}

it('decides every step of random conversations the same through the gateway over MCP and in replay, from its audit and from a transcript', async () => {
  let run = 0;
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(fc.array(choice, { minLength: 10, maxLength: 45 }), async (choices) => {
      run += 1;
      const { decisions, turns, runId } = await play(choices, `r${run}`);
      for (const { kind, decision } of decisions) seen.add(`${kind} ${decision}`);
      const stored = await gateway.store.read(runId, 0);
      if (stored.status !== 'found') throw new Error('the run is gone');
      const audit = await gateway.store.audit(runId, { limit: 10_000 });
      const fromAudit = replayed(JSON.stringify({ run: stored.run, audit }), `run-${run}.json`);
      const fromTranscript = replayed(writeTau2Simulation(turns, { n: run, reward: 1 }), `sim-${run}.json`);
      for (const report of [fromAudit, fromTranscript]) {
        for (const { step, kind, decision } of decisions) {
          const rules = stepRules(report, step);
          const what = `${report.file} step ${step} (${kind}): gateway ${decision}, replay ${rules.join(', ') || 'ok'}`;
          if (decision === 'ok') expect(rules, what).toEqual([]);
          else {
            const expected = kind === 'move' ? [MOVE_FINDINGS[decision]!] : CALL_FINDINGS[decision]!;
            expect(expected, what).toContain(rules[0]);
          }
        }
        expect(report.findings.filter((f) => f.rule === 'recorded_answer_differs')).toEqual([]);
      }
      expect(fromTranscript.verdict).toBe(fromAudit.verdict);
      expect(fromTranscript.conformance.deviations.map((d) => [d.kind, d.step, d.node])).toEqual(
        fromAudit.conformance.deviations.map((d) => [d.kind, d.step, d.node]),
      );
      // What reached the server is exactly what the audit says was sent.
      const sent = audit.filter((entry) => {
        const detail = domainDetailOf(entry);
        return detail?.phase === 'forwarding' || (detail?.phase === 'answered' && detail.read === true);
      });
      expect(upstream.received.filter((r) => String(r.args.call).startsWith(`r${run}c`)).map((r) => r.args.call)).toEqual(
        sent.map((entry) => (entry.input as { call: string }).call),
      );
    }),
    { numRuns: 40, seed: 2511 },
  );
  // The conversations reached the rules of both kinds of steps (so the property is about them).
  for (const rule of [
    'call confirmation',
    'call evidence',
    'call node-tools',
    'call ok',
    'call unknown-outcome',
    'move data',
    'move evidence',
    'move not-a-move',
    'move ok',
  ]) {
    expect(seen, rule).toContain(rule);
  }
}, 120_000);
