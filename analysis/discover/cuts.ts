/**
 * The Inductive Miner's cuts (Leemans, Fahland, van der Aalst, 2013): ways to split a directly-follows graph's
 * activities into parts that an operator joins. Each returns the parts as activity ids, or null when the graph has
 * no such cut. Tried in this order by the miner:
 *
 *   - exclusive choice: the graph falls apart into pieces no edge joins (either way);
 *   - sequence: the strongly connected components, with components that do not reach one another merged, in the
 *     order they reach one another (every activity of a part reaches every activity of the parts after it, and none
 *     reaches back);
 *   - parallel: parts every activity of which follows and is followed by every activity of the others, each with a
 *     start and an end activity;
 *   - loop: the body holds every start and end activity; each other part (a redo) is entered only from the end
 *     activities, by all of them, and leaves only to the start activities, to all of them.
 */
import type { Dfg } from './event-log.js';

export type Partition = readonly (readonly number[])[];

export function choiceCut(dfg: Dfg): Partition | null {
  const n = dfg.activities.length;
  const parts = components(n, (a, b) => dfg.edges[a * n + b]! > 0 || dfg.edges[b * n + a]! > 0);
  return parts.length < 2 ? null : ids(dfg, parts);
}

export function sequenceCut(dfg: Dfg): Partition | null {
  const n = dfg.activities.length;
  const reach = reachability(dfg);
  const group = Array.from({ length: n }, (_, i) => i);
  const find = (a: number): number => (group[a] === a ? a : (group[a] = find(group[a]!)));
  const union = (a: number, b: number): boolean => {
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb) return false;
    group[Math.max(ra, rb)] = Math.min(ra, rb);
    return true;
  };
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (reach[a * n + b] && reach[b * n + a]) union(a, b);
  // Merge parts holding two activities neither of which reaches the other, or parts that reach each other.
  for (let changed = true; changed; ) {
    changed = false;
    const forward = new Map<string, boolean>();
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        if (a === b || find(a) === find(b)) continue;
        if (!reach[a * n + b] && !reach[b * n + a]) {
          changed = union(a, b) || changed;
          continue;
        }
        if (reach[a * n + b]) forward.set(`${find(a)},${find(b)}`, true);
      }
    }
    if (!changed)
      for (const key of forward.keys()) {
        const [g, h] = key.split(',').map(Number) as [number, number];
        if (find(g) !== find(h) && forward.has(`${h},${g}`)) changed = union(g, h) || changed;
      }
  }
  const roots = [...new Set(Array.from({ length: n }, (_, a) => find(a)))];
  if (roots.length < 2) return null;
  const members = roots.map((root) => Array.from({ length: n }, (_, a) => a).filter((a) => find(a) === root));
  // A part's place: how many other parts reach it.
  const rank = members.map(
    (part) => members.filter((other) => other !== part && other.some((a) => part.some((b) => reach[a * n + b]))).length,
  );
  const order = members.map((part, i) => ({ part, rank: rank[i]! })).sort((x, y) => x.rank - y.rank || x.part[0]! - y.part[0]!);
  return ids(
    dfg,
    order.map(({ part }) => part),
  );
}

export function parallelCut(dfg: Dfg): Partition | null {
  const n = dfg.activities.length;
  const both = (a: number, b: number): boolean => dfg.edges[a * n + b]! > 0 && dfg.edges[b * n + a]! > 0;
  const parts = components(n, (a, b) => !both(a, b));
  if (parts.length < 2) return null;
  const valid = parts.filter((part) => part.some((a) => dfg.starts[a]! > 0) && part.some((a) => dfg.ends[a]! > 0));
  if (valid.length < 2) return null;
  const invalid = parts.filter((part) => !valid.includes(part)).flat();
  const merged = valid.map((part, i) => (i === 0 ? [...part, ...invalid].sort((a, b) => a - b) : part));
  return ids(dfg, merged);
}

export function loopCut(dfg: Dfg): Partition | null {
  const n = dfg.activities.length;
  const edge = (a: number, b: number): boolean => dfg.edges[a * n + b]! > 0;
  const start = (a: number): boolean => dfg.starts[a]! > 0;
  const end = (a: number): boolean => dfg.ends[a]! > 0;
  const body = new Set<number>();
  for (let a = 0; a < n; a++) if (start(a) || end(a)) body.add(a);
  if (body.size === 0) return null;
  const rest = Array.from({ length: n }, (_, a) => a).filter((a) => !body.has(a));
  const restParts = components(rest.length, (i, j) => edge(rest[i]!, rest[j]!) || edge(rest[j]!, rest[i]!)).map((part) =>
    part.map((i) => rest[i]!),
  );
  let redo = restParts;
  for (let changed = true; changed; ) {
    changed = false;
    const kept: number[][] = [];
    for (const part of redo) {
      if (isRedo(part, body, edge, start, end)) kept.push(part);
      else {
        for (const a of part) body.add(a);
        changed = true;
      }
    }
    redo = kept;
  }
  if (redo.length === 0) return null;
  return ids(dfg, [[...body].sort((a, b) => a - b), ...redo]);
}

function isRedo(
  part: readonly number[],
  body: ReadonlySet<number>,
  edge: (a: number, b: number) => boolean,
  start: (a: number) => boolean,
  end: (a: number) => boolean,
): boolean {
  const ends = [...body].filter(end);
  const starts = [...body].filter(start);
  for (const b of part) {
    for (const a of body) {
      // Entered only from the body's end activities, and left only to its start activities.
      if (edge(a, b) && !end(a)) return false;
      if (edge(b, a) && !start(a)) return false;
    }
    // Entered from one end activity: from all of them; leaving to one start activity: to all of them.
    if (ends.some((a) => edge(a, b)) && !ends.every((a) => edge(a, b))) return false;
    if (starts.some((a) => edge(b, a)) && !starts.every((a) => edge(b, a))) return false;
  }
  return true;
}

/** Whether each activity reaches each other along the graph's edges (a path of one edge or more). */
function reachability(dfg: Dfg): Uint8Array {
  const n = dfg.activities.length;
  const reach = new Uint8Array(n * n);
  for (let from = 0; from < n; from++) {
    const stack = [from];
    while (stack.length > 0) {
      const a = stack.pop()!;
      for (let b = 0; b < n; b++) {
        if (dfg.edges[a * n + b]! > 0 && reach[from * n + b] === 0) {
          reach[from * n + b] = 1;
          stack.push(b);
        }
      }
    }
  }
  return reach;
}

/** Connected components of the graph on 0…n−1 where `joined` says which pairs are linked; each sorted, by their least member. */
function components(n: number, joined: (a: number, b: number) => boolean): number[][] {
  const seen = new Uint8Array(n);
  const parts: number[][] = [];
  for (let a = 0; a < n; a++) {
    if (seen[a]) continue;
    const part: number[] = [];
    const stack = [a];
    seen[a] = 1;
    while (stack.length > 0) {
      const x = stack.pop()!;
      part.push(x);
      for (let y = 0; y < n; y++) {
        if (!seen[y] && joined(x, y)) {
          seen[y] = 1;
          stack.push(y);
        }
      }
    }
    parts.push(part.sort((x, y) => x - y));
  }
  return parts;
}

function ids(dfg: Dfg, parts: readonly (readonly number[])[]): Partition {
  return parts.map((part) => part.map((a) => dfg.activities[a]!));
}
