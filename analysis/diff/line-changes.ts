/**
 * What changed between two versions of a text (a node's prompt, the system prompt's prose), line by line: the lines
 * removed and added, grouped in hunks (each a run of old lines replaced by new ones), in order. The lines both keep in
 * order are a longest common subsequence of the two, found after the common head and tail are set aside (an edit of
 * a prompt changes a line or two); past `MAX_CELLS` of that table the middle is one hunk, all of it replaced.
 */

export interface LineHunk {
  /** The old lines this hunk replaces, in order. */
  readonly removed: readonly string[];
  /** The new lines in their place. */
  readonly added: readonly string[];
}

export interface LineChanges {
  readonly lines_added: number;
  readonly lines_removed: number;
  readonly hunks: readonly LineHunk[];
}

/** Cells of the common-subsequence table computed at most: 2,000 × 2,000 lines. */
const MAX_CELLS = 4_000_000;

/** The changes from `before` to `after` (an absent text has no lines). */
export function lineChanges(before: string | undefined, after: string | undefined): LineChanges {
  const a = before === undefined ? [] : before.split('\n');
  const b = after === undefined ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const oldMiddle = a.slice(head, a.length - tail);
  const newMiddle = b.slice(head, b.length - tail);
  const hunks =
    oldMiddle.length * newMiddle.length > MAX_CELLS ? [{ removed: oldMiddle, added: newMiddle }] : diffLines(oldMiddle, newMiddle);
  return {
    lines_added: hunks.reduce((n, h) => n + h.added.length, 0),
    lines_removed: hunks.reduce((n, h) => n + h.removed.length, 0),
    hunks: hunks.filter((h) => h.removed.length + h.added.length > 0),
  };
}

function diffLines(a: readonly string[], b: readonly string[]): LineHunk[] {
  const cols = b.length + 1;
  // common[i * cols + j]: the longest common subsequence of a[i..] and b[j..].
  const common = new Uint32Array((a.length + 1) * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i * cols + j] =
        a[i] === b[j] ? common[(i + 1) * cols + j + 1]! + 1 : Math.max(common[(i + 1) * cols + j]!, common[i * cols + j + 1]!);
    }
  }
  const hunks: LineHunk[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const close = () => {
    if (removed.length + added.length > 0) hunks.push({ removed, added });
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      close();
      i++;
      j++;
    } else if (j < b.length && (i === a.length || common[i * cols + j + 1]! >= common[(i + 1) * cols + j]!)) added.push(b[j++]!);
    else removed.push(a[i++]!);
  }
  close();
  return hunks;
}
