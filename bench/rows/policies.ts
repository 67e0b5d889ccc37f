/**
 * Row 13: what proving policies costs the compiler. `compileSop` of a SOP near the node limit (484 nodes: a chain
 * with fallback edges to a hub, and 50 bypass edges) with 100 policies, each guarding a node of the chain and
 * requiring the node three before it, half of them broken by a bypass so that counterexamples are built, ÷
 * `compileSop` of the same SOP (same graph) without the policies. In process, medians of alternating batches.
 * Goal ≤ 2: a hundred policies, read from the frontmatter and proved over the graph (a breadth-first search
 * each, linear in the graph), cost less than compiling the SOP once more.
 */
import { compileSop } from '../../generator/compile-sop.js';
import type { BenchContext, BenchRow } from '../context.js';
import { row, type Row } from '../report.js';
import { median, repeatPair } from '../stats.js';

const SPEC = { name: 'compile with 100 policies ÷ without, 484 nodes', goal: '<= 2', unit: 'ms' } as const;
const CHAIN = 480;
const POLICIES = 100;

/** The SOP, with or without its policies. */
function sopText(withPolicies: boolean): string {
  const edges: string[] = ['    START([Start]) --> HUB{Route?}', '    HUB -->|go| N0["Step 0"]'];
  for (let i = 0; i < CHAIN; i++) {
    edges.push(`    N${i} --> N${i + 1}["Step ${i + 1}"]`);
    if (i % 40 === 0) edges.push(`    N${i} -.->|back| HUB`);
  }
  edges.push(`    N${CHAIN} --> DONE([Done])`);
  const policies: string[] = [];
  for (let p = 0; p < POLICIES; p++) {
    const guarded = 10 + p * 4;
    policies.push(`  p${p}:`, `    every_path_to: N${guarded}`, `    passes: N${guarded - 3}`);
    // Every other policy is broken by an edge around its required node (in both SOPs: the same graph).
    if (p % 2 === 1) edges.push(`    N${guarded - 4} -->|skip| N${guarded}`);
  }
  return [
    '---',
    'agent: policy_bench',
    'version: "1"',
    'hubs: [HUB]',
    'tools: []',
    ...(withPolicies ? ['policies:', ...policies] : []),
    '---',
    '',
    '## Role',
    'Follows the chain.',
    '',
    '## SOP Flowchart',
    '```mermaid',
    'flowchart TD',
    ...edges,
    '```',
    '',
  ].join('\n');
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const subject = sopText(true);
  const floor = sopText(false);
  const compile = (text: string) => () => {
    const compiled = compileSop('sops/policy_bench.md', text);
    if (compiled.model === null) throw new Error('the policy bench SOP does not compile');
    return compiled;
  };
  const broken = compile(subject)().diagnostics.filter((d) => d.code === 'SOP055').length;
  if (broken !== POLICIES / 2) throw new Error(`expected ${POLICIES / 2} broken policies, the compiler found ${broken}`);
  const runs = ctx.quick ? 3 : 15;
  const batch = ctx.quick ? 1 : 5;
  ctx.log(`row 13: compileSop of ${CHAIN + 4} nodes with ${POLICIES} policies vs without, ${runs} × ${batch} each`);
  const timesOf = (fn: () => unknown) => async () => {
    for (let i = 0; i < batch; i++) fn();
  };
  const times = await repeatPair(timesOf(compile(subject)), timesOf(compile(floor)), { warmup: 2, runs });
  return [
    row({
      ...SPEC,
      value: median(times.subject) / batch,
      floor: median(times.baseline) / batch,
      note: `${CHAIN + 4} nodes, ${POLICIES} policies of which ${broken} broken (each reported with its counterexample)`,
    }),
  ];
}

export const policiesRow: BenchRow = {
  id: 'policies',
  title: 'proving policies at build time',
  specs: [SPEC],
  budgetMs: 60_000,
  run,
};
