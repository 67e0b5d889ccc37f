/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same inputs on every machine, so any finding
 * of the fuzzer is reproduced from its seed alone. One instance per run, passed explicitly.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** An integer in [1, max], spread evenly over orders of magnitude (most small, some huge). */
  magnitude(max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function random(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n: number) => Math.floor(next() * n);
  return {
    next,
    below,
    magnitude: (max) => Math.max(1, Math.min(max, Math.floor(Math.exp(next() * Math.log(max + 1))))),
    pick: (items) => items[below(items.length)]!,
  };
}
