/** The line changes `sop diff` shows for a prompt or the prose: hunks of old lines replaced by new ones, in order. */
import { describe, expect, it } from 'vitest';
import { lineChanges } from '../../../analysis/diff/line-changes.js';

describe('lineChanges', () => {
  const table: [string, { before: string | undefined; after: string | undefined; want: ReturnType<typeof lineChanges> }][] = [
    [
      'one line reworded',
      { before: 'a\nb\nc', after: 'a\nB\nc', want: { lines_added: 1, lines_removed: 1, hunks: [{ removed: ['b'], added: ['B'] }] } },
    ],
    [
      'two hunks apart',
      {
        before: 'a\nb\nc\nd\ne',
        after: 'a\nx\nc\nd\ne\nf',
        want: {
          lines_added: 2,
          lines_removed: 1,
          hunks: [
            { removed: ['b'], added: ['x'] },
            { removed: [], added: ['f'] },
          ],
        },
      },
    ],
    [
      'a prompt added',
      { before: undefined, after: 'a\nb', want: { lines_added: 2, lines_removed: 0, hunks: [{ removed: [], added: ['a', 'b'] }] } },
    ],
    [
      'a prompt removed',
      { before: 'a', after: undefined, want: { lines_added: 0, lines_removed: 1, hunks: [{ removed: ['a'], added: [] }] } },
    ],
    [
      'lines moved',
      {
        before: 'a\nb\nc',
        after: 'c\na\nb',
        want: {
          lines_added: 1,
          lines_removed: 1,
          hunks: [
            { removed: [], added: ['c'] },
            { removed: ['c'], added: [] },
          ],
        },
      },
    ],
    ['the same text', { before: 'a\nb', after: 'a\nb', want: { lines_added: 0, lines_removed: 0, hunks: [] } }],
  ];
  for (const [name, { before, after, want }] of table) it(name, () => expect(lineChanges(before, after)).toEqual(want));

  it('keeps the common head and tail of long texts out of the table, and replaces a too large middle whole', () => {
    const long = Array.from({ length: 50_000 }, (_, i) => `line ${i}`);
    const edited = [...long];
    edited[25_000] = 'changed';
    expect(lineChanges(long.join('\n'), edited.join('\n')).hunks).toEqual([{ removed: ['line 25000'], added: ['changed'] }]);
    const other = long.map((line) => `${line}!`);
    const whole = lineChanges(long.join('\n'), other.join('\n'));
    expect([whole.hunks.length, whole.lines_added, whole.lines_removed]).toEqual([1, 50_000, 50_000]);
  });
});
