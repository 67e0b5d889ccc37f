/**
 * The search of `align.ts` against a plain Dijkstra over (event, run state, called) written the slow way, on random
 * SOPs (edges, hubs, tools, a required node with its policy, a node requiring evidence, an edge decided by data,
 * visit limits) and random traces full of deviations, with random answers (found, empty, failed, a status that
 * satisfies the edge's condition or not): the same least cost, the same number of moves, the same number of optimal
 * alignments, in both modes; and the chosen alignment's moves add up to its cost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { alignModel } from '../../../analysis/conformance/align-model.js';
import { type AlignMove, align, type TraceEvent } from '../../../analysis/conformance/align.js';
import { callCost, COSTS, type MoveView, moveCost, offers } from '../../../analysis/conformance/cost-model.js';
import { passes } from '../../../analysis/conformance/search.js';
import { type TraceFacts, traceFacts } from '../../../analysis/conformance/trace-facts.js';
import type { ToolCallEvent } from '../../../analysis/replay/conversation.js';

interface RandomSop {
  readonly edges: readonly (readonly [number, number])[];
  readonly hubs: readonly number[];
  readonly tools: readonly (readonly number[])[];
  readonly requiredNode: number;
  readonly limited: number | null;
  /** A node that requires evidence from t0 (fresh or not), and an edge from it decided by t0's `status`. */
  readonly evidenceNode: number;
  readonly fresh: boolean;
}

const NODES = 7;
const TOOLS = 4;

/** A SOP as plain compiled data: N0 the entry, N6 a terminal; a policy makes `requiredNode` required. */
function sopOf(random: RandomSop): CompiledSop {
  const ids = Array.from({ length: NODES }, (_, i) => `N${i}`);
  const successors = Object.fromEntries(ids.map((id) => [id, [] as string[]]));
  for (const [from, to] of random.edges)
    if (from !== NODES - 1 && !successors[ids[from]!]!.includes(ids[to]!)) successors[ids[from]!]!.push(ids[to]!);
  const tools = Array.from({ length: TOOLS }, (_, i) => `t${i}`);
  const toolsByNode = Object.fromEntries(ids.map((id, i) => [id, (random.tools[i] ?? []).map((t) => tools[t]!)]));
  const required = ids[random.requiredNode]!;
  const limited = random.limited === null || random.limited === 0 ? null : ids[random.limited]!;
  return {
    meta: { agent: 'random', version: '1', description: null, model: null, mcpServers: [] },
    sourceFile: 'sops/random.md',
    sourceHash: 'sha256:0',
    transitions: {
      entry: 'N0',
      hubs: random.hubs.map((h) => ids[h]!),
      successors,
      ...(limited === null ? {} : { limits: { [limited]: { max: 2, escalation: 'N6' } } }),
    },
    nodeIds: ids,
    nodes: Object.fromEntries(ids.map((id) => [id, { id, type: 'rectangle', description: id }])),
    edges: Object.fromEntries(ids.map((id) => [id, successors[id]!.map((to) => ({ to, condition: null, style: 'solid' as const }))])),
    prompts: {},
    decisionNodes: [],
    terminalNodes: ids.filter((id) => successors[id]!.length === 0),
    tools,
    toolsByNode,
    systemPrompt: '',
    systemPromptSections: [],
    flowchart: '',
    evidence: { [ids[random.evidenceNode]!]: { tools: ['t0'], about: null, ...(random.fresh ? { fresh: true } : {}) } },
    conditions: Object.fromEntries(
      successors[ids[random.evidenceNode]!]!.slice(0, 1).map((to) => [
        ids[random.evidenceNode]!,
        { [to]: { tool: 't0', field: ['status'], op: '==', values: ['ok'], text: 't0.status == ok' } },
      ]),
    ),
    policies: [
      {
        id: 'needs_required',
        description: null,
        severity: 'error',
        guards: ids.filter((id) => id !== 'N0' && id !== required),
        tools: [],
        passes: [required],
        confirmation: null,
      },
      { id: 'guarded_tool', description: null, severity: 'warning', guards: [], tools: ['t3'], passes: ['N5'], confirmation: null },
    ],
  } as CompiledSop;
}

const randomSop = fc.record({
  edges: fc.array(fc.tuple(fc.integer({ min: 0, max: NODES - 1 }), fc.integer({ min: 1, max: NODES - 1 })), {
    minLength: 6,
    maxLength: 16,
  }),
  hubs: fc.subarray([1, 2, 3, 4]),
  tools: fc.array(fc.subarray([0, 1, 2, 3]), { minLength: NODES, maxLength: NODES }),
  requiredNode: fc.integer({ min: 1, max: NODES - 2 }),
  limited: fc.option(fc.integer({ min: 1, max: NODES - 2 })),
  evidenceNode: fc.integer({ min: 0, max: NODES - 2 }),
  fresh: fc.boolean(),
});

const randomTrace = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({ tool: fc.integer({ min: 0, max: TOOLS - 1 }), answer: fc.constantFrom('ok', 'no', 'empty', 'failed') })
        .map(({ tool, answer }) => ({ kind: 'call' as const, tool, answer })),
    },
    { weight: 2, arbitrary: fc.integer({ min: -1, max: NODES - 1 }).map((target) => ({ kind: 'goto' as const, target })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
  ),
  { maxLength: 9 },
);

type RandomEvent = TraceEvent & { readonly answer?: 'ok' | 'no' | 'empty' | 'failed' };

/** What the trace's calls answered, as a transcript would show them, read into facts the way replay reads them. */
function factsOf(sop: CompiledSop, trace: readonly RandomEvent[]): TraceFacts {
  const model = alignModel(sop);
  return traceFacts(
    model,
    trace.map((event): ToolCallEvent | 'reset' | undefined => {
      if (event.kind === 'reset') return 'reset';
      if (event.kind !== 'call') return undefined;
      const base = { kind: 'call' as const, tool: model.tools[event.tool]!, args: {}, place: { message: 0 } };
      if (event.answer === 'failed') return { ...base, failed: true, result: { text: 'refused', isError: true } };
      if (event.answer === 'empty') return { ...base, result: { text: '[]' } };
      return { ...base, result: { structured: { status: event.answer } } };
    }),
  );
}

const view = (facts: TraceFacts, position: number): MoveView => ({
  observesCalls: true,
  answers: facts.answers,
  facts: facts.at(position),
});

/** The least (cost, log moves, moves) and how many alignments reach it, by a plain Dijkstra with string keys. */
function slowAlign(sop: CompiledSop, trace: readonly RandomEvent[], declared: boolean): { cost: number; moves: number; count: number } {
  const model = alignModel(sop);
  const facts = factsOf(sop, trace);
  type Node = { i: number; state: number; called: boolean };
  const order = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  const key = (n: Node) =>
    `${n.i}|${n.state}|${n.called && model.state(n.state).node >= 0 && model.hasTools[model.state(n.state).node] === 1}`;
  const best = new Map<string, { g: number[]; count: number; node: Node }>();
  const done = new Set<string>();
  const start: Node = { i: 0, state: model.start, called: false };
  best.set(key(start), { g: [0, 0, 0], count: 1, node: start });
  for (;;) {
    let at: string | null = null;
    // Layer by layer (an event's edge may cost nothing: its target must wait until every entry of its layer is settled).
    for (const [k, v] of best) {
      if (done.has(k)) continue;
      const other = at === null ? undefined : best.get(at)!;
      if (other === undefined || v.node.i < other.node.i || (v.node.i === other.node.i && order(v.g, other.g) < 0)) at = k;
    }
    if (at === null) break;
    done.add(at);
    const { g, count, node } = best.get(at)!;
    const state = model.state(node.state);
    const next: [Node, number[]][] = [];
    if (node.i < trace.length) {
      const here = view(facts, node.i);
      for (const move of model.movesOf(state))
        next.push([{ i: node.i, state: move.next, called: false }, [moveCost(model, state, node.called, move, declared, here), 0, 1]]);
      const event = trace[node.i]!;
      if (event.kind === 'reset') next.push([{ i: node.i + 1, state: model.start, called: false }, [0, 0, 0]]);
      else if (event.kind === 'call') {
        const cost = callCost(model, state, event.tool, facts.call(node.i));
        const called = node.called || passes(model, state, event, facts.found(node.i));
        if (offers(model, state, event.tool)) next.push([{ i: node.i + 1, state: node.state, called }, [cost, 0, 0]]);
        else next.push([{ ...node, i: node.i + 1 }, [cost, declared ? 0 : 1, 0]]);
      } else {
        const move = model.movesOf(state).find((m) => m.target === event.target);
        if (move !== undefined)
          next.push([{ i: node.i + 1, state: move.next, called: false }, [moveCost(model, state, node.called, move, false, here), 0, 1]]);
        next.push([{ ...node, i: node.i + 1 }, [COSTS.declared_move_off_walk, 0, 0]]);
      }
    }
    for (const [n, w] of next) {
      const total = g.map((x, j) => x + w[j]!);
      const seen = best.get(key(n));
      if (seen === undefined || order(total, seen.g) < 0) best.set(key(n), { g: total, count, node: n });
      else if (order(total, seen.g) === 0 && !done.has(key(n))) seen.count += count;
    }
  }
  const ends = [...best.values()].filter((v) => v.node.i === trace.length);
  const least = ends.reduce((a, b) => (order(a.g, b.g) <= 0 ? a : b));
  return {
    cost: least.g[0]!,
    moves: least.g[2]!,
    count: ends.filter((v) => order(v.g, least.g) === 0).reduce((sum, v) => sum + v.count, 0),
  };
}

/** What the chosen alignment's moves cost, added up again. */
function costOf(sop: CompiledSop, trace: readonly RandomEvent[], moves: readonly AlignMove[], declared: boolean): number {
  const model = alignModel(sop);
  const facts = factsOf(sop, trace);
  let total = 0;
  for (const move of moves) {
    const from = model.state(move.from);
    if (move.type === 'silent') total += moveCost(model, from, move.called, move.move, declared, view(facts, move.before));
    else if (move.outcome === 'taken') total += moveCost(model, from, move.called, move.move!, false, view(facts, move.event));
    else if (move.outcome === 'off_walk') total += COSTS.declared_move_off_walk;
    else if (move.outcome !== 'reset') {
      const event = trace[move.event]!;
      if (event.kind === 'call') total += callCost(model, from, event.tool, facts.call(move.event));
    }
  }
  return total;
}

describe('align', () => {
  it('finds the least cost, the fewest moves and the number of optimal alignments a plain search finds', () => {
    fc.assert(
      fc.property(randomSop, randomTrace, fc.boolean(), (random, events, declared) => {
        const sop = sopOf(random);
        const trace: RandomEvent[] = events.map((e, index) => ({ ...e, index }));
        const result = align(alignModel(sop), trace, { declared, observesCalls: true, maxStatesPerEvent: 100_000 }, factsOf(sop, trace));
        const slow = slowAlign(sop, trace, declared);
        expect({ cost: result.cost, moves: result.walkMoves, count: result.optimal }).toEqual(slow);
        expect(costOf(sop, trace, result.moves, declared)).toBe(result.cost);
        expect(result.exact).toBe(true);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('keeps no more states than its bound, and then says where it cut', () => {
    fc.assert(
      fc.property(randomSop, randomTrace, (random, events) => {
        const sop = sopOf(random);
        const trace: RandomEvent[] = events.map((e, index) => ({ ...e, index }));
        const facts = factsOf(sop, trace);
        const exact = align(alignModel(sop), trace, { declared: false, observesCalls: true, maxStatesPerEvent: 100_000 }, facts);
        const bounded = align(alignModel(sop), trace, { declared: false, observesCalls: true, maxStatesPerEvent: 2 }, facts);
        expect(bounded.maxStates).toBeLessThanOrEqual(2);
        expect(bounded.cost).toBeGreaterThanOrEqual(exact.cost);
        expect(costOf(sop, trace, bounded.moves, false)).toBe(bounded.cost);
        if (bounded.exact) expect(bounded.cost).toBe(exact.cost);
        else expect(bounded.cutAt).not.toBeNull();
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
