/**
 * Row 7: what a `goto_node` answer costs in model tokens beyond the node's own content, with a real tokenizer
 * (gpt-tokenizer, o200k_base). The answer is the text content the server returns (what the model reads).
 *   - envelope (the issue's definition) = answer tokens − tokens of the node's prompt − tokens of its
 *     examples' user and agent lines; over every `goto_node` of the seed's walkthrough (Sophia Martin: change
 *     an order's address, update the default address, exchange a tablet; with its todo calls) on the
 *     project's retail SOP: max envelope ≤ 60;
 *   - structural envelope = the envelope minus the rest of the authored text the answer carries (the node's
 *     description and its edges' conditions): what the JSON structure itself costs (keys, brackets, ids,
 *     types, tool names, the path, flags), same walkthrough, same goal;
 *   - a long conversation of 30 moves planned so that the 5th and the 30th enter the same node:
 *     envelope(30th) ÷ envelope(5th) ≤ 1.2 (the answer must not grow with the conversation).
 * Authored texts are counted on their own, unescaped, as the issue counts the prompt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { connectStdio, type StdioConnection, type ToolAnswer } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { missing } from '../project.js';
import { row, unmeasured, type Row } from '../report.js';
import { median } from '../stats.js';
import { assertMoved } from '../walk.js';
import { SEED_AGENT } from './agent-choice.js';

const WALK = { name: 'goto_node envelope tokens, seed walkthrough (max)', goal: '<= 60', goalOn: 'value', unit: 'tokens' } as const;
const STRUCTURE = {
  name: 'goto_node structural envelope, seed walkthrough (max)',
  goal: '<= 60',
  goalOn: 'value',
  unit: 'tokens',
} as const;
const GROWTH = { name: 'goto_node envelope, 30th ÷ 5th call', goal: '<= 1.2', unit: 'tokens' } as const;

type Todo = { content: string; status: 'pending' | 'in_progress' | 'completed'; completion_node: string; note?: string };
const task = (content: string, completion_node: string, status: Todo['status'], note?: string): Todo => ({
  content,
  status,
  completion_node,
  ...(note ? { note } : {}),
});
const ADDR = 'Change shipping address on pending order';
const UADDR = 'Update default user address';
const EXCH = 'Exchange tablet for cheapest option';
const NOTE = 'Use 456 Elm Ave from luggage order #W9834521';

/** The seed's walkthrough: node ids to move to, and todo lists to write, in order. */
const WALKTHROUGH: readonly (string | readonly Todo[])[] = [
  [task(ADDR, 'END_MOD', 'pending'), task(UADDR, 'END_UADDR', 'pending'), task(EXCH, 'END_EXCH', 'pending')],
  'START',
  'AUTH',
  'ROUTE',
  'CHK_MOD',
  [task(ADDR, 'END_MOD', 'in_progress'), task(UADDR, 'END_UADDR', 'pending', NOTE), task(EXCH, 'END_EXCH', 'pending')],
  'IS_PENDING_M',
  'COLLECT_MOD_ADDR',
  'DO_MOD_ADDR',
  'END_MOD',
  [task(ADDR, 'END_MOD', 'completed'), task(UADDR, 'END_UADDR', 'in_progress', NOTE), task(EXCH, 'END_EXCH', 'pending')],
  'ROUTE',
  'COLLECT_USER_ADDR',
  'DO_USER_ADDR',
  'END_UADDR',
  [task(ADDR, 'END_MOD', 'completed'), task(UADDR, 'END_UADDR', 'completed'), task(EXCH, 'END_EXCH', 'in_progress')],
  'ROUTE',
  'CHK_EXCH',
  'IS_DELIVERED_E',
  'COLLECT_EXCH',
  'DO_EXCH',
  'END_EXCH',
  [task(ADDR, 'END_MOD', 'completed'), task(UADDR, 'END_UADDR', 'completed'), task(EXCH, 'END_EXCH', 'completed')],
];

interface AnswerText {
  readonly node?: { description?: string; prompt?: string; examples?: readonly { user: string; agent: string }[] };
  readonly edges?: readonly { condition: string | null }[];
}

/** Tokens of the node's prompt and examples (what the issue subtracts). */
function contentTokens(answer: ToolAnswer): number {
  const { node = {} } = answer.data as AnswerText;
  return (
    (node.prompt ? countTokens(node.prompt) : 0) +
    (node.examples ?? []).reduce((sum, e) => sum + countTokens(e.user) + countTokens(e.agent), 0)
  );
}

/** Tokens of the rest of the authored text: the node's description and its edges' conditions. */
function labelTokens(answer: ToolAnswer): { description: number; conditions: number } {
  const { node = {}, edges = [] } = answer.data as AnswerText;
  return {
    description: node.description ? countTokens(node.description) : 0,
    conditions: edges.reduce((sum, e) => sum + (e.condition ? countTokens(e.condition) : 0), 0),
  };
}

/** Answer tokens minus the node's own prompt and examples (the issue's definition). */
export function envelope(answer: ToolAnswer): number {
  return countTokens(answer.text) - contentTokens(answer);
}

/** Answer tokens minus every authored text in it: prompt, examples, description, edge conditions. */
export function structuralEnvelope(answer: ToolAnswer): number {
  const { description, conditions } = labelTokens(answer);
  return envelope(answer) - description - conditions;
}

/**
 * `steps` moves from `from` that end at `target`, the way an agent moves: along the flowchart's edges, and
 * back to an open hub only from a terminal node (the next intent); never the entry node (it would reset the
 * path). Chosen by exact-length reachability, rotating among the options so the conversation wanders through
 * several branches.
 */
export function planReturn(sop: CompiledSop, from: string, target: string, steps: number, openHubs: readonly string[]): string[] {
  const moves = (n: string): string[] => {
    const successors = (sop.edges[n] ?? []).map((e) => e.to);
    return [...new Set(successors.length > 0 ? successors : openHubs)].filter((m) => m !== sop.transitions.entry);
  };
  const reach: Set<string>[] = [new Set([target])];
  for (let k = 1; k <= steps; k++) {
    const previous = reach[k - 1] as Set<string>;
    reach.push(new Set(sop.nodeIds.filter((n) => moves(n).some((m) => previous.has(m)))));
  }
  if (!reach[steps]?.has(from)) throw new Error(`no walk of exactly ${steps} moves from ${from} back to ${target}`);
  const walk: string[] = [];
  let current = from;
  for (let k = steps; k >= 1; k--) {
    const options = moves(current).filter((m) => reach[k - 1]?.has(m));
    current = options[(k * 7) % options.length] as string;
    walk.push(current);
  }
  return walk;
}

/** Tokens of one field of an answer, as compact JSON. */
function fieldTokens(answer: ToolAnswer, key: string): number {
  return countTokens(JSON.stringify(answer.data[key] ?? null));
}

/** The envelope without the answer's edges and path (what is left: keys, id, type, description, flags). */
function bare(e: { tokens: number; answer: ToolAnswer }): number {
  return e.tokens - fieldTokens(e.answer, 'edges') - fieldTokens(e.answer, 'path');
}

/** Where a large envelope goes. */
function breakdown(answer: ToolAnswer): string {
  const { description, conditions } = labelTokens(answer);
  return `edges ${fieldTokens(answer, 'edges')} (conditions ${conditions}), description ${description}, path ${fieldTokens(answer, 'path')} tokens`;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const absent = missing('serveCommand');
  if (absent) return [unmeasured(WALK, absent), unmeasured(STRUCTURE, absent), unmeasured(GROWTH, absent)];
  const fixture = await ctx.fixture();
  if (!fixture.copied.includes(SEED_AGENT)) {
    const note = `sops/${SEED_AGENT}.md (the seed's example) is not in the project`;
    return [unmeasured(WALK, note), unmeasured(STRUCTURE, note), unmeasured(GROWTH, note)];
  }
  const bundle = JSON.parse(readFileSync(join(fixture.dir, 'generated', 'sop-bundle.json'), 'utf8')) as SopBundle;
  const sop = bundle.agents[SEED_AGENT];
  if (!sop) throw new Error(`${SEED_AGENT} is not in the generated bundle`);

  let server: StdioConnection | undefined;
  try {
    server = await connectStdio([fixture.cli, 'serve'], fixture.dir, ctx.signal);
    const s = server;
    const load = async (): Promise<void> => {
      const loaded = await s.call('load_graph', { agent: SEED_AGENT });
      if (loaded.isError) throw new Error(`load_graph failed: ${loaded.text.slice(0, 300)}`);
    };
    const goto = async (id: string): Promise<ToolAnswer> => {
      const answer = await s.call('goto_node', { node_id: id });
      assertMoved(answer, id);
      return answer;
    };
    const todo = async (todos: readonly Todo[]): Promise<void> => {
      const answer = await s.call('todo', { todos });
      if (answer.isError) throw new Error(`todo failed: ${answer.text.slice(0, 300)}`);
    };

    ctx.log('row 7: the seed walkthrough');
    await load();
    const envelopes: { node: string; tokens: number; structure: number; answer: ToolAnswer }[] = [];
    for (const step of WALKTHROUGH) {
      if (typeof step !== 'string') await todo(step);
      else {
        const answer = await goto(step);
        envelopes.push({ node: step, tokens: envelope(answer), structure: structuralEnvelope(answer), answer });
      }
    }
    const worst = envelopes.reduce((a, b) => (b.tokens > a.tokens ? b : a));
    const worstStructure = envelopes.reduce((a, b) => (b.structure > a.structure ? b : a));

    ctx.log('row 7: a 30-move conversation');
    await load();
    await todo(WALKTHROUGH[0] as readonly Todo[]);
    const prefix = ['START', 'AUTH', 'ROUTE', 'CHK_MOD', 'IS_PENDING_M'];
    const fifth = prefix[4] as string;
    const moves = [
      ...prefix,
      ...planReturn(
        sop,
        fifth,
        fifth,
        25,
        sop.transitions.hubs.filter((h: string) => prefix.includes(h)),
      ),
    ];
    const long: number[] = [];
    let last: ToolAnswer | undefined;
    for (const id of moves) {
      last = await goto(id);
      long.push(envelope(last));
    }
    if (!last) throw new Error('no moves');
    const env5 = long[4] as number;
    const env30 = long[29] as number;
    return [
      row({
        ...WALK,
        value: worst.tokens,
        note: `o200k_base; ${envelopes.length} answers, median ${median(envelopes.map((e) => e.tokens))}, max at ${worst.node} (${breakdown(worst.answer)}); max without edges and path: ${Math.max(...envelopes.map(bare))}; answer = its text content`,
      }),
      row({
        ...STRUCTURE,
        value: worstStructure.structure,
        note: `envelope minus description and edge conditions; median ${median(envelopes.map((e) => e.structure))}, max at ${worstStructure.node} (${breakdown(worstStructure.answer)}); by call: ${envelopes.map((e) => `${e.node} ${e.structure}`).join(', ')}`,
      }),
      row({
        ...GROWTH,
        value: env30,
        floor: env5,
        note: `both enter ${fifth}; 30th answer: ${breakdown(last)}; envelopes by call: ${long.join(' ')}`,
      }),
    ];
  } finally {
    await server?.close().catch(() => {});
  }
}

export const tokensRow: BenchRow = {
  id: 'tokens',
  title: 'tokens of goto_node answers',
  specs: [WALK, STRUCTURE, GROWTH],
  budgetMs: 60_000,
  run,
};
