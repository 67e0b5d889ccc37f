/**
 * Splitting a log along a cut, as IMf splits it (Leemans et al., 2013): each part gets the sub-traces that belong to
 * it, and events that fit no part where they occur (the infrequent behaviour a filtered cut left out) are dropped.
 *
 *   - choice: a trace goes to the part holding most of its events (the first such part on a tie), projected on it;
 *   - sequence: a trace is cut into consecutive pieces, one per part, at the points that leave the fewest events in
 *     a piece of another part (those are dropped);
 *   - parallel: a trace is projected on each part;
 *   - loop: a trace alternates body and redo pieces; one that starts or ends in a redo, or goes from one redo to
 *     another, passes through an empty body there.
 */
import { eventLog, type EventLog } from './event-log.js';
import type { Partition } from './cuts.js';

export function splitChoice(log: EventLog, parts: Partition): EventLog[] {
  const partOf = partIndex(parts);
  const pieces = parts.map(() => [] as { trace: number[]; count: number }[]);
  for (const { trace, count } of log) {
    const counts = parts.map(() => 0);
    for (const a of trace) counts[partOf.get(a)!]! += 1;
    let best = 0;
    for (let p = 1; p < parts.length; p++) if (counts[p]! > counts[best]!) best = p;
    pieces[best]!.push({ trace: trace.filter((a) => partOf.get(a) === best), count });
  }
  return pieces.map((traces) => eventLog(traces));
}

export function splitSequence(log: EventLog, parts: Partition): EventLog[] {
  const partOf = partIndex(parts);
  const pieces = parts.map(() => [] as { trace: number[]; count: number }[]);
  for (const { trace, count } of log) {
    const bounds = sequenceBounds(
      trace.map((a) => partOf.get(a)!),
      parts.length,
    );
    for (let p = 0; p < parts.length; p++)
      pieces[p]!.push({ trace: trace.slice(bounds[p], bounds[p + 1]).filter((a) => partOf.get(a) === p), count });
  }
  return pieces.map((traces) => eventLog(traces));
}

export function splitParallel(log: EventLog, parts: Partition): EventLog[] {
  const partOf = partIndex(parts);
  return parts.map((_, p) => eventLog(log.map(({ trace, count }) => ({ trace: trace.filter((a) => partOf.get(a) === p), count }))));
}

/** The body's log first, then each redo's. */
export function splitLoop(log: EventLog, parts: Partition): EventLog[] {
  const partOf = partIndex(parts);
  const pieces = parts.map(() => [] as { trace: number[]; count: number }[]);
  for (const { trace, count } of log) {
    let current: number[] = [];
    let at = 0;
    for (const a of trace) {
      const p = partOf.get(a)!;
      if (p !== at) {
        // Close the piece; a trace that starts in a redo closes an empty body first.
        pieces[at]!.push({ trace: current, count });
        if (at !== 0 && p !== 0) pieces[0]!.push({ trace: [], count });
        current = [];
        at = p;
      }
      current.push(a);
    }
    pieces[at]!.push({ trace: current, count });
    if (at !== 0) pieces[0]!.push({ trace: [], count });
  }
  return pieces.map((traces) => eventLog(traces));
}

/**
 * Where a trace of parts (each event's part) is cut into one piece per part, in order: bounds[p] … bounds[p+1] is
 * part p's piece, chosen to leave the fewest events outside their part (the earliest cut among equals).
 */
export function sequenceBounds(of: readonly number[], parts: number): number[] {
  const length = of.length;
  // best[p][i]: the fewest misplaced events when parts 0…p−1 cover the first i events.
  let best = new Float64Array(length + 1).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  const choices: Int32Array[] = [];
  for (let p = 0; p < parts; p++) {
    const next = new Float64Array(length + 1).fill(Number.POSITIVE_INFINITY);
    const from = new Int32Array(length + 1);
    // next[i] = min over q ≤ i of best[q] + (events of [q, i) not in part p).
    let bestStart = Number.POSITIVE_INFINITY;
    let bestQ = 0;
    let outside = 0;
    for (let i = 0; i <= length; i++) {
      // Keep the running minimum of best[q] − outside(0…q) over q ≤ i.
      const candidate = best[i]! - outside;
      if (candidate < bestStart) {
        bestStart = candidate;
        bestQ = i;
      }
      next[i] = bestStart + outside;
      from[i] = bestQ;
      if (i < length && of[i] !== p) outside += 1;
    }
    choices.push(from);
    best = next;
  }
  const bounds = new Array<number>(parts + 1);
  bounds[parts] = length;
  for (let p = parts - 1; p >= 0; p--) bounds[p] = choices[p]![bounds[p + 1]!]!;
  return bounds;
}

function partIndex(parts: Partition): Map<number, number> {
  const index = new Map<number, number>();
  for (const [p, part] of parts.entries()) for (const a of part) index.set(a, p);
  return index;
}
