/**
 * Conformance of one conversation to its SOP, by alignment (`align.ts`): the walk that explains the calls at the
 * least cost, each deviation at its step with what the SOP expected there, the fitness, how ambiguous the walk is,
 * and the conversation with the inferred moves written in (for the checks that need a position: policies,
 * confirmations, the terminal node).
 *
 * The conversation's `goto_node` calls, when it has any, anchor the walk (`declared`): a move it did not declare
 * costs, and a declared move the walk does not take costs. Without them (`inferred`) the walk is inferred from the
 * calls alone, and the moves it makes between two calls are placed right after the first of them: what was said
 * in between counts as said at the node the second call is made at, which is the most a log can grant (a question
 * and a "yes" before a change count at its confirmation step).
 *
 * Only the SOP's own tools are aligned. A tool it does not list (a client's own tool, Claude Code's `Read`, a hosted
 * web search) is counted in `unknown_tools` and left out: the SOP says nothing about it. `todo` and `inspect` move
 * nothing; `load_graph` starts a fresh run.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { Conversation, ConversationEvent, EventPlace, ToolCallEvent } from '../replay/conversation.js';
import { type AlignModel, alignModel } from './align-model.js';
import { align, DEFAULT_MAX_STATES_PER_EVENT, type TraceEvent } from './align.js';
import { COSTS, type DeviationKind, DEVIATION_KINDS, worstCallCost } from './cost-model.js';
import { explain } from './explain-alignment.js';
import { complete, effectiveConversation, TOOLKIT } from './inferred-walk.js';
import { traceEvents, traceFacts } from './trace-facts.js';

export type ConformanceMode = 'declared' | 'inferred';

export interface Deviation {
  readonly kind: DeviationKind;
  /** The step it happened at; for a move the log does not show, the step it came before (null: after the last). */
  readonly step: number | null;
  /** Where: the node left (skipped_required), entered (visit_limit, policy on a node, undeclared_move), or the walk's node. */
  readonly node: string | null;
  /** What the SOP expected there: the tools the node offers, the policy's `passes` nodes, the legal moves. */
  readonly expected: readonly string[];
  readonly tool?: string;
  readonly policy?: string;
  readonly cost: number;
  /** Its policy's severity, or the severity of the policies requiring the node skipped; `error` otherwise. */
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly at: EventPlace | null;
}

/** One line of the alignment: an event and how it was explained, or a move the log does not show. */
export interface AlignedStep {
  readonly step: number | null;
  /** `silent`: a move the log does not show; otherwise the event's tool. */
  readonly event: 'silent' | string;
  readonly move: 'sync' | 'log' | 'taken' | 'off_walk' | 'reset' | 'silent';
  /** The tool called, or the node moved to. */
  readonly name: string;
  /** The walk's node after it. */
  readonly node: string | null;
  readonly cost: number;
}

export interface Conformance {
  readonly mode: ConformanceMode;
  readonly fitness: number;
  readonly cost: number;
  readonly worst_cost: number;
  readonly deviations: readonly Deviation[];
  /** Deviations per kind, every kind listed. */
  readonly by_kind: Readonly<Record<DeviationKind, number>>;
  /** The nodes the walk enters, in order; the last ones may be `completed_silently`. */
  readonly walk: readonly string[];
  /** Nodes entered after the last call to reach a terminal through nodes that leave no trace (inferred walks only). */
  readonly completed_silently: readonly string[];
  /** The terminal node the walk ends on, or null. */
  readonly terminal: string | null;
  readonly alignment: readonly AlignedStep[];
  readonly ambiguity: {
    /** Alignments of the least cost and, among them, the fewest moves; `capped` when there are at least that many. */
    readonly optimal_alignments: number;
    readonly capped: boolean;
    /** Steps the optimal alignments place at different nodes: where the log cannot tell. */
    readonly undetermined: readonly { readonly step: number | null; readonly name: string; readonly nodes: readonly string[] }[];
  };
  readonly search: {
    readonly exact: boolean;
    /** States kept between two events at most (the bound), and the most kept in this search. */
    readonly bound: number;
    readonly max_states: number;
    /** The step before which the bound first cut the search, or null. */
    readonly cut_at_step: number | null;
  };
  /** Calls of tools the SOP does not list, by name. */
  readonly unknown_tools: Readonly<Record<string, number>>;
}

export interface ConformanceOutcome {
  readonly conformance: Conformance;
  /** The conversation as the walk explains it: inferred moves written in, tools the SOP does not know left out. */
  readonly effective: Conversation;
  /** The node each aligned call was placed at, by event index (for the declared position's comparison). */
  readonly nodeAt: ReadonlyMap<number, string | null>;
  /** The step number of each event that is a step in this mode, by event index. */
  readonly stepAt: ReadonlyMap<number, number>;
}

export interface ConformanceOptions {
  /** States kept between two events at most (default DEFAULT_MAX_STATES_PER_EVENT). */
  readonly maxStatesPerEvent?: number;
}

export function conformance(sop: CompiledSop, conversation: Conversation, options: ConformanceOptions = {}): ConformanceOutcome {
  const model = alignModel(sop);
  const events = conversation.events;
  const mode: ConformanceMode = events.some((e) => e.kind === 'call' && e.tool === 'goto_node' && e.inferred !== true)
    ? 'declared'
    : 'inferred';
  const trace: TraceEvent[] = [];
  const unknown = new Map<string, number>();
  const stepAt = new Map<number, number>();
  for (const [index, event] of events.entries()) {
    if (event.kind !== 'call') continue;
    const known = model.toolIndex.get(event.tool);
    if (event.tool === 'load_graph') trace.push({ kind: 'reset', index });
    else if (event.tool === 'goto_node') {
      const target = typeof event.args?.node_id === 'string' ? (model.nodeIndex.get(event.args.node_id) ?? -1) : -1;
      trace.push({ kind: 'goto', target, index });
    } else if (known !== undefined)
      trace.push({ kind: 'call', tool: known, index, ...(event.failed === true ? { failed: true as const } : {}) });
    else if (!TOOLKIT.has(event.tool)) unknown.set(event.tool, (unknown.get(event.tool) ?? 0) + 1);
    // Steps as the report counts them: with declared moves every move and every call (as the server's checks
    // count them), without them the calls of the SOP's tools.
    if (mode === 'declared' ? !TOOLKIT.has(event.tool) || event.tool === 'goto_node' : known !== undefined)
      stepAt.set(index, stepAt.size + 1);
  }

  const bound = options.maxStatesPerEvent ?? DEFAULT_MAX_STATES_PER_EVENT;
  const observesCalls = conversation.format === 'messages' || conversation.domainCalls === true;
  const facts = traceFacts(model, traceEvents(events, trace));
  const alignment = align(model, trace, { declared: mode === 'declared', observesCalls, maxStatesPerEvent: bound }, facts);
  const explained = explain(model, conversation, trace, alignment.moves, mode, stepAt, facts, observesCalls);
  const end = { observesCalls, answers: facts.answers, facts: facts.at(trace.length) };
  const completion = mode === 'inferred' ? complete(model, alignment.final.state, alignment.final.called, end) : [];
  const walk = [...explained.walk, ...completion.map((move) => model.nodes[move.target]!)];
  const last = walk.at(-1);
  const cost = explained.deviations.reduce((sum, d) => sum + d.cost, 0);
  const worst = trace.reduce(
    (sum, event, position) =>
      sum +
      (event.kind === 'call'
        ? worstCallCost(model, event.tool, facts.call(position))
        : event.kind === 'goto'
          ? COSTS.declared_move_off_walk
          : 0),
    0,
  );
  const byKind = Object.fromEntries(DEVIATION_KINDS.map((kind) => [kind, 0])) as Record<DeviationKind, number>;
  for (const deviation of explained.deviations) byKind[deviation.kind] += 1;
  const stepOfTrace = (position: number | null): number | null =>
    position === null || position >= trace.length ? null : (stepAt.get(trace[position]!.index) ?? null);

  return {
    conformance: {
      mode,
      fitness: worst === 0 ? 1 : Math.round((1 - Math.min(cost, worst) / worst) * 10_000) / 10_000,
      cost,
      worst_cost: worst,
      deviations: explained.deviations,
      by_kind: byKind,
      walk,
      completed_silently: completion.map((move) => model.nodes[move.target]!),
      terminal: last !== undefined && model.terminal[model.nodeIndex.get(last)!] === 1 ? last : null,
      alignment: explained.steps,
      ambiguity: {
        optimal_alignments: alignment.optimal,
        capped: alignment.capped,
        undetermined: alignment.undetermined
          .filter(({ event }) => trace[event]!.kind === 'call')
          .map(({ event, nodes }) => ({
            step: stepOfTrace(event),
            name: traceName(model, events, trace[event]!),
            nodes: nodes.map((node) => (node < 0 ? '(before the first move)' : model.nodes[node]!)),
          })),
      },
      search: { exact: alignment.exact, bound, max_states: alignment.maxStates, cut_at_step: stepOfTrace(alignment.cutAt) },
      unknown_tools: Object.fromEntries([...unknown].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    },
    effective: mode === 'inferred' ? effectiveConversation(conversation, trace, alignment.moves, completion, model) : conversation,
    nodeAt: explained.nodeAt,
    stepAt,
  };
}

function traceName(model: AlignModel, events: readonly ConversationEvent[], event: TraceEvent): string {
  if (event.kind === 'call') return model.tools[event.tool]!;
  const call = events[event.index] as ToolCallEvent;
  return event.kind === 'goto' ? `goto_node ${String(call.args?.node_id ?? '(none)')}` : call.tool;
}
