/**
 * An event log as the miner reads it: trace variants (a sequence of activities, here tool ids) with how many traces
 * share each, and its directly-follows graph (DFG): how often each activity came right after another, started a
 * trace and ended one. Consecutive repeats of an activity collapse into one event when a trace is added: a step
 * takes its tools any number of times, so a retry is no new step.
 *
 * Mining cost depends on the variants and the activities, not on the number of conversations.
 */

export interface Variant {
  readonly trace: readonly number[];
  readonly count: number;
}

export type EventLog = readonly Variant[];

/** Traces (with repeats) → variants, collapsed, in a canonical order (most frequent first, then by trace). */
export function eventLog(traces: Iterable<{ readonly trace: ArrayLike<number>; readonly count: number }>): EventLog {
  const byKey = new Map<string, { trace: number[]; count: number }>();
  for (const { trace, count } of traces) {
    const collapsed: number[] = [];
    for (let i = 0; i < trace.length; i++) if (collapsed.at(-1) !== trace[i]) collapsed.push(trace[i]!);
    const key = collapsed.join(',');
    const entry = byKey.get(key);
    if (entry === undefined) byKey.set(key, { trace: collapsed, count });
    else entry.count += count;
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || compareTraces(a.trace, b.trace));
}

export function weightOf(log: EventLog): number {
  return log.reduce((sum, v) => sum + v.count, 0);
}

function compareTraces(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A directly-follows graph over the log's activities (indexed 0…n−1 locally, `activities` maps back). */
export interface Dfg {
  /** Activity ids, ascending. */
  readonly activities: readonly number[];
  /** edges[a * n + b]: how often b came right after a. */
  readonly edges: Float64Array;
  readonly starts: Float64Array;
  readonly ends: Float64Array;
}

export function dfgOf(log: EventLog): Dfg {
  const activities = [...new Set(log.flatMap((v) => v.trace))].sort((a, b) => a - b);
  const index = new Map(activities.map((a, i) => [a, i]));
  const n = activities.length;
  const edges = new Float64Array(n * n);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  for (const { trace, count } of log) {
    if (trace.length === 0) continue;
    starts[index.get(trace[0]!)!]! += count;
    ends[index.get(trace.at(-1)!)!]! += count;
    for (let i = 1; i < trace.length; i++) edges[index.get(trace[i - 1]!)! * n + index.get(trace[i]!)!]! += count;
  }
  return { activities, edges, starts, ends };
}

/**
 * IMf's filter: an edge is kept when it is at least `noise` times the strongest edge leaving its activity, where
 * ending the trace counts as an edge leaving it (so a rare way back from an activity that usually ends the trace is
 * filtered, as it is in a DFG with explicit start and end nodes); a start when it is at least `noise` times the most
 * frequent start. What is filtered is infrequent behaviour, which the cuts found on the filtered graph leave out.
 */
export function filterDfg(dfg: Dfg, noise: number): Dfg {
  const n = dfg.activities.length;
  const edges = new Float64Array(n * n);
  const ends = new Float64Array(n);
  for (let a = 0; a < n; a++) {
    let strongest = dfg.ends[a]!;
    for (let b = 0; b < n; b++) strongest = Math.max(strongest, dfg.edges[a * n + b]!);
    const kept = (weight: number): number => (weight > 0 && weight >= noise * strongest ? weight : 0);
    for (let b = 0; b < n; b++) edges[a * n + b] = kept(dfg.edges[a * n + b]!);
    ends[a] = kept(dfg.ends[a]!);
  }
  const most = Math.max(0, ...dfg.starts);
  const starts = dfg.starts.map((c) => (c > 0 && c >= noise * most ? c : 0));
  return { activities: dfg.activities, edges, starts, ends };
}
