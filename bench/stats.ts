/**
 * Small statistics for a noisy, shared 2-core machine: warm up first, repeat, report medians and
 * percentiles (never means, which one descheduled run can double). Times are in milliseconds, taken from
 * `process.hrtime.bigint()`.
 */

/** Milliseconds elapsed since `start` (a `process.hrtime.bigint()` reading). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The value below which `p` percent of `values` fall (linear interpolation between closest ranks). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export interface RepeatOptions {
  /** Runs thrown away before measuring (JIT, file cache, lazy imports). */
  readonly warmup: number;
  /** Measured runs (at most, when `budgetMs` is given). */
  readonly runs: number;
  /**
   * Take no further run that would end past this much measuring time, once `minRuns` are taken: a slow
   * phase of the machine (or a slow build) costs repetitions, never an unbounded bench.
   */
  readonly budgetMs?: number;
  readonly minRuns?: number;
}

/** Whether to stop: all runs taken, or the minimum taken and one more (of average length) would overrun the budget. */
function enough(options: RepeatOptions, taken: number, start: bigint): boolean {
  if (taken >= options.runs) return true;
  if (options.budgetMs === undefined || taken < (options.minRuns ?? 1)) return false;
  const elapsed = msSince(start);
  return elapsed + elapsed / taken > options.budgetMs;
}

/** Runs `fn` `warmup` times, then `runs` times (see `budgetMs`), and returns the measured durations in ms. */
export async function repeat(fn: () => Promise<unknown> | unknown, options: RepeatOptions): Promise<number[]> {
  for (let i = 0; i < options.warmup; i++) await fn();
  const times: number[] = [];
  const start = process.hrtime.bigint();
  while (!enough(options, times.length, start)) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(msSince(t));
  }
  return times;
}

/**
 * Measures a pair (subject, baseline) by alternating them run after run, so that a slow phase of the machine
 * hits both sides alike. Returns the durations of each side.
 */
export async function repeatPair(
  subject: () => Promise<unknown> | unknown,
  baseline: () => Promise<unknown> | unknown,
  options: RepeatOptions,
): Promise<{ subject: number[]; baseline: number[] }> {
  for (let i = 0; i < options.warmup; i++) {
    await baseline();
    await subject();
  }
  const out = { subject: [] as number[], baseline: [] as number[] };
  const start = process.hrtime.bigint();
  while (!enough(options, out.subject.length, start)) {
    let t = process.hrtime.bigint();
    await baseline();
    out.baseline.push(msSince(t));
    t = process.hrtime.bigint();
    await subject();
    out.subject.push(msSince(t));
  }
  return out;
}

/**
 * Times a function too fast for one reading: runs it in batches of `batch` calls and returns the per-call
 * median over `runs` batches, in ms.
 */
export async function perCallMedian(
  fn: () => Promise<unknown> | unknown,
  options: RepeatOptions & { readonly batch: number },
): Promise<number> {
  const batch = async (): Promise<void> => {
    for (let i = 0; i < options.batch; i++) await fn();
  };
  const times = await repeat(batch, options);
  return median(times) / options.batch;
}

/** Rounds to a few significant digits for display and JSON (the machine is not more precise than that). */
export function round(value: number, digits = 3): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const factor = 10 ** (digits - 1 - magnitude);
  return Math.round(value * factor) / factor;
}

/**
 * Times single calls of several sides in alternating blocks: one untimed block of each side first, then
 * `rounds` × (a block of `block` calls of each side, in the order given), so that a slow phase of the shared
 * machine hits every side alike. Returns each side's per-call durations in ms.
 */
export async function interleavedCalls<K extends string>(
  sides: Readonly<Record<K, () => Promise<unknown>>>,
  options: { readonly rounds: number; readonly block: number },
): Promise<Record<K, number[]>> {
  const names = Object.keys(sides) as K[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  const block = async (call: () => Promise<unknown>, into: number[] | undefined): Promise<void> => {
    for (let i = 0; i < options.block; i++) {
      const start = process.hrtime.bigint();
      await call();
      into?.push(msSince(start));
    }
  };
  for (const name of names) await block(sides[name], undefined);
  for (let round = 0; round < options.rounds; round++) {
    for (const name of names) await block(sides[name], times[name]);
  }
  return times;
}
