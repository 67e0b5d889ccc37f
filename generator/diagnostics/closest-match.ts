/**
 * "Did you mean …?" for ids, keys and tool names: the closest candidate by edit distance (case-insensitive,
 * adjacent transpositions count as one edit), if it is close enough to be a plausible typo.
 */

export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const needle = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(needle, candidate.toLowerCase());
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  // Allow about one edit per three characters, at least one, so `CHK_CANCL` finds `CHK_CANCEL`
  // but `FOO` does not find `BAR`.
  const limit = Math.max(1, Math.floor(Math.max(needle.length, best.length) / 3));
  return bestDistance <= limit ? best : undefined;
}

/** `Did you mean \`X\`?`, or a list of the valid options when nothing is close. */
export function suggestion(input: string, candidates: readonly string[], noun: string): string {
  const match = closestMatch(input, candidates);
  if (match) return `Did you mean \`${match}\`?`;
  const shown = candidates
    .slice(0, 12)
    .map((c) => `\`${c}\``)
    .join(', ');
  return candidates.length === 0
    ? `There are no ${noun}s.`
    : `Valid ${noun}s: ${shown}${candidates.length > 12 ? `, … (${candidates.length} in all)` : ''}.`;
}

/** Optimal string alignment distance. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}
