/**
 * How a policy selector's node patterns match node ids: an id matches itself, and `*` stands for any run of
 * characters (`DO_*`, `*_CANCEL`). The compiler resolves a SOP's policies with it, and the expansion of a SOP's
 * sub-flows (`composition.ts`) resolves them again over the expanded graph, so the two read a pattern the same way.
 *
 * Pure, dependency-free and browser-safe.
 */

/**
 * A test for one pattern. Matched without a regular expression: a pattern is as long as the author makes it, and one
 * built from a megabyte id must not fail to compile or backtrack. With `*` as the only wildcard, taking each fixed
 * part at its leftmost place is exact.
 */
export function patternTest(pattern: string): (id: string) => boolean {
  if (!pattern.includes('*')) return (id) => id === pattern;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts.at(-1)!;
  const middle = parts.slice(1, -1);
  return (id) => {
    if (id.length < first.length + last.length || !id.startsWith(first) || !id.endsWith(last)) return false;
    const end = id.length - last.length;
    let at = first.length;
    for (const part of middle) {
      const found = id.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}
