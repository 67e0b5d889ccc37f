/**
 * Row 7: what a `goto_node` answer costs in model tokens beyond the node's own content and the fields the seed's
 * protocol asks for, with a real tokenizer (gpt-tokenizer, o200k_base). The answer is the text content the server
 * returns (what the model reads).
 *   - fixed overhead = answer tokens − the tokens of the node's content (its prompt, examples, description and
 *     tools) and of its outgoing edges, and of the seed's own fields (the path, the todo reminder), each counted as
 *     the compact JSON value the answer carries: what is left is what we add, the JSON envelope and its field names,
 *     the node's id and type, the `valid` flag. Over every `goto_node` of the seed's walkthrough
 *     (Sophia Martin: change an order's address, update the default address, exchange a tablet; with its todo
 *     calls) on the project's retail SOP: max ≤ 30. The note breaks the largest one down;
 *   - a long conversation of 30 moves planned so that the 5th and the 30th enter the same node:
 *     overhead(30th) ÷ overhead(5th) ≤ 1.2 (the answer must not grow with the conversation).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { connectStdio, type StdioConnection, type ToolAnswer } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { row, type Row } from '../report.js';
import { median } from '../stats.js';
import { assertMoved } from '../walk.js';
import { SEED_AGENT } from './agent-choice.js';

const OVERHEAD = {
  name: "goto_node fixed overhead beyond the node's content, edges and the seed's fields, seed walkthrough (max)",
  goal: '<= 30',
  goalOn: 'value',
  unit: 'tokens',
} as const;
const GROWTH = { name: 'goto_node fixed overhead, 30th ÷ 5th call', goal: '<= 1.2', unit: 'tokens' } as const;

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

/** Tokens of one value of an answer as compact JSON (0 when absent). */
function valueTokens(value: unknown): number {
  return value === undefined ? 0 : countTokens(JSON.stringify(value));
}

interface MoveData {
  readonly node?: { readonly description?: string; readonly prompt?: string; readonly tools?: unknown; readonly examples?: unknown };
  readonly edges?: unknown;
  readonly path?: unknown;
  readonly todo_reminder?: string;
}

/** Answer tokens minus the node's content, its outgoing edges and the seed's own fields (path, todo reminder). */
export function fixedOverhead(answer: ToolAnswer): number {
  const { node = {}, edges, path, todo_reminder } = answer.data as MoveData;
  const content = valueTokens(node.prompt) + valueTokens(node.examples) + valueTokens(node.description) + valueTokens(node.tools);
  return countTokens(answer.text) - content - valueTokens(edges) - valueTokens(path) - valueTokens(todo_reminder);
}

/** Where an answer's tokens go: the parts left out of the overhead, and the overhead. */
function breakdown(answer: ToolAnswer): string {
  const { node = {}, path, todo_reminder } = answer.data as MoveData;
  const parts = {
    path: valueTokens(path),
    description: valueTokens(node.description),
    tools: valueTokens(node.tools),
    todo_reminder: valueTokens(todo_reminder),
  };
  const listed = Object.entries(parts)
    .filter(([, tokens]) => tokens > 0)
    .map(([part, tokens]) => `${part} ${tokens}`);
  return `${[...listed, `the overhead (field names, punctuation, id, type and valid) ${fixedOverhead(answer)}`].join(', ')} tokens`;
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

async function run(ctx: BenchContext): Promise<Row[]> {
  const fixture = await ctx.fixture();
  if (!fixture.copied.includes(SEED_AGENT)) throw new Error(`sops/${SEED_AGENT}.md (the seed's example) is not in the project`);
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
    const overheads: { node: string; tokens: number; answer: ToolAnswer }[] = [];
    for (const step of WALKTHROUGH) {
      if (typeof step !== 'string') await todo(step);
      else {
        const answer = await goto(step);
        overheads.push({ node: step, tokens: fixedOverhead(answer), answer });
      }
    }
    const worst = overheads.reduce((a, b) => (b.tokens > a.tokens ? b : a));

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
      long.push(fixedOverhead(last));
    }
    if (!last) throw new Error('no moves');
    return [
      row({
        ...OVERHEAD,
        value: worst.tokens,
        note:
          `o200k_base, the answer's text content; ${overheads.length} answers, median ${median(overheads.map((e) => e.tokens))}, ` +
          `max at ${worst.node}: ${breakdown(worst.answer)}; by call: ${overheads.map((e) => `${e.node} ${e.tokens}`).join(', ')}`,
      }),
      row({
        ...GROWTH,
        value: long[29] as number,
        floor: long[4] as number,
        note: `both enter ${fifth}; 30th answer: ${breakdown(last)}; overhead by call: ${long.join(' ')}`,
      }),
    ];
  } finally {
    await server?.close().catch(() => {});
  }
}

export const tokensRow: BenchRow = {
  id: 'tokens',
  title: 'tokens of goto_node answers',
  specs: [OVERHEAD, GROWTH],
  budgetMs: 60_000,
  run,
};
