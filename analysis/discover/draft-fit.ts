/**
 * How well the logs fit the draft, by the alignment `sop replay` scores with (`conformance()`): each conversation's
 * calls aligned to the compiled draft, its fitness, the walk it takes; and, over all of them, what the draft allows
 * that no log did (edges no walk took, golden paths no walk followed), and the variants (walks through the draft)
 * with how often they failed, where outcomes are known.
 *
 * The draft is scored on the domain calls alone: the logs' `goto_node` and `load_graph` calls (if any) name another
 * SOP's nodes. One conversation at a time: what is kept is a few numbers per conversation and a row per variant.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { type GoldenPaths, goldenPaths } from '../../generator/paths/golden-paths.js';
import { conformance, type ConformanceOptions } from '../conformance/conformance.js';
import type { DeviationKind } from '../conformance/cost-model.js';
import type { Conversation } from '../replay/conversation.js';
import { TOOLKIT_TOOLS } from '../replay/check-conversation.js';

/** Conversations at or above this fitness count as fitting the draft. */
export const FITTING = 0.95;

/** Variants listed at most, and example transcripts per variant. */
const VARIANTS_LISTED = 10;
const EXAMPLES = 3;

export interface FitSummary {
  /** Mean fitness of the conversations mined; null when none was scored. */
  readonly fitness: number | null;
  readonly min_fitness: number | null;
  /** Conversations mined that fit (fitness ≥ FITTING). */
  readonly fitting: number;
  readonly scored: number;
  /** Mean fitness of the conversations read but not mined (the failures, with --only-successes); null when none. */
  readonly left_out_fitness: number | null;
  readonly left_out: number;
  /** Deviations against the draft, by kind, over the conversations mined. */
  readonly deviations: Readonly<Partial<Record<DeviationKind, number>>>;
  readonly allows: {
    /** Edges of the draft no walk took (`FROM -> TO`). */
    readonly unused_edges: readonly string[];
    /** Golden paths of the draft (entry node to a terminal, each loop once) that no walk followed. */
    readonly paths: {
      readonly listed: number;
      readonly total: number;
      readonly exact: boolean;
      readonly unwalked: number;
      readonly examples: readonly string[];
    };
  };
  /** Walks through the draft's steps, most failures first (only when outcomes are known). */
  readonly variants: readonly VariantRow[];
}

export interface VariantRow {
  /** The steps walked (`AUTH > READ_CANCEL_PENDING_ORDER > CANCEL_PENDING_ORDER`). */
  readonly variant: string;
  readonly conversations: number;
  readonly failures: number;
  readonly failure_rate: number;
  readonly fitness: number;
  /** Failing transcripts first. */
  readonly examples: readonly string[];
}

interface VariantStats {
  conversations: number;
  failures: number;
  fitness: number;
  failing: string[];
  passing: string[];
}

const TOOLKIT: ReadonlySet<string> = new Set(TOOLKIT_TOOLS);

export class DraftFit {
  private fitnessSum = 0;
  private minFitness = Number.POSITIVE_INFINITY;
  private fittingCount = 0;
  private scoredCount = 0;
  private leftOutSum = 0;
  private leftOutCount = 0;
  private readonly deviations = new Map<DeviationKind, number>();
  private readonly edges = new Set<string>();
  private readonly pieces = new Set<string>();
  private readonly variants = new Map<string, VariantStats>();
  private anyOutcome = false;
  private readonly successors: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly hubs: ReadonlySet<string>;
  private readonly steps: ReadonlySet<string>;

  constructor(
    private readonly sop: CompiledSop,
    private readonly options: ConformanceOptions = {},
  ) {
    this.successors = new Map(sop.nodeIds.map((id) => [id, new Set((entryOf(sop.edges, id) ?? []).map((e) => e.to))]));
    this.steps = new Set(sop.nodeIds.filter((id) => (entryOf(sop.toolsByNode, id) ?? []).length > 0));
    this.hubs = new Set([...sop.transitions.hubs, sop.transitions.entry]);
  }

  /** Scores one conversation; `mined` when it was mined (else it was left out: a failure, with --only-successes). */
  add(name: string, conversation: Conversation, mined: boolean, success: boolean | null): number {
    const events = conversation.events.filter((e) => e.kind !== 'call' || !TOOLKIT.has(e.tool));
    const { conformance: aligned } = conformance(this.sop, { ...conversation, events }, this.options);
    const fitness = aligned.fitness;
    if (!mined) {
      this.leftOutSum += fitness;
      this.leftOutCount += 1;
      return fitness;
    }
    this.scoredCount += 1;
    this.fitnessSum += fitness;
    this.minFitness = Math.min(this.minFitness, fitness);
    if (fitness >= FITTING) this.fittingCount += 1;
    for (const d of aligned.deviations) this.deviations.set(d.kind, (this.deviations.get(d.kind) ?? 0) + 1);
    const walk = aligned.walk;
    for (let i = 1; i < walk.length; i++)
      if (this.successors.get(walk[i - 1]!)?.has(walk[i]!) === true) this.edges.add(`${walk[i - 1]} -> ${walk[i]}`);
    for (const piece of this.piecesOf(walk)) this.pieces.add(piece);
    const steps = walk.filter((node, i) => this.steps.has(node) && walk[i - 1] !== node);
    const key = steps.join(' > ') || '(no step)';
    const stats = this.variants.get(key) ?? { conversations: 0, failures: 0, fitness: 0, failing: [], passing: [] };
    stats.conversations += 1;
    stats.fitness += fitness;
    if (success !== null) this.anyOutcome = true;
    if (success === false) {
      stats.failures += 1;
      if (stats.failing.length < EXAMPLES) stats.failing.push(name);
    } else if (stats.passing.length < EXAMPLES) stats.passing.push(name);
    this.variants.set(key, stats);
    return fitness;
  }

  summary(): FitSummary {
    const unused = this.sop.nodeIds.flatMap((from) =>
      [...this.successors.get(from)!].map((to) => `${from} -> ${to}`).filter((edge) => !this.edges.has(edge)),
    );
    const paths: GoldenPaths = goldenPaths(this.sop, { maxPaths: 200, maxSteps: 200_000 });
    const unwalked = paths.paths.filter((path) => !this.piecesOf(path.nodes).every((piece) => this.pieces.has(piece)));
    const variants = this.anyOutcome
      ? [...this.variants]
          .map(([variant, s]) => ({
            variant,
            conversations: s.conversations,
            failures: s.failures,
            failure_rate: round(s.failures / s.conversations),
            fitness: round(s.fitness / s.conversations),
            examples: [...s.failing, ...s.passing].slice(0, EXAMPLES),
          }))
          .filter((v) => v.failures > 0)
          .sort((a, b) => b.failures - a.failures || b.failure_rate - a.failure_rate || (a.variant < b.variant ? -1 : 1))
          .slice(0, VARIANTS_LISTED)
      : [];
    return {
      fitness: this.scoredCount === 0 ? null : round(this.fitnessSum / this.scoredCount),
      min_fitness: this.scoredCount === 0 ? null : this.minFitness,
      fitting: this.fittingCount,
      scored: this.scoredCount,
      left_out_fitness: this.leftOutCount === 0 ? null : round(this.leftOutSum / this.leftOutCount),
      left_out: this.leftOutCount,
      deviations: Object.fromEntries([...this.deviations].sort(([a], [b]) => (a < b ? -1 : 1))),
      allows: {
        unused_edges: unused,
        paths: {
          listed: paths.count.listed,
          total: paths.count.total,
          exact: paths.count.exact,
          unwalked: unwalked.length,
          examples: unwalked.slice(0, 5).map((path) => path.nodes.join(' > ')),
        },
      },
      variants,
    };
  }

  /** A walk cut where it passes a hub or restarts: the pieces a golden path must all share with some walk. */
  private piecesOf(walk: readonly string[]): string[] {
    const pieces: string[] = [];
    let current: string[] = [];
    for (const node of walk) {
      if (this.hubs.has(node) && current.length > 0) {
        if (node !== this.sop.transitions.entry) current.push(node);
        pieces.push(current.join(' > '));
        current = [];
      }
      current.push(node);
    }
    if (current.length > 0) pieces.push(current.join(' > '));
    return pieces;
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
