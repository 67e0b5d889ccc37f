/**
 * Row: what deciding branches by data costs `goto_node`. The gateway's `goto_node` (`gatewayGotoNode`: the step
 * function with the domain calls' rules) on the retail SOP, whose four status decisions carry `when` conditions, ÷
 * the same tool on the same SOP with its conditions taken out (the edges stay, their labels the agent's judgement).
 * A tour through every status decision, its changes and back to ROUTE, on a run that has read two orders (one pending,
 * one delivered: every branch holds for one of them, and the run keeps which) and found its user. In process, medians
 * of alternating batches, so the ratio is the decision's own cost, not the transport's. Goal ≤ 1.1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { EMPTY_RUN_STATE, type EvidenceRecord, type RunState } from '../../contract/run/state.js';
import { prepareAgent, type PreparedAgent } from '../../contract/answers/prepared-agent.js';
import { gatewayGotoNode } from '../../runtime/tools/goto-node.js';
import type { BenchContext, BenchRow } from '../context.js';
import { ROOT } from '../project.js';
import { row, type Row } from '../report.js';
import { median, repeatPair } from '../stats.js';

const SPEC = { name: 'gateway goto_node with data conditions ÷ with text conditions (retail)', goal: '<= 1.1', unit: 'µs' } as const;

/** Every status decision, each of its "yes" branches to the change, back to ROUTE after each. */
const TOUR = [
  'START',
  'AUTH',
  'ROUTE',
  'CHK_CANCEL',
  'IS_PENDING_C',
  'COLLECT_CANCEL',
  'DO_CANCEL',
  'ROUTE',
  'CHK_MOD',
  'IS_PENDING_M',
  'COLLECT_MOD_ADDR',
  'DO_MOD_ADDR',
  'ROUTE',
  'CHK_MOD',
  'IS_PENDING_M',
  'MOD_TYPE',
  'COLLECT_MOD_ITEMS',
  'DO_MOD_ITEMS',
  'ROUTE',
  'CHK_RETURN',
  'IS_DELIVERED_R',
  'COLLECT_RETURN',
  'DO_RETURN',
  'ROUTE',
  'CHK_EXCH',
  'IS_DELIVERED_E',
  'COLLECT_EXCH',
  'DO_EXCH',
  'ROUTE',
];

/** What a run has read: its user, and two orders of different status. */
const READ: readonly EvidenceRecord[] = [
  { node: 'AUTH', depth: 1, tool: 'find_user_id_by_email', about: { name: 'user_id', value: 'sophia_martin_4832' } },
  { node: 'INFO', depth: 3, tool: 'get_order_details', about: { name: 'order_id', value: '#W4817420' }, data: [['status', 'pending']] },
  { node: 'INFO', depth: 3, tool: 'get_order_details', about: { name: 'order_id', value: '#W6235914' }, data: [['status', 'delivered']] },
];

/** One tour of `goto_node` calls; throws when a move is refused (the tour must be legal for both SOPs). */
function tour(agent: PreparedAgent): () => void {
  return () => {
    let state: RunState = { ...EMPTY_RUN_STATE, evidence: READ };
    for (const node_id of TOUR) {
      const moved = gatewayGotoNode(agent, state, { node_id });
      if (moved.outcome !== 'ok') throw new Error(`${node_id}: ${JSON.stringify(moved.answer)}`);
      state = moved.state;
    }
  };
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'generated', 'sop-bundle.json'), 'utf8')) as SopBundle;
  const retail = bundle.agents.retail_customer_support;
  if (retail?.conditions === undefined) throw new Error('the retail SOP of the bundle decides nothing by data (npm run build:sops)');
  const { conditions: _data, ...text } = retail;
  const withData = prepareAgent(retail);
  const withText = prepareAgent(text as CompiledSop);
  const laps = ctx.quick ? 20 : 400;
  const runs = ctx.quick ? 3 : 25;
  const lap = (agent: PreparedAgent) => {
    const once = tour(agent);
    return () => {
      for (let i = 0; i < laps; i++) once();
    };
  };
  ctx.log(`row: gateway goto_node, ${TOUR.length} moves × ${laps} laps, with and without data conditions, ${runs} runs each`);
  const times = await repeatPair(lap(withData), lap(withText), { warmup: 3, runs });
  const perMove = (ms: number) => (ms * 1000) / (laps * TOUR.length);
  return [
    row({
      ...SPEC,
      value: perMove(median(times.subject)),
      floor: perMove(median(times.baseline)),
      note:
        `${TOUR.length} moves a lap (every status decision of the retail SOP, 8 of them decided by data), a run that read ` +
        `its user and two orders (pending, delivered), in process`,
    }),
  ];
}

export const dataConditionsRow: BenchRow = {
  id: 'data-conditions',
  title: 'goto_node deciding branches by data',
  specs: [SPEC],
  budgetMs: 60_000,
  run,
};
