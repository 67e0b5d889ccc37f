/**
 * Practice against the written SOP (`sop discover --against FILE`): every conversation aligned to the compiled
 * written SOP by `sop replay`'s alignment (`conformance()`, its `goto_node` calls anchoring the walk where it has
 * them), and the deviations aggregated per kind, node and tool, with how many conversations had each and a few
 * example transcripts: calls made at steps that do not offer them (`unexpected_call`), steps skipped
 * (`step_without_call`, `skipped_required`), changes before the steps that should precede them (`policy`,
 * `before_confirmation`), and the rest of replay's kinds. Then what the alignments never used: edges no walk took
 * (`unused_edge`, with `to`) and tools offered at a node where no call of them was placed (`unused_tool`).
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { conformance, type ConformanceOptions } from '../conformance/conformance.js';
import type { Conversation } from '../replay/conversation.js';

export interface Difference {
  /** A deviation kind of `sop replay` (`unexpected_call`, `step_without_call`, …), `unused_edge` or `unused_tool`. */
  readonly kind: string;
  readonly node: string | null;
  readonly tool: string | null;
  /** For `unused_edge`: the edge's target. */
  readonly to?: string;
  /** Deviations of this kind there (0 for what was never used). */
  readonly count: number;
  /** Conversations with at least one. */
  readonly conversations: number;
  readonly examples: readonly string[];
}

export interface PracticeSummary {
  readonly agent: string;
  readonly file: string;
  readonly conversations: number;
  readonly fitness: number | null;
  readonly differences: readonly Difference[];
}

const EXAMPLES = 3;

interface Tally {
  readonly kind: string;
  readonly node: string | null;
  readonly tool: string | null;
  count: number;
  conversations: number;
  readonly examples: string[];
}

export class Practice {
  private readonly tallies = new Map<string, Tally>();
  private readonly edges = new Set<string>();
  private readonly used = new Set<string>();
  private fitnessSum = 0;
  private count = 0;

  constructor(
    private readonly sop: CompiledSop,
    private readonly file: string,
    private readonly options: ConformanceOptions = {},
  ) {}

  add(name: string, conversation: Conversation): void {
    const { conformance: aligned } = conformance(this.sop, conversation, this.options);
    this.count += 1;
    this.fitnessSum += aligned.fitness;
    const seen = new Set<string>();
    for (const d of aligned.deviations) {
      const key = JSON.stringify([d.kind, d.node, d.tool ?? null]);
      const tally = this.tallies.get(key) ?? { kind: d.kind, node: d.node, tool: d.tool ?? null, count: 0, conversations: 0, examples: [] };
      tally.count += 1;
      if (!seen.has(key)) {
        seen.add(key);
        tally.conversations += 1;
        if (tally.examples.length < EXAMPLES) tally.examples.push(name);
      }
      this.tallies.set(key, tally);
    }
    const walk = aligned.walk;
    for (let i = 1; i < walk.length; i++) this.edges.add(JSON.stringify([walk[i - 1], walk[i]]));
    for (const step of aligned.alignment)
      if (step.move === 'sync' && step.node !== null) this.used.add(JSON.stringify([step.node, step.name]));
  }

  summary(): PracticeSummary {
    const deviations = [...this.tallies.values()].sort(
      (a, b) => b.count - a.count || compare(a.kind, b.kind) || compare(a.node ?? '', b.node ?? '') || compare(a.tool ?? '', b.tool ?? ''),
    );
    const unused: Difference[] = [];
    for (const from of this.sop.nodeIds)
      for (const edge of entryOf(this.sop.edges, from) ?? [])
        if (!this.edges.has(JSON.stringify([from, edge.to])))
          unused.push({ kind: 'unused_edge', node: from, tool: null, to: edge.to, count: 0, conversations: 0, examples: [] });
    for (const node of this.sop.nodeIds)
      for (const tool of entryOf(this.sop.toolsByNode, node) ?? [])
        if (!this.used.has(JSON.stringify([node, tool])))
          unused.push({ kind: 'unused_tool', node, tool, count: 0, conversations: 0, examples: [] });
    return {
      agent: this.sop.meta.agent,
      file: this.file,
      conversations: this.count,
      fitness: this.count === 0 ? null : Math.round((this.fitnessSum / this.count) * 10_000) / 10_000,
      differences: [
        ...deviations.map(({ kind, node, tool, count, conversations, examples }) => ({ kind, node, tool, count, conversations, examples })),
        ...unused,
      ],
    };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
