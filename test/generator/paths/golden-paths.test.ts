/**
 * Golden paths (`generator/paths/golden-paths.ts`): the count agrees with a plain recursive enumeration of the
 * definition (on the repository's agents and on random graphs), every listed path is a walk of legal moves that
 * ends on a terminal, the listing covers every terminal first and then every edge it can, and the bounds hold:
 * a search cut short says its count is a lower bound.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { decideMove, type TransitionTable, type Visits } from '../../../contract/transitions.js';
import { goldenPaths } from '../../../generator/paths/golden-paths.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const bundle = JSON.parse(readFileSync(join(PROJECT_ROOT, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;

/**
 * The definition, written the slow way: extend the walk by every edge; the loop-erased path rewinds on a revisit,
 * closing the cycle it erased; a cycle (as a set of rotations) closes at most once; visits stay within max_visits.
 * Also counts the extensions made, which is what `maxSteps` bounds.
 */
function walkByDefinition(table: TransitionTable, terminals: ReadonlySet<string>): { paths: number; extensions: number } {
  const max = (node: string) => table.limits?.[node]?.max ?? Number.POSITIVE_INFINITY;
  const rotations = (cycle: readonly string[]) => cycle.map((_, i) => [...cycle.slice(i), ...cycle.slice(0, i)].join(' '));
  let extensions = 0;
  const extend = (path: readonly string[], closed: readonly string[], visits: Readonly<Record<string, number>>): number => {
    const here = path.at(-1)!;
    if (terminals.has(here)) return 1;
    let count = 0;
    for (const to of table.successors[here] ?? []) {
      if ((visits[to] ?? 0) >= max(to)) continue;
      const at = path.indexOf(to);
      const cycle = at < 0 ? null : path.slice(at);
      if (cycle && closed.some((c) => rotations(cycle).includes(c))) continue;
      const nextPath = at < 0 ? [...path, to] : path.slice(0, at + 1);
      extensions += 1;
      count += extend(nextPath, cycle ? [...closed, cycle.join(' ')] : closed, { ...visits, [to]: (visits[to] ?? 0) + 1 });
    }
    return count;
  };
  const paths = extend([table.entry], [], { [table.entry]: 1 });
  return { paths, extensions };
}

const countByDefinition = (table: TransitionTable, terminals: ReadonlySet<string>): number => walkByDefinition(table, terminals).paths;

function sopOf(table: TransitionTable): CompiledSop {
  const nodeIds = Object.keys(table.successors);
  const none = Object.fromEntries(nodeIds.map((id) => [id, []]));
  return {
    meta: { agent: 'random', version: '1', description: null, model: null, mcpServers: [] },
    sourceFile: 'sops/random.md',
    sourceHash: 'sha256:0',
    transitions: table,
    nodeIds,
    nodes: Object.fromEntries(nodeIds.map((id) => [id, { id, type: 'rectangle', description: id }])),
    edges: Object.fromEntries(
      nodeIds.map((id) => [id, table.successors[id]!.map((to) => ({ to, condition: null, style: 'solid' as const }))]),
    ),
    prompts: {},
    decisionNodes: [],
    terminalNodes: nodeIds.filter((id) => table.successors[id]!.length === 0),
    tools: [],
    toolsByNode: none,
    systemPrompt: '',
    systemPromptSections: [],
    flowchart: '',
  };
}

/** Plays a listed path through the transition rule: every move must be legal. */
function replays(sop: CompiledSop, nodes: readonly string[]): boolean {
  let path: readonly string[] = [];
  let visits: Visits = {};
  for (const node of nodes) {
    const verdict = decideMove(sop.transitions, path, node, visits);
    if (!verdict.ok) return false;
    ({ path, visits } = verdict);
  }
  return true;
}

describe('golden paths of the repository agents', () => {
  it.each(Object.keys(bundle.agents))('%s: the count is the definition, every path legal, every terminal and edge covered', (agent) => {
    const sop = bundle.agents[agent]!;
    const result = goldenPaths(sop);
    expect(result.count).toEqual({
      total: countByDefinition(sop.transitions, new Set(sop.terminalNodes)),
      exact: true,
      listed: result.paths.length,
    });
    expect(result.unreached_terminals).toEqual([]);
    expect(result.uncovered_edges).toEqual([]);
    for (const path of result.paths) {
      expect(replays(sop, path.nodes), path.nodes.join(' > ')).toBe(true);
      expect(path.nodes[0]).toBe(sop.transitions.entry);
      expect(path.terminal).toBe(path.nodes.at(-1));
      expect(sop.terminalNodes).toContain(path.terminal);
    }
    expect(Object.values(result.per_terminal).reduce((a, b) => a + b, 0)).toBe(result.count.total);
  });

  it('goes around a loop once, not twice (it_helpdesk: a second code, never a third)', () => {
    const result = goldenPaths(bundle.agents.it_helpdesk!);
    const verifies = result.paths.map((path) => path.nodes.filter((node) => node === 'VERIFY').length);
    expect(Math.max(...verifies)).toBe(2);
    expect(result.paths.find((path) => path.nodes.filter((n) => n === 'VERIFY').length === 2)?.loops).toBe(1);
  });

  it('is the same JSON every time', () => {
    const sop = bundle.agents.retail_customer_support!;
    expect(JSON.stringify(goldenPaths(sop))).toBe(JSON.stringify(goldenPaths(sop)));
  });
});

describe('bounds', () => {
  const sop = bundle.agents.retail_customer_support!;

  it('lists the best path to every terminal before any second path', () => {
    const result = goldenPaths(sop, { maxPaths: sop.terminalNodes.length, maxSteps: 1_000_000 });
    expect(result.paths.map((p) => p.terminal).sort()).toEqual([...sop.terminalNodes].sort());
    expect(result.paths.every((p) => p.loops === 0)).toBe(true);
    expect(result.count.total).toBeGreaterThan(result.count.listed);
  });

  it('says the count is a lower bound when the search stops at max_steps', () => {
    const full = goldenPaths(sop);
    const cut = goldenPaths(sop, { maxPaths: 1000, maxSteps: 40 });
    expect(cut.count.exact).toBe(false);
    expect(cut.count.total).toBeLessThan(full.count.total);
    expect(cut.paths.every((p) => replays(sop, p.nodes))).toBe(true);
  });

  it('respects visit limits: a limit of 1 leaves only the simple paths through that node', () => {
    const limited = { ...sop, transitions: { ...sop.transitions, limits: { ROUTE: { max: 1, escalation: 'ESCALATE_HUMAN' } } } };
    const result = goldenPaths(limited);
    expect(result.paths.every((p) => p.nodes.filter((n) => n === 'ROUTE').length === 1)).toBe(true);
    expect(result.count.total).toBe(countByDefinition(limited.transitions, new Set(sop.terminalNodes)));
    expect(result.count.total).toBeLessThan(goldenPaths(sop).count.total);
  });
});

describe('visit limits and lower bounds on small graphs', () => {
  // A is on two loops (A⇄B, A⇄C): each loop is gone around at most once, so a path enters A at most 3 times.
  const twoLoops: TransitionTable = { entry: 'S', hubs: [], successors: { S: ['A'], A: ['B', 'C', 'T'], B: ['A'], C: ['A'], T: [] } };
  const limitA = (max: number): TransitionTable => ({ ...twoLoops, limits: { A: { max, escalation: 'T' } } });

  it('raising a limit admits the paths that enter the node once more, up to the count without a limit', () => {
    // 1: S A T. 2: also S A B A T and S A C A T. 3: also both loops, in either order. 4: nothing more.
    const counts = [1, 2, 3, 4].map((max) => goldenPaths(sopOf(limitA(max))).count);
    expect(counts).toEqual([1, 3, 5, 5].map((total) => ({ total, exact: true, listed: total })));
    expect(goldenPaths(sopOf(twoLoops)).count.total).toBe(5);
    for (const max of [1, 2, 3]) expect(counts[max - 1]!.total).toBe(countByDefinition(limitA(max), new Set(['T'])));
    const limited = goldenPaths(sopOf(limitA(2)));
    expect(limited.paths.map((p) => p.nodes.join(' '))).toEqual(['S A T', 'S A B A T', 'S A C A T']);
    expect(limited.paths.every((p) => replays(sopOf(limitA(2)), p.nodes))).toBe(true);
  });

  it('a count cut short never exceeds the exact one, grows with max_steps, and is exact from the step the search needs', () => {
    const sop = sopOf(twoLoops);
    const full = goldenPaths(sop);
    const needed = walkByDefinition(twoLoops, new Set(['T'])).extensions;
    const cuts = Array.from({ length: needed + 5 }, (_, i) => goldenPaths(sop, { maxPaths: 100, maxSteps: i + 1 }));
    for (const [i, cut] of cuts.entries()) {
      expect(cut.count.exact).toBe(i + 1 >= needed);
      if (i > 0) expect(cut.count.total).toBeGreaterThanOrEqual(cuts[i - 1]!.count.total);
      expect(cut.per_terminal.T).toBe(cut.count.total);
      expect(cut.count.total).toBeLessThanOrEqual(full.count.total);
      for (const path of cut.paths) expect(full.paths).toContainEqual(path);
    }
    expect(cuts[needed - 1]).toEqual({ ...full, limits: { max_paths: 100, max_steps: needed } });
    expect(cuts[needed - 2]!.count.total).toBeLessThan(full.count.total);
  });

  it('lists the best path to a terminal the search meets only after the paths it keeps are used up', () => {
    // 2^15 ways through a chain of diamonds to T1, searched before the one way to T2: more than the search keeps.
    const successors: Record<string, string[]> = { S: ['D0a', 'D0b', 'Y'], Y: ['T2'], T1: [], T2: [] };
    for (let i = 0; i < 15; i++) {
      const next = i === 14 ? ['T1'] : [`D${i + 1}a`, `D${i + 1}b`];
      successors[`D${i}a`] = next;
      successors[`D${i}b`] = next;
    }
    const result = goldenPaths(sopOf({ entry: 'S', hubs: [], successors }), { maxPaths: 2, maxSteps: 1_000_000 });
    expect(result.count).toEqual({ total: 2 ** 15 + 1, exact: true, listed: 2 });
    expect(result.per_terminal).toEqual({ T1: 2 ** 15, T2: 1 });
    expect(result.paths.map((p) => p.nodes.join(' '))).toEqual([
      'S Y T2',
      `S ${Array.from({ length: 15 }, (_, i) => `D${i}a`).join(' ')} T1`,
    ]);
  });
});

describe('random graphs', () => {
  // Small graphs: the number of walks grows with the orders in which cycles can be closed, factorially.
  const graph = fc
    .integer({ min: 2, max: 6 })
    .chain((size) =>
      fc.tuple(
        fc.array(fc.array(fc.integer({ min: 0, max: size - 1 }), { maxLength: 2 }), { minLength: size, maxLength: size }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: size, maxLength: size }),
        fc.boolean(),
      ),
    );

  it('closes a loop once, whichever of its nodes the walk closes it at', () => {
    // S A B A closes A⇄B at A; after B -> S the walk can reach B first, and A -> B would close the same loop at B.
    const table: TransitionTable = { entry: 'S', hubs: [], successors: { S: ['A', 'B'], A: ['B', 'T'], B: ['A', 'S'], T: [] } };
    const result = goldenPaths(sopOf(table), { maxPaths: 1000, maxSteps: 100_000 });
    expect(result.count.total).toBe(countByDefinition(table, new Set(['T'])));
  });

  it('count as the definition does, with and without visit limits', () => {
    fc.assert(
      fc.property(graph, ([successors, maxima, limited]) => {
        const ids = successors.map((_, i) => `N${i}`);
        const table: TransitionTable = {
          entry: 'N0',
          hubs: [],
          successors: Object.fromEntries(ids.map((id, i) => [id, [...new Set(successors[i]!.map((to) => `N${to}`))]])),
          ...(limited ? { limits: Object.fromEntries(ids.slice(1).map((id, i) => [id, { max: maxima[i + 1]!, escalation: 'N0' }])) } : {}),
        };
        const sop = sopOf(table);
        const result = goldenPaths(sop, { maxPaths: 10_000, maxSteps: 200_000 });
        fc.pre(result.count.exact);
        expect(result.count.total).toBe(countByDefinition(table, new Set(sop.terminalNodes)));
        expect(result.paths.every((p) => replays(sop, p.nodes))).toBe(true);
      }),
      { numRuns: 500, seed: 12 },
    );
  });
});
