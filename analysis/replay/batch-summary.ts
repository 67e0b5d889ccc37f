/**
 * A batch of replayed transcripts as one table: a row per transcript (agent, fitness, deviations by kind, terminal
 * reached, steps, verdict, the task's outcome when known), totals per deviation kind and per node (where agents
 * leave the procedure most), and how conformance relates to task success:
 *
 *   mean fitness of the successes and of the failures, and the AUC of fitness as a predictor of success: the
 *   probability that a random success has a higher fitness than a random failure, ties counted half. It is the
 *   Mann–Whitney U statistic over n_s·n_f: U = R_s − n_s(n_s + 1)/2 with R_s the sum of the successes' ranks among
 *   all fitness values (tied values share their mean rank). 0.5 is no relation; 1, every success above every failure.
 *
 * Rows keep only these figures, never a transcript or its report, so a batch's memory grows by a row per transcript.
 */
import { DEVIATION_KINDS, type DeviationKind } from '../conformance/cost-model.js';
import type { ReplayReport } from './replay-report.js';

export const BATCH_FORMAT = 'sop-replay-batch/1';

export interface BatchRow {
  /** The file, and `#id` for one of several transcripts in it (a τ²-bench simulation, a line of JSON Lines). */
  readonly transcript: string;
  readonly file: string;
  readonly agent: string | null;
  readonly reader: string | null;
  readonly mode: 'declared' | 'inferred' | null;
  /** `error` when the transcript could not be replayed (`error` says why). */
  readonly verdict: 'pass' | 'fail' | 'error';
  readonly fitness: number | null;
  readonly cost: number | null;
  readonly worst_cost: number | null;
  readonly deviations: Readonly<Record<DeviationKind, number>> | null;
  /** The terminal node the conversation ends on, or null. */
  readonly terminal: string | null;
  readonly steps: number | null;
  /** Steps the log cannot place (several nodes explain them equally well). */
  readonly undetermined_steps: number | null;
  /** False when the alignment's bound cut the search. */
  readonly exact: boolean | null;
  /** Whether the task succeeded, when the outcomes file or the transcript (a τ²-bench reward) says so. */
  readonly outcome: boolean | null;
  readonly error?: string;
}

/** A row with what the totals need of it: its deviations per node. */
export interface ScoredRow {
  readonly row: BatchRow;
  /** Deviations per node (null: before the walk entered the SOP), per kind. */
  readonly byNode: ReadonlyMap<string | null, ReadonlyMap<DeviationKind, number>>;
}

export interface BatchSummary {
  readonly format: typeof BATCH_FORMAT;
  readonly transcripts: readonly BatchRow[];
  readonly totals: {
    readonly transcripts: number;
    readonly passed: number;
    readonly failed: number;
    readonly errors: number;
    readonly mean_fitness: number | null;
    readonly terminal_reached: number;
    readonly by_kind: Readonly<Record<DeviationKind, { readonly deviations: number; readonly transcripts: number }>>;
    /** Nodes with deviations, most first (ties in flowchart order of first appearance, then by name). */
    readonly by_node: readonly {
      readonly node: string | null;
      readonly deviations: number;
      readonly transcripts: number;
      readonly by_kind: Readonly<Partial<Record<DeviationKind, number>>>;
    }[];
  };
  readonly outcomes: OutcomeStats | null;
  /** Session logs a later log resumed or continued: scored in that one. */
  readonly superseded: readonly { readonly transcript: string; readonly by: string }[];
  /** Files in a folder that hold no conversation (left out). */
  readonly skipped: readonly { readonly file: string; readonly reason: string }[];
}

export interface OutcomeStats {
  /** Where the outcomes came from. */
  readonly source: string;
  readonly successes: number;
  readonly failures: number;
  /** Scored transcripts without an outcome. */
  readonly unknown: number;
  readonly mean_fitness_success: number | null;
  readonly mean_fitness_failure: number | null;
  /** Mann–Whitney AUC of fitness for success; null without both successes and failures. */
  readonly auc: number | null;
  /** Keys of the outcomes file that named no transcript. */
  readonly unmatched_keys: readonly string[];
}

export function scoredRow(transcript: string, file: string, report: ReplayReport, outcome: boolean | null): ScoredRow {
  const c = report.conformance;
  const byNode = new Map<string | null, Map<DeviationKind, number>>();
  for (const d of c.deviations) {
    const kinds = byNode.get(d.node) ?? new Map<DeviationKind, number>();
    kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
    byNode.set(d.node, kinds);
  }
  return {
    row: {
      transcript,
      file,
      agent: report.agent,
      reader: report.reader,
      mode: c.mode,
      verdict: report.verdict,
      fitness: c.fitness,
      cost: c.cost,
      worst_cost: c.worst_cost,
      deviations: c.by_kind,
      terminal: report.terminal,
      steps: report.steps.total,
      undetermined_steps: c.ambiguity.undetermined.length,
      exact: c.search.exact,
      outcome,
    },
    byNode,
  };
}

export function errorRow(transcript: string, file: string, error: string): ScoredRow {
  return {
    row: {
      transcript,
      file,
      agent: null,
      reader: null,
      mode: null,
      verdict: 'error',
      fitness: null,
      cost: null,
      worst_cost: null,
      deviations: null,
      terminal: null,
      steps: null,
      undetermined_steps: null,
      exact: null,
      outcome: null,
      error,
    },
    byNode: new Map(),
  };
}

export interface SummaryInput {
  readonly rows: readonly ScoredRow[];
  readonly superseded: BatchSummary['superseded'];
  readonly skipped: BatchSummary['skipped'];
  /** Where the outcomes came from (null when no row has one and no file was given), and its unmatched keys. */
  readonly outcomeSource: string | null;
  readonly unmatchedKeys: readonly string[];
  /** Node order for ties in `by_node` (the agents' flowchart orders, concatenated). */
  readonly nodeOrder: readonly string[];
}

export function summarize(input: SummaryInput): BatchSummary {
  const rows = input.rows.map((r) => r.row);
  const scored = rows.filter((row) => row.verdict !== 'error');
  const byKind = Object.fromEntries(DEVIATION_KINDS.map((kind) => [kind, { deviations: 0, transcripts: 0 }])) as Record<
    DeviationKind,
    { deviations: number; transcripts: number }
  >;
  for (const row of scored) {
    for (const kind of DEVIATION_KINDS) {
      const n = row.deviations?.[kind] ?? 0;
      byKind[kind].deviations += n;
      if (n > 0) byKind[kind].transcripts += 1;
    }
  }
  const nodes = new Map<string | null, { deviations: number; transcripts: number; by_kind: Partial<Record<DeviationKind, number>> }>();
  for (const { row, byNode } of input.rows) {
    if (row.verdict === 'error') continue;
    for (const [node, kinds] of byNode) {
      const entry = nodes.get(node) ?? { deviations: 0, transcripts: 0, by_kind: {} };
      entry.transcripts += 1;
      for (const [kind, n] of kinds) {
        entry.deviations += n;
        entry.by_kind[kind] = (entry.by_kind[kind] ?? 0) + n;
      }
      nodes.set(node, entry);
    }
  }
  const rank = new Map(input.nodeOrder.map((node, i) => [node, i]));
  const byNode = [...nodes]
    .map(([node, entry]) => ({ node, ...entry, by_kind: sortedKinds(entry.by_kind) }))
    .sort(
      (a, b) =>
        b.deviations - a.deviations ||
        (rank.get(a.node ?? '') ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.node ?? '') ?? Number.MAX_SAFE_INTEGER) ||
        String(a.node).localeCompare(String(b.node)),
    );
  const fitness = scored.map((row) => row.fitness!);
  return {
    format: BATCH_FORMAT,
    transcripts: rows,
    totals: {
      transcripts: rows.length,
      passed: scored.filter((row) => row.verdict === 'pass').length,
      failed: scored.filter((row) => row.verdict === 'fail').length,
      errors: rows.length - scored.length,
      mean_fitness: mean(fitness),
      terminal_reached: scored.filter((row) => row.terminal !== null).length,
      by_kind: byKind,
      by_node: byNode,
    },
    outcomes: input.outcomeSource === null ? null : outcomeStats(scored, input.outcomeSource, input.unmatchedKeys),
    superseded: input.superseded,
    skipped: input.skipped,
  };
}

function outcomeStats(rows: readonly BatchRow[], source: string, unmatched: readonly string[]): OutcomeStats {
  const successes = rows.filter((row) => row.outcome === true).map((row) => row.fitness!);
  const failures = rows.filter((row) => row.outcome === false).map((row) => row.fitness!);
  return {
    source,
    successes: successes.length,
    failures: failures.length,
    unknown: rows.length - successes.length - failures.length,
    mean_fitness_success: mean(successes),
    mean_fitness_failure: mean(failures),
    auc: aucOf(successes, failures),
    unmatched_keys: unmatched,
  };
}

/**
 * The Mann–Whitney AUC of `positives` over `negatives`: the probability that a random positive scores above a
 * random negative, ties counted half; null unless both are non-empty.
 */
export function aucOf(positives: readonly number[], negatives: readonly number[]): number | null {
  if (positives.length === 0 || negatives.length === 0) return null;
  const all = [...positives.map((value) => ({ value, positive: true })), ...negatives.map((value) => ({ value, positive: false }))].sort(
    (a, b) => a.value - b.value,
  );
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.value === all[i]!.value) j += 1;
    // Ranks i+1 … j share their mean.
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.positive) rankSum += rank;
    i = j;
  }
  const n = positives.length;
  const u = rankSum - (n * (n + 1)) / 2;
  return round(u / (n * negatives.length));
}

function sortedKinds(kinds: Partial<Record<DeviationKind, number>>): Partial<Record<DeviationKind, number>> {
  return Object.fromEntries(DEVIATION_KINDS.filter((kind) => kinds[kind] !== undefined).map((kind) => [kind, kinds[kind]!]));
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : round(values.reduce((sum, v) => sum + v, 0) / values.length);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
