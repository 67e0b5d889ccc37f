/**
 * The alignment search's operations on one model (`align.ts` composes them): the moves between two events
 * (Dijkstra, bounded), the ways to explain an event, the layers from the start to the end of a trace, and a greedy
 * alignment whose cost bounds the optimal one.
 */
import type { AlignModel, WalkState } from './align-model.js';
import type { AlignOptions, TraceEvent } from './align.js';
import type { TraceFacts } from './trace-facts.js';
import { againstData, callCost, COSTS, enterCost, leavingCost, leavingKind, type MoveView, offers } from './cost-model.js';
import {
  calledOf,
  type Edges,
  type Entries,
  Heap,
  type KeyTable,
  type Layer,
  LOG,
  OPTIMA_CAP,
  SCALE,
  type Scratch,
  SILENT,
  scratchOf,
  stateOf,
} from './search-columns.js';

/** The search's state and operations on one model: entries, keys, the moves between events, the events. */
export class Search {
  /** The columns it works in (shared with the model's next search). */
  readonly scratch: Scratch;
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
  private readonly heap = new Heap();
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
    private readonly facts: TraceFacts,
  ) {
    this.undeclared = options.declared ? COSTS.undeclared_move : 0;
    this.logWeight = options.declared ? 0 : LOG;
    const scratch = scratchOf(model, trace.length + 1);
    this.scratch = scratch;
    this.entries = scratch.entries;
    this.edges = scratch.edges;
    this.table = scratch.table;
    this.base = scratch.layers;
    scratch.layers += trace.length + 1;
  }

  /** An entry's key: the state, and whether its node was called, which only matters at a node with tools. */
  key(state: number, called: boolean): number {
    const node = this.model.state(state).node;
    return state * 2 + (called && node >= 0 && this.model.hasTools[node] === 1 ? 1 : 0);
  }

  /** What the moves before trace position `position` may see (`cost-model.ts`). */
  view(position: number): MoveView {
    return { observesCalls: this.options.observesCalls, answers: this.facts.answers, facts: this.facts.at(position) };
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
  private ensureMoves(state: WalkState): void {
    if (state.moveBase === undefined) {
      const moves = this.model.movesOf(state);
      state.moveBase = Int32Array.from(moves, (move) => enterCost(this.model, move));
    }
  }

  /** The cost a move from an entry adds on top of its base cost: undeclared, leaving its node, going against the data. */
  private leaving(state: WalkState, called: boolean, m: number, view: MoveView): number {
    return this.undeclared + leavingCost(this.model, state, called, this.model.movesOf(state)[m]!, view);
  }

  /**
   * Dijkstra over the moves between two events, from the layer's entries; keeps the `maxStatesPerEvent` cheapest,
   * and none whose cost reaches `limit`. Ties are settled in the order the entries were reached.
   */
  settle(layer: Layer, number: number, limit: number): void {
    const entries = this.entries;
    const view = this.view(number);
    const heap = this.heap;
    heap.clear();
    for (let at = layer.first; at < layer.end; at++) heap.push(entries.g[at]!, at);
    while (heap.size > 0) {
      const g = heap.top();
      const at = heap.pop();
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
      const moves = this.model.movesOf(state);
      const called = calledOf(key);
      // What leaving the node costs depends only on whether a move goes on: worked out once per entry.
      const on = this.undeclared + kindCost(leavingKind(this.model, state, called, true, view));
      const back = this.undeclared + kindCost(leavingKind(this.model, state, called, false, view));
      const count = entries.count[at]!;
      for (let m = 0; m < next.length; m++) {
        const move = moves[m]!;
        const dev = (move.goesOn ? on : back) + (againstData(move, view) ? COSTS.against_data : 0) + base[m]!;
        const cost = g + dev * SCALE + 1;
        if (cost >= limit) continue;
        const target = this.relax(layer, number, next[m]! * 2, cost, count, at, SILENT, m);
        this.edges.add(at, target, dev);
        if (this.improved) heap.push(cost, target);
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
        const options = this.explain(entries.key[at]!, event, position);
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
    for (const [position, event] of trace.entries()) {
      if (event.kind === 'reset') {
        state = model.state(model.start);
        called = false;
        continue;
      }
      const view = this.view(position);
      if (event.kind === 'goto') {
        const m = event.target < 0 ? -1 : model.movesOf(state).findIndex((move) => move.target === event.target);
        if (m < 0) total += COSTS.declared_move_off_walk;
        else {
          this.ensureMoves(state);
          total += this.leaving(state, called, m, view) - this.undeclared + state.moveBase![m]!;
          state = model.state(state.moveNext![m]!);
          called = false;
        }
        continue;
      }
      if (!offers(model, state, event.tool)) {
        const found = this.options.declared ? undefined : this.nearestOffering(state, called, event.tool, view);
        if (found !== undefined) {
          state = found;
          called = false;
        }
      }
      total += callCost(model, state, event.tool, this.facts.call(position));
      if (offers(model, state, event.tool) && passes(model, state, event, this.facts.found(position))) called = true;
    }
    return total;
  }

  /** The nearest state offering `tool` through moves that cost nothing (breadth first, in the rule's order). */
  private nearestOffering(from: WalkState, called: boolean, tool: number, view: MoveView): WalkState | undefined {
    const seen = new Set<number>([from.id]);
    let frontier: WalkState[] = [from];
    let first = true;
    while (frontier.length > 0) {
      const next: WalkState[] = [];
      for (const state of frontier) {
        this.ensureMoves(state);
        const targets = state.moveNext!;
        const base = state.moveBase!;
        for (let m = 0; m < targets.length; m++) {
          if (this.leaving(state, first ? called : false, m, view) + base[m]! > 0 || seen.has(targets[m]!)) continue;
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
  explain(key: number, event: TraceEvent, position: number): number {
    const model = this.model;
    const state = model.state(stateOf(key));
    if (event.kind === 'reset') return this.option(0, this.key(model.start, false), 0, 0, 4, -1);
    if (event.kind === 'call') {
      const cost = callCost(model, state, event.tool, this.facts.call(position));
      return offers(model, state, event.tool)
        ? this.option(0, this.key(state.id, calledOf(key) || passes(model, state, event, this.facts.found(position))), cost, 0, 0, -1)
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
          this.leaving(state, calledOf(key), m, this.view(position)) - this.undeclared + state.moveBase![m]!,
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
}

/**
 * Whether a call passes its node (marks it called): at a node that requires evidence, a call of its evidence tools
 * that found something; at a node a policy requires, a call of its tools that did not fail; at any other node with
 * tools, any call of them (the agent did the step, whatever came of it).
 */
export function passes(model: AlignModel, state: WalkState, event: Extract<TraceEvent, { kind: 'call' }>, found: boolean): boolean {
  const node = state.node;
  if (node < 0) return false;
  if (model.evidenceNode[node] !== 0) return found && model.satisfies[node]!.has(event.tool);
  if (model.requiredWithTools[node] === 1) return event.failed !== true && model.satisfies[node]!.has(event.tool);
  return model.offers[node]!.has(event.tool);
}

function kindCost(kind: 'skipped_required' | 'step_without_call' | null): number {
  return kind === null ? 0 : COSTS[kind];
}
