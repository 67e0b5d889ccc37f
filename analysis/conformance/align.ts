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
import type { AlignModel, RunMove } from './align-model.js';
import { Search } from './search.js';
import { calledOf, costOf, type Entries, LOG, OPTIMA_CAP, OUTCOMES, SCALE, SILENT, stateOf } from './search-columns.js';
import type { TraceFacts } from './trace-facts.js';
import { undetermined } from './undetermined.js';

/** An event the alignment reads, with its index in the conversation's events. */
export type TraceEvent =
  /** A domain call; `failed` when it did not succeed (what it found is in the trace's facts, `trace-facts.ts`). */
  | { readonly kind: 'call'; readonly tool: number; readonly index: number; readonly failed?: true }
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

export function align(model: AlignModel, trace: readonly TraceEvent[], options: AlignOptions, facts: TraceFacts): Alignment {
  // No entry that already costs more than some alignment can be on an optimal one (costs only grow along a path).
  // When the bound cuts the states, the ones kept may all cost more than that alignment: search again without it.
  const limit = (new Search(model, options, trace, facts).upperBound(trace) + 1) * SCALE;
  let search = new Search(model, options, trace, facts);
  let forward = search.forward(trace, limit);
  if (forward === null) {
    search = new Search(model, options, trace, facts);
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
    cost: costOf(bestG),
    walkMoves: bestG % LOG,
    optimal,
    capped: optimal >= OPTIMA_CAP,
    undetermined: undetermined(model, search, layers, bestG),
    exact: cutAt === null,
    cutAt,
    maxStates,
    final: { state: stateOf(entries.key[best]!), called: calledOf(entries.key[best]!) },
  };
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
