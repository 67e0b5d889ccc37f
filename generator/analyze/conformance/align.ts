/**
 * The optimal alignment of a transcript's events to a SOP: the walk from the entry node, along moves the runtime
 * allows, that explains the calls with the least cost (`cost-model.ts`), and among those the fewest moves.
 *
 * The search runs over (event position, run state, called-at-this-node) and goes event by event: for each event,
 * a shortest-path search over the moves between two events (Dijkstra; all costs are non-negative), then the event
 * itself (a call made where the walk is, a declared move taken or not, a restart), which leads to the next
 * event's states. With every state kept this is exact: a shortest path in the product of the run's states and
 * the log, like pm4py's search over (marking, trace position), without needing a heuristic since a SOP's run
 * states are few (the retail SOP has 49). It is bounded for large SOPs: at most `maxStatesPerEvent` states are
 * kept between two events, the cheapest ones, and the result says whether the bound cut the search and where; it
 * is then the best alignment among the states kept.
 *
 * Deterministic: ties are broken by the order of the search, which depends only on the trace and the rule (states
 * in the order they were reached, moves in the rule's order: successors in edge order, the entry node, the hubs),
 * never on the order run states were first met in a batch. Besides the chosen alignment it counts the optimal
 * ones and names the events whose node differs between alignments of the least cost: where the log cannot tell.
 */
import type { AlignModel, RunMove, RunState } from './align-model.js';
import { callCost, COSTS, enterCost, offers } from './cost-model.js';

/** An event the alignment reads, with its index in the conversation's events. */
export type TraceEvent =
  | { readonly kind: 'call'; readonly tool: number; readonly index: number }
  /** A declared move (goto_node); `target` -1 when it names no node of the SOP. */
  | { readonly kind: 'goto'; readonly target: number; readonly index: number }
  /** load_graph: a fresh run. */
  | { readonly kind: 'reset'; readonly index: number };

export interface AlignOptions {
  /** The transcript declares its moves (goto_node): a move it did not declare is a deviation. */
  readonly declared: boolean;
  /** The transcript shows the domain calls (an audit log does not: then no required node counts as skipped). */
  readonly observesCalls: boolean;
  readonly maxStatesPerEvent: number;
}

export const DEFAULT_MAX_STATES_PER_EVENT = 4096;

/** How an event was explained. */
export type EventOutcome = 'sync' | 'log' | 'taken' | 'off_walk' | 'reset';

export type AlignMove =
  /** A move the log does not show, before trace event `before` (the trace's length: after the last one). */
  | { readonly type: 'silent'; readonly from: number; readonly called: boolean; readonly move: RunMove; readonly before: number }
  | {
      readonly type: 'event';
      readonly event: number;
      readonly outcome: EventOutcome;
      readonly from: number;
      readonly called: boolean;
      readonly next: number;
      /** The move a declared goto_node took. */
      readonly move?: RunMove;
    };

export interface Alignment {
  readonly moves: readonly AlignMove[];
  readonly cost: number;
  /** Moves into nodes along the walk (declared or not). */
  readonly walkMoves: number;
  /** How many alignments have this cost and this many moves (at most OPTIMA_CAP, then `capped`). */
  readonly optimal: number;
  readonly capped: boolean;
  /** Trace positions whose node differs between alignments of the least cost, with the nodes (flowchart order). */
  readonly undetermined: readonly { readonly event: number; readonly nodes: readonly number[] }[];
  readonly exact: boolean;
  /** The first trace position whose states the bound cut, or null. */
  readonly cutAt: number | null;
  /** The most states kept between two events. */
  readonly maxStates: number;
  /** The run state and called flag at the end. */
  readonly final: { readonly state: number; readonly called: boolean };
}

const OPTIMA_CAP = 1_000_000;
/**
 * The order of alignments, as one number: cost first; then, for an inferred walk, the fewest calls left unexplained
 * (log moves: a call made where the walk's node offers it explains more of the log than one that is not, at the
 * same cost, so an agent that never authenticated is "AUTH skipped", not "a lookup made at AUTH"); then the fewest
 * moves. With declared moves the declared walk is the anchor: cost, then moves. Exact for fewer than 2^18 moves and
 * 2^18 log moves per transcript, and costs below 2^17.
 */
const SCALE = 2 ** 36;
const LOG = 2 ** 18;

const OUTCOMES: readonly EventOutcome[] = ['sync', 'log', 'taken', 'off_walk', 'reset'];
const SILENT = -1;

const stateOf = (key: number): number => key >>> 1;
const calledOf = (key: number): boolean => (key & 1) === 1;

/**
 * Every entry of every layer, as columns: an entry is a (state, called) key between two events, with its best
 * cost so far, the number of ways to reach it at that cost, and its best predecessor (an entry of the same layer
 * for a silent move, of the previous one for an event). A search allocates a few arrays, not thousands.
 */
class Entries {
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
class KeyTable {
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
interface Scratch {
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

function scratchOf(model: AlignModel, layers: number): Scratch {
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
interface Layer {
  readonly first: number;
  end: number;
  readonly order: number[];
  cut: boolean;
  silent: number;
  events: number;
}

/** Edges between entries with their cost (without moves), in the order the search considered them. */
class Edges {
  size = 0;
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  cost = new Int32Array(1024);

  add(from: number, to: number, cost: number): void {
    if (this.size === this.from.length) {
      const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
      this.cost = grow(this.cost);
    }
    this.from[this.size] = from;
    this.to[this.size] = to;
    this.cost[this.size] = cost;
    this.size += 1;
  }
}

export function align(model: AlignModel, trace: readonly TraceEvent[], options: AlignOptions): Alignment {
  // No entry that already costs more than some alignment can be on an optimal one (costs only grow along a path).
  // When the bound cuts the states, the ones kept may all cost more than that alignment: search again without it.
  const limit = (new Search(model, options, trace).upperBound(trace) + 1) * SCALE;
  let search = new Search(model, options, trace);
  let forward = search.forward(trace, limit);
  if (forward === null) {
    search = new Search(model, options, trace);
    forward = search.forward(trace, Number.POSITIVE_INFINITY)!;
  }
  const { layers, cutAt, maxStates } = forward;
  const entries = search.entries;
  const last = layers.at(-1)!;
  let best = last.order[0]!;
  for (const at of last.order) if (entries.g[at]! < entries.g[best]!) best = at;
  const bestG = entries.g[best]!;
  let optimal = 0;
  for (const at of last.order) if (entries.g[at] === bestG) optimal = Math.min(OPTIMA_CAP, optimal + entries.count[at]!);
  return {
    moves: reconstruct(model, entries, layers.length - 1, best),
    cost: Math.floor(bestG / SCALE),
    walkMoves: bestG % LOG,
    optimal,
    capped: optimal >= OPTIMA_CAP,
    undetermined: search.undetermined(layers, bestG),
    exact: cutAt === null,
    cutAt,
    maxStates,
    final: { state: stateOf(entries.key[best]!), called: calledOf(entries.key[best]!) },
  };
}

/** The search's state and operations on one model: entries, keys, the moves between events, the events. */
class Search {
  readonly entries: Entries;
  /** Every move and event considered, for the backward marking (`undetermined`). */
  readonly edges: Edges;
  /** Whether the last `relax` lowered its entry's cost. */
  improved = false;
  private readonly table: KeyTable;
  /** Layer numbers are unique across the searches that share a scratch (its key table is not cleared). */
  private readonly base: number;
  private readonly undeclared: number;
  /** What a log move adds to the order (nothing with declared moves). */
  readonly logWeight: number;
  private readonly heapG: number[] = [];
  private readonly heapAt: number[] = [];
  /** The ways `explain` found to explain an event (at most two). */
  readonly optKey = [0, 0];
  readonly optCost = [0, 0];
  readonly optMoves = [0, 0];
  readonly optOutcome = [0, 0];
  readonly optMove = [0, 0];

  constructor(
    private readonly model: AlignModel,
    readonly options: AlignOptions,
    trace: readonly TraceEvent[],
  ) {
    this.undeclared = options.declared ? COSTS.undeclared_move : 0;
    this.logWeight = options.declared ? 0 : LOG;
    const scratch = scratchOf(model, trace.length + 1);
    this.entries = scratch.entries;
    this.edges = scratch.edges;
    this.table = scratch.table;
    this.base = scratch.layers;
    scratch.layers += trace.length + 1;
  }

  /** An entry's key: the state, and whether its node was called, which only matters at a required node. */
  key(state: number, called: boolean): number {
    const node = this.model.state(state).node;
    return state * 2 + (called && node >= 0 && this.model.requiredWithTools[node] === 1 ? 1 : 0);
  }

  /**
   * Offers a cost to a key in layer `number`: a new key becomes an entry, a lower cost replaces, an equal one adds
   * its count (the first predecessor stays: ties go to the order of the search). Returns the entry; `improved`
   * says whether its cost went down.
   */
  relax(layer: Layer, number: number, key: number, g: number, count: number, pred: number, outcome: number, move: number): number {
    const entries = this.entries;
    const at = this.table.get(key, this.base + number);
    this.improved = false;
    if (at < 0) {
      const added = entries.add(key, g, count, pred, outcome, move);
      this.table.set(key, this.base + number, added);
      layer.end = entries.size;
      this.improved = true;
      return added;
    }
    if (entries.settled[at] === 1 || g > entries.g[at]!) return at;
    if (g === entries.g[at]) {
      entries.count[at] = Math.min(OPTIMA_CAP, entries.count[at]! + count);
      return at;
    }
    this.improved = true;
    entries.g[at] = g;
    entries.count[at] = count;
    entries.pred[at] = pred;
    entries.outcome[at] = outcome;
    entries.move[at] = move;
    return at;
  }

  /** Lists a state's moves with their next states and base costs on first use (`moveNext`, `moveBase`). */
  private ensureMoves(state: RunState): void {
    if (state.moveBase === undefined) {
      const moves = this.model.movesOf(state);
      state.moveBase = Int32Array.from(moves, (move) => enterCost(this.model, move));
    }
  }

  /** The cost a move from an entry adds on top of its base cost: undeclared, and leaving a required node uncalled. */
  private leaving(state: RunState, called: boolean): number {
    const skip =
      this.options.observesCalls && state.node >= 0 && this.model.requiredWithTools[state.node] === 1 && !called
        ? COSTS.skipped_required
        : 0;
    return this.undeclared + skip;
  }

  /**
   * Dijkstra over the moves between two events, from the layer's entries; keeps the `maxStatesPerEvent` cheapest,
   * and none whose cost reaches `limit`. Ties are settled in the order the entries were reached.
   */
  settle(layer: Layer, number: number, limit: number): void {
    const entries = this.entries;
    this.heapG.length = 0;
    this.heapAt.length = 0;
    for (let at = layer.first; at < layer.end; at++) this.push(entries.g[at]!, at);
    while (this.heapG.length > 0) {
      const g = this.heapG[0]!;
      const at = this.pop();
      if (entries.settled[at] === 1 || g !== entries.g[at]) continue;
      if (layer.order.length >= this.options.maxStatesPerEvent) {
        layer.cut = true;
        return;
      }
      entries.settled[at] = 1;
      layer.order.push(at);
      const key = entries.key[at]!;
      const state = this.model.state(stateOf(key));
      this.ensureMoves(state);
      const next = state.moveNext!;
      const base = state.moveBase!;
      const leaving = this.leaving(state, calledOf(key));
      const count = entries.count[at]!;
      for (let m = 0; m < next.length; m++) {
        const dev = leaving + base[m]!;
        const cost = g + dev * SCALE + 1;
        if (cost >= limit) continue;
        const target = this.relax(layer, number, next[m]! * 2, cost, count, at, SILENT, m);
        this.edges.add(at, target, dev);
        if (this.improved) this.push(cost, target);
      }
    }
  }

  /**
   * The layers from the start to the end of the trace, keeping no entry whose cost reaches `limit`; null when a
   * layer is left empty (only when the bound cut the states an alignment under `limit` needed).
   */
  forward(trace: readonly TraceEvent[], limit: number): { layers: Layer[]; cutAt: number | null; maxStates: number } | null {
    const entries = this.entries;
    const layers: Layer[] = [];
    let layer: Layer = { first: 0, end: 0, order: [], cut: false, silent: 0, events: 0 };
    this.relax(layer, 0, this.key(this.model.start, false), 0, 1, -1, SILENT, -1);
    let cutAt: number | null = null;
    let maxStates = 0;
    for (let position = 0; ; position++) {
      if (position < trace.length) {
        this.settle(layer, position, limit);
        if (layer.cut && cutAt === null) cutAt = position;
      } else for (let at = layer.first; at < layer.end; at++) layer.order.push(at); // after the last event: no moves
      if (layer.order.length === 0) return null;
      if (position < trace.length) maxStates = Math.max(maxStates, layer.order.length);
      layers.push(layer);
      if (position === trace.length) return { layers, cutAt, maxStates };
      const next: Layer = { first: entries.size, end: entries.size, order: [], cut: false, silent: 0, events: 0 };
      layer.events = this.edges.size;
      const event = trace[position]!;
      for (const at of layer.order) {
        const options = this.explain(entries.key[at]!, event);
        for (let o = 0; o < options; o++) {
          const g = entries.g[at]! + this.optCost[o]! * SCALE + (this.optOutcome[o] === 1 ? this.logWeight : 0) + this.optMoves[o]!;
          if (g >= limit) continue;
          const target = this.relax(next, position + 1, this.optKey[o]!, g, entries.count[at]!, at, this.optOutcome[o]!, this.optMove[o]!);
          this.edges.add(at, target, this.optCost[o]!);
        }
      }
      next.silent = this.edges.size;
      layer = next;
    }
  }

  /**
   * The cost of one alignment found greedily, an upper bound on the optimal one: each call made where the walk is,
   * else at the nearest state that offers it through moves that cost nothing, else a log move; each declared move
   * taken when the rule allows it.
   */
  upperBound(trace: readonly TraceEvent[]): number {
    const model = this.model;
    let state = model.state(model.start);
    let called = false;
    let total = 0;
    for (const event of trace) {
      if (event.kind === 'reset') {
        state = model.state(model.start);
        called = false;
        continue;
      }
      if (event.kind === 'goto') {
        const m = event.target < 0 ? -1 : model.movesOf(state).findIndex((move) => move.target === event.target);
        if (m < 0) total += COSTS.declared_move_off_walk;
        else {
          this.ensureMoves(state);
          total += this.leaving(state, called) - this.undeclared + state.moveBase![m]!;
          state = model.state(state.moveNext![m]!);
          called = false;
        }
        continue;
      }
      if (!offers(model, state, event.tool)) {
        const found = this.options.declared ? undefined : this.nearestOffering(state, called, event.tool);
        if (found !== undefined) {
          state = found;
          called = false;
        }
      }
      total += callCost(model, state, event.tool);
      if (offers(model, state, event.tool)) called = true;
    }
    return total;
  }

  /** The nearest state offering `tool` through moves that cost nothing (breadth first, in the rule's order). */
  private nearestOffering(from: RunState, called: boolean, tool: number): RunState | undefined {
    const seen = new Set<number>([from.id]);
    let frontier: RunState[] = [from];
    let first = true;
    while (frontier.length > 0) {
      const next: RunState[] = [];
      for (const state of frontier) {
        this.ensureMoves(state);
        const targets = state.moveNext!;
        const base = state.moveBase!;
        const leaving = this.leaving(state, first ? called : false);
        for (let m = 0; m < targets.length; m++) {
          if (leaving + base[m]! > 0 || seen.has(targets[m]!)) continue;
          const target = this.model.state(targets[m]!);
          if (offers(this.model, target, tool)) return target;
          seen.add(target.id);
          next.push(target);
        }
      }
      first = false;
      frontier = next;
    }
    return undefined;
  }

  /**
   * The ways to explain `event` from an entry, written to the `opt*` columns (at most two): the next key, the
   * cost, the moves (1 for a declared move taken), the outcome and the move's index. Returns how many.
   */
  explain(key: number, event: TraceEvent): number {
    const model = this.model;
    const state = model.state(stateOf(key));
    if (event.kind === 'reset') return this.option(0, this.key(model.start, false), 0, 0, 4, -1);
    if (event.kind === 'call') {
      const cost = callCost(model, state, event.tool);
      return offers(model, state, event.tool)
        ? this.option(0, this.key(state.id, true), cost, 0, 0, -1)
        : this.option(0, key, cost, 0, 1, -1);
    }
    let options = 0;
    if (event.target >= 0) {
      const moves = model.movesOf(state);
      this.ensureMoves(state);
      for (let m = 0; m < moves.length; m++) {
        if (moves[m]!.target !== event.target) continue;
        options = this.option(
          0,
          state.moveNext![m]! * 2,
          this.leaving(state, calledOf(key)) - this.undeclared + state.moveBase![m]!,
          1,
          2,
          m,
        );
        break;
      }
    }
    return this.option(options, key, COSTS.declared_move_off_walk, 0, 3, -1);
  }

  private option(o: number, key: number, cost: number, moves: number, outcome: number, move: number): number {
    this.optKey[o] = key;
    this.optCost[o] = cost;
    this.optMoves[o] = moves;
    this.optOutcome[o] = outcome;
    this.optMove[o] = move;
    return o + 1;
  }

  /**
   * The trace positions whose node differs between alignments of the least cost (whatever their number of moves:
   * where the log cannot tell). Entries on some least-cost alignment are marked backwards from the last layer: an
   * entry is on one when a move from it reaches a marked entry at exactly its cost. Moves between two events can go
   * round loops at no cost, so within a layer the marking runs to a fixpoint. Each event's nodes are those of the
   * marked entries it is explained from.
   */
  undetermined(layers: readonly Layer[], bestG: number): { event: number; nodes: number[] }[] {
    const entries = this.entries;
    const edges = this.edges;
    const dev = (at: number): number => Math.floor(entries.g[at]! / SCALE);
    const bestDev = Math.floor(bestG / SCALE);
    for (const at of layers.at(-1)!.order) if (dev(at) === bestDev) entries.mark[at] = 1;
    const result: { event: number; nodes: number[] }[] = [];
    const nodes = new Set<number>();
    const scratch = scratches.get(this.model)!;
    for (let position = layers.length - 2; position >= 0; position--) {
      const layer = layers[position]!;
      nodes.clear();
      const work: number[] = [];
      // The event that leaves the layer: its edges run from `events` to the next layer's `silent`.
      for (let e = layer.events; e < layers[position + 1]!.silent; e++) {
        const from = edges.from[e]!;
        const to = edges.to[e]!;
        if (entries.mark[to] !== 1 || dev(from) + edges.cost[e]! !== dev(to)) continue;
        nodes.add(this.model.state(stateOf(entries.key[from]!)).node);
        if (entries.mark[from] !== 1) {
          entries.mark[from] = 1;
          work.push(from);
        }
      }
      // Back through the silent moves, from the marked entries, to a fixpoint: the edges into each entry as lists.
      const span = layer.end - layer.first;
      if (scratch.head.length < span) scratch.head = new Int32Array(span * 2);
      if (scratch.link.length < edges.size) scratch.link = new Int32Array(edges.size * 2);
      const head = scratch.head;
      const link = scratch.link;
      head.fill(-1, 0, span);
      for (let e = layer.silent; e < layer.events; e++) {
        const to = edges.to[e]! - layer.first;
        link[e] = head[to]!;
        head[to] = e;
      }
      while (work.length > 0) {
        const to = work.pop()!;
        for (let e = head[to - layer.first]!; e >= 0; e = link[e]!) {
          const from = edges.from[e]!;
          if (entries.mark[from] === 1 || dev(from) + edges.cost[e]! !== dev(to)) continue;
          entries.mark[from] = 1;
          work.push(from);
        }
      }
      if (nodes.size > 1) result.push({ event: position, nodes: [...nodes].sort((a, b) => a - b) });
    }
    return result.reverse();
  }

  private push(g: number, at: number): void {
    const gs = this.heapG;
    const ats = this.heapAt;
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
  private pop(): number {
    const gs = this.heapG;
    const ats = this.heapAt;
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

/** The chosen alignment, from the best entry at the end back along the predecessors. */
function reconstruct(model: AlignModel, entries: Entries, lastLayer: number, best: number): AlignMove[] {
  const moves: AlignMove[] = [];
  let position = lastLayer;
  for (let at = best; entries.pred[at]! >= 0; ) {
    const from = entries.pred[at]!;
    const fromKey = entries.key[from]!;
    const state = model.state(stateOf(fromKey));
    const move = entries.move[at]!;
    const outcome = entries.outcome[at]!;
    if (outcome === SILENT) {
      moves.push({ type: 'silent', from: state.id, called: calledOf(fromKey), move: model.movesOf(state)[move]!, before: position });
    } else {
      moves.push({
        type: 'event',
        event: position - 1,
        outcome: OUTCOMES[outcome]!,
        from: state.id,
        called: calledOf(fromKey),
        next: stateOf(entries.key[at]!),
        ...(move < 0 ? {} : { move: model.movesOf(state)[move]! }),
      });
      position -= 1;
    }
    at = from;
  }
  return moves.reverse();
}
