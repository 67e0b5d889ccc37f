/**
 * "Did you mean …?" for ids, keys and tool names: the closest candidate by edit distance (case-insensitive,
 * adjacent transpositions count as one edit), if it is close enough to be a plausible typo: about one edit per
 * three characters, at least one, so `CHK_CANCL` finds `CHK_CANCEL` but `FOO` does not find `BAR`.
 *
 * Bounded, because a file can hold thousands of unknown names and a name can be a megabyte long: names longer than
 * `MAX_COMPARED_LENGTH` are never compared, candidates whose length alone rules them out are skipped (they are
 * bucketed by length), each comparison is a banded dynamic program that stops as soon as it cannot beat the best
 * so far, and one `Suggester` spends at most `WORK_BUDGET` cells over all its lookups, then lists the valid
 * options instead. The result depends on the input alone, so output stays deterministic.
 */
import { quoted } from './quoted.js';

/** Longest name compared: nobody mistypes a 129-character id, and the cost per comparison stays small. */
const MAX_COMPARED_LENGTH = 128;
/** Dynamic-programming cells one suggester may compute, over all lookups (a few tens of milliseconds). */
const WORK_BUDGET = 20_000_000;
/** How many valid options a suggestion lists when nothing is close. */
const LISTED = 12;

export interface Suggester {
  /** The closest candidate within the typo distance, or undefined. */
  closest(input: string): string | undefined;
  /** `Did you mean \`X\`?`, or a list of the valid options when nothing is close. */
  suggestion(input: string, noun: string): string;
}

interface Candidate {
  readonly name: string;
  readonly lower: string;
}

/** A suggester over `candidates`; create one per candidate list and reuse it for every lookup. */
export function suggester(candidates: readonly string[]): Suggester {
  const byLength = new Map<number, Candidate[]>();
  for (const name of new Set(candidates)) {
    if (name.length > MAX_COMPARED_LENGTH) continue;
    const bucket = byLength.get(name.length) ?? [];
    bucket.push({ name, lower: name.toLowerCase() });
    byLength.set(name.length, bucket);
  }
  let budget = WORK_BUDGET;

  const closest = (input: string): string | undefined => {
    if (input.length > MAX_COMPARED_LENGTH || budget <= 0) return undefined;
    const needle = input.toLowerCase();
    let best: Candidate | undefined;
    let bestDistance = Infinity;
    for (const [length, bucket] of byLength) {
      const limit = typoLimit(needle.length, length);
      if (Math.abs(needle.length - length) > limit) continue;
      for (const candidate of bucket) {
        const bound = Math.min(limit, bestDistance);
        budget -= (needle.length + 1) * (2 * bound + 1);
        if (budget <= 0) return undefined;
        const d = boundedDistance(needle, candidate.lower, bound);
        if (d > bound) continue;
        if (d < bestDistance || (d === bestDistance && best !== undefined && candidate.name < best.name)) {
          best = candidate;
          bestDistance = d;
        }
      }
    }
    return best?.name;
  };

  return {
    closest,
    suggestion(input, noun) {
      const match = closest(input);
      if (match !== undefined) return `Did you mean \`${match}\`?`;
      if (candidates.length === 0) return `There are no ${noun}s.`;
      const shown = candidates
        .slice(0, LISTED)
        .map((c) => quoted(c))
        .join(', ');
      return `Valid ${noun}s: ${shown}${candidates.length > LISTED ? `, … (${candidates.length} in all)` : ''}.`;
    },
  };
}

/** The most edits that still look like a typo between names of these lengths. */
function typoLimit(a: number, b: number): number {
  return Math.max(1, Math.floor(Math.max(a, b) / 3));
}

/**
 * Optimal string alignment distance of `a` and `b` if it is at most `bound`, else `bound + 1`. Only the diagonal
 * band of width `2 * bound + 1` is computed: a cell farther from the diagonal already costs more than `bound`.
 */
export function boundedDistance(a: string, b: string, bound: number): number {
  const over = bound + 1;
  if (Math.abs(a.length - b.length) > bound) return over;
  const cols = b.length + 1;
  let older = new Array<number>(cols).fill(over);
  let previous = new Array<number>(cols).fill(over);
  let current = new Array<number>(cols).fill(over);
  for (let j = 0; j <= Math.min(bound, b.length); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current.fill(over);
    if (i <= bound) current[0] = i;
    let rowMin = current[0]!;
    const from = Math.max(1, i - bound);
    const to = Math.min(b.length, i + bound);
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        v = Math.min(v, older[j - 2]! + 1);
      }
      current[j] = Math.min(v, over);
      if (current[j]! < rowMin) rowMin = current[j]!;
    }
    if (rowMin > bound) return over;
    [older, previous, current] = [previous, current, older];
  }
  return Math.min(previous[b.length]!, over);
}
