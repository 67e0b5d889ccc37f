/**
 * The counting behind the roll-out report's rows (`would-refuse.ts`) and the judged walks' (`judged-walks.ts`): what
 * happened, keyed by what identifies a row, counted per occurrence and per run, with the first few runs as examples
 * (one example per run). Rows come out most frequent first, then in most runs, then by `order`.
 */

/** At most this many example runs per row. */
export const EXAMPLES = 3;

export interface Tallied<E> {
  readonly count: number;
  readonly runs: number;
  readonly examples: readonly E[];
}

export interface RowTally<R, E> {
  /** One occurrence of the row `key` in run `runId`; `row` makes the row on its first occurrence. */
  add(key: string, row: () => R, runId: string, example: E): void;
  rows(order: (row: R) => string): (R & Tallied<E>)[];
}

export function createRowTally<R extends object, E>(): RowTally<R, E> {
  const slots = new Map<string, { readonly row: R; count: number; readonly runs: Set<string>; readonly examples: E[] }>();
  return {
    add(key, row, runId, example) {
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = { row: row(), count: 0, runs: new Set(), examples: [] };
        slots.set(key, slot);
      }
      slot.count += 1;
      if (!slot.runs.has(runId) && slot.examples.length < EXAMPLES) slot.examples.push(example);
      slot.runs.add(runId);
    },
    rows(order) {
      return [...slots.values()]
        .map(({ row, count, runs, examples }) => ({ ...row, count, runs: runs.size, examples }))
        .sort((a, b) => b.count - a.count || b.runs - a.runs || order(a).localeCompare(order(b)));
    },
  };
}
