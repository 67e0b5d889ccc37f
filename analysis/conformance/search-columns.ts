/**
 * The data the alignment search (`search.ts`) works in: the order of alignments as one number, the entries of
 * every layer and the edges between them as columns of typed arrays, a table from keys to the entries of one
 * layer, and a min-heap; kept per model and reused by the next search on it, so a batch over one SOP allocates them
 * once.
 */
import type { AlignModel } from './align-model.js';
import type { EventOutcome } from './align.js';

export const OPTIMA_CAP = 1_000_000;
/**
 * The order of alignments, as one number: cost first; then, for an inferred walk, the fewest calls left unexplained
 * (log moves: a call made where the walk's node offers it explains more of the log than one that is not, at the
 * same cost, so an agent that never authenticated is "AUTH skipped", not "a lookup made at AUTH"); then the fewest
 * moves. With declared moves the declared walk is the anchor: cost, then moves. Exact for fewer than 2^18 moves and
 * 2^18 log moves per transcript, and costs below 2^17.
 */
export const SCALE = 2 ** 36;
export const LOG = 2 ** 18;

/** The cost part of an order (costs are multiples of half a unit: `step_without_call` costs 0.5). */
export function costOf(g: number): number {
  return Math.floor(g / (SCALE / 2)) / 2;
}

export const OUTCOMES: readonly EventOutcome[] = ['sync', 'log', 'taken', 'off_walk', 'reset'];
export const SILENT = -1;

export const stateOf = (key: number): number => key >>> 1;
export const calledOf = (key: number): boolean => (key & 1) === 1;

/**
 * Every entry of every layer, as columns: an entry is a (state, called) key between two events, with its best
 * cost so far, the number of ways to reach it at that cost, and its best predecessor (an entry of the same layer
 * for a silent move, of the previous one for an event). A search allocates a few arrays, not thousands.
 */
export class Entries {
  size = 0;
  key = new Int32Array(256);
  g = new Float64Array(256);
  count = new Float64Array(256);
  pred = new Int32Array(256);
  /** SILENT, or the index of the event's outcome in OUTCOMES. */
  outcome = new Int8Array(256);
  /** The move's index in the predecessor state's moves (a silent move, a declared move taken), else -1. */
  move = new Int32Array(256);
  settled = new Uint8Array(256);
  mark = new Uint8Array(256);

  add(key: number, g: number, count: number, pred: number, outcome: number, move: number): number {
    if (this.size === this.key.length) this.grow();
    const at = this.size++;
    this.key[at] = key;
    this.g[at] = g;
    this.count[at] = count;
    this.pred[at] = pred;
    this.outcome[at] = outcome;
    this.move[at] = move;
    this.settled[at] = 0;
    this.mark[at] = 0;
    return at;
  }

  private grow(): void {
    const size = this.key.length * 2;
    const grown = <T extends Int32Array | Float64Array | Int8Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.key = grown(this.key, (n) => new Int32Array(n));
    this.g = grown(this.g, (n) => new Float64Array(n));
    this.count = grown(this.count, (n) => new Float64Array(n));
    this.pred = grown(this.pred, (n) => new Int32Array(n));
    this.outcome = grown(this.outcome, (n) => new Int8Array(n));
    this.move = grown(this.move, (n) => new Int32Array(n));
    this.settled = grown(this.settled, (n) => new Uint8Array(n));
    this.mark = grown(this.mark, (n) => new Uint8Array(n));
  }
}

/** Which entry a key has in one layer: a slot per key, valid where it carries the layer's stamp. */
export class KeyTable {
  private slot = new Int32Array(128);
  private stamp = new Int32Array(128);

  get(key: number, layer: number): number {
    return key < this.slot.length && this.stamp[key] === layer + 1 ? this.slot[key]! : -1;
  }

  set(key: number, layer: number, entry: number): void {
    if (key >= this.slot.length) {
      const size = Math.max(key + 1, this.slot.length * 2);
      const slot = new Int32Array(size);
      slot.set(this.slot);
      const stamp = new Int32Array(size);
      stamp.set(this.stamp);
      this.slot = slot;
      this.stamp = stamp;
    }
    this.slot[key] = entry;
    this.stamp[key] = layer + 1;
  }
}

/**
 * The columns a search works in, kept per model and reused by the next search on it (a batch over one SOP
 * allocates them once); a search is synchronous, so two never share them at once.
 */
export interface Scratch {
  readonly entries: Entries;
  readonly edges: Edges;
  readonly table: KeyTable;
  /** Layer numbers used so far in `table`. */
  layers: number;
  /** Per entry of a layer: its first incoming silent edge; per edge: the next one into the same entry. */
  head: Int32Array<ArrayBuffer>;
  link: Int32Array<ArrayBuffer>;
}

const scratches = new WeakMap<AlignModel, Scratch>();

export function scratchOf(model: AlignModel, layers: number): Scratch {
  let scratch = scratches.get(model);
  if (scratch === undefined || scratch.layers + layers > 2 ** 30) {
    scratch = {
      entries: new Entries(),
      edges: new Edges(),
      table: new KeyTable(),
      layers: 0,
      head: new Int32Array(256),
      link: new Int32Array(1024),
    };
    scratches.set(model, scratch);
  }
  scratch.entries.size = 0;
  scratch.edges.size = 0;
  return scratch;
}

/**
 * A layer: its entries are `first` to `end`; `order` holds the ones kept, in the order they were settled. Its
 * silent moves' edges start at `silent`, the edges of the event that leaves it at `events`.
 */
export interface Layer {
  readonly first: number;
  end: number;
  readonly order: number[];
  cut: boolean;
  silent: number;
  events: number;
}

/** Edges between entries with their cost (without moves; multiples of half a unit), in the order the search considered them. */
export class Edges {
  size = 0;
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  cost = new Float64Array(1024);

  add(from: number, to: number, cost: number): void {
    if (this.size === this.from.length) {
      const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
      const cost = new Float64Array(this.cost.length * 2);
      cost.set(this.cost);
      this.cost = cost;
    }
    this.from[this.size] = from;
    this.to[this.size] = to;
    this.cost[this.size] = cost;
    this.size += 1;
  }
}

/** A binary min-heap of (cost, entry), ties to the entry reached first. */
export class Heap {
  private readonly gs: number[] = [];
  private readonly ats: number[] = [];

  get size(): number {
    return this.gs.length;
  }

  /** The cheapest cost. */
  top(): number {
    return this.gs[0]!;
  }

  clear(): void {
    this.gs.length = 0;
    this.ats.length = 0;
  }

  push(g: number, at: number): void {
    const gs = this.gs;
    const ats = this.ats;
    let i = gs.length;
    gs.push(g);
    ats.push(at);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pg = gs[parent]!;
      if (pg < g || (pg === g && ats[parent]! < at)) break;
      gs[i] = pg;
      ats[i] = ats[parent]!;
      i = parent;
    }
    gs[i] = g;
    ats[i] = at;
  }

  /** Pops the cheapest entry (ties: the first reached). */
  pop(): number {
    const gs = this.gs;
    const ats = this.ats;
    const top = ats[0]!;
    const g = gs.pop()!;
    const at = ats.pop()!;
    const size = gs.length;
    if (size === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      let m = l;
      if (r < size && (gs[r]! < gs[l]! || (gs[r] === gs[l] && ats[r]! < ats[l]!))) m = r;
      if (g < gs[m]! || (g === gs[m] && at < ats[m]!)) break;
      gs[i] = gs[m]!;
      ats[i] = ats[m]!;
      i = m;
    }
    gs[i] = g;
    ats[i] = at;
    return top;
  }
}
