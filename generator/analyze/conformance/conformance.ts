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
import type { ConversationEvent, EventPlace, ToolCallEvent } from '../replay/conversation.js';
import { checkConfirmation } from '../replay/confirmation.js';
import type { Conversation } from '../replay/conversation.js';
import { type AlignModel, alignModel, type RunMove, type RunState } from './align-model.js';
import { align, type AlignMove, DEFAULT_MAX_STATES_PER_EVENT, type TraceEvent } from './align.js';
import { callCost, type Charge, COSTS, type DeviationKind, DEVIATION_KINDS, moveCost, worstCallCost } from './cost-model.js';
import type { CompiledSop } from '../../../contract/compiled-sop.js';

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

const TOOLKIT = new Set(['load_graph', 'goto_node', 'todo', 'inspect']);

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
    } else if (known !== undefined) trace.push({ kind: 'call', tool: known, index });
    else if (!TOOLKIT.has(event.tool)) unknown.set(event.tool, (unknown.get(event.tool) ?? 0) + 1);
    // Steps as the report counts them: with declared moves every move and every call (as the server's checks
    // count them), without them the calls of the SOP's tools.
    if (mode === 'declared' ? !TOOLKIT.has(event.tool) || event.tool === 'goto_node' : known !== undefined)
      stepAt.set(index, stepAt.size + 1);
  }

  const bound = options.maxStatesPerEvent ?? DEFAULT_MAX_STATES_PER_EVENT;
  const observesCalls = conversation.format === 'messages';
  const alignment = align(model, trace, { declared: mode === 'declared', observesCalls, maxStatesPerEvent: bound });
  const explained = explain(model, conversation, trace, alignment.moves, mode, stepAt);
  const completion = mode === 'inferred' ? complete(model, alignment.final.state, alignment.final.called || !observesCalls) : [];
  const walk = [...explained.walk, ...completion.map((move) => model.nodes[move.target]!)];
  const last = walk.at(-1);
  const cost = explained.deviations.reduce((sum, d) => sum + d.cost, 0);
  const worst = trace.reduce(
    (sum, event) =>
      sum + (event.kind === 'call' ? worstCallCost(model, event.tool) : event.kind === 'goto' ? COSTS.declared_move_off_walk : 0),
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

interface Explained {
  readonly deviations: Deviation[];
  readonly steps: AlignedStep[];
  readonly walk: string[];
  readonly nodeAt: Map<number, string | null>;
}

/** Walks the chosen alignment: its deviations with their places, its lines, its nodes, and the confirmations. */
function explain(
  model: AlignModel,
  conversation: Conversation,
  trace: readonly TraceEvent[],
  moves: readonly AlignMove[],
  mode: ConformanceMode,
  stepAt: ReadonlyMap<number, number>,
): Explained {
  const events = conversation.events;
  const deviations: Deviation[] = [];
  const steps: AlignedStep[] = [];
  const walk: string[] = [];
  const nodeAt = new Map<number, string | null>();
  const nodeName = (node: number): string | null => (node < 0 ? null : model.nodes[node]!);
  const seesDialogue = conversation.format === 'messages';
  /** Event index of the move into each node on the path (a silent move sits right after the event before it). */
  let enteredAt = new Map<string, number>();
  const used = new Set<number>();
  const placeOf = (position: number): EventPlace | null => (position < trace.length ? events[trace[position]!.index]!.place : null);
  const stepOf = (position: number): number | null => (position < trace.length ? (stepAt.get(trace[position]!.index) ?? null) : null);

  const charge = (
    charges: readonly Charge[],
    base: { step: number | null; at: EventPlace | null; tool?: string },
    describe: (c: Charge) => Pick<Deviation, 'node' | 'expected' | 'message'>,
  ): number => {
    let total = 0;
    for (const c of charges) {
      const policy = c.policy === undefined ? undefined : model.policies[c.policy]!;
      const { node, expected, message } = describe(c);
      deviations.push({
        kind: c.kind,
        step: base.step,
        node,
        expected,
        ...(base.tool === undefined ? {} : { tool: base.tool }),
        ...(policy === undefined ? {} : { policy: policy.id }),
        cost: COSTS[c.kind],
        severity:
          policy?.severity ?? (c.kind === 'skipped_required' && node !== null ? (model.required.get(node)?.severity ?? 'error') : 'error'),
        message: policy === undefined ? message : `${message}${about(policy.id, policy.description)}`,
        at: base.at,
      });
      total += COSTS[c.kind];
    }
    return total;
  };

  const moveDeviations = (
    from: RunState,
    called: boolean,
    move: RunMove,
    undeclared: boolean,
    position: number,
    declaredStep: number | null,
  ): number => {
    const charges: Charge[] = [];
    // Without the domain calls (an audit log) no node can be told skipped: as if its tools were called.
    moveCost(model, from, called || !seesDialogue, move, undeclared, charges);
    const target = model.nodes[move.target]!;
    const step = declaredStep ?? stepOf(position);
    const at = placeOf(position);
    return charge(charges, { step, at }, (c) => {
      const left = nodeName(from.node);
      switch (c.kind) {
        case 'skipped_required':
          return {
            node: left,
            expected: [...(model.sop.toolsByNode[left!] ?? [])],
            message: `${left} was passed without a call of its tools (${list(model.sop.toolsByNode[left!] ?? [])}); it is required by ${list(model.required.get(left!)?.policies ?? [])}`,
          };
        case 'visit_limit': {
          const limit = model.sop.transitions.limits?.[target];
          return {
            node: target,
            expected: limit === undefined ? [] : [limit.escalation],
            message: `${target} entered past its ${limit?.max ?? '?'} visits (max_visits); the SOP escalates to ${limit?.escalation ?? '?'}`,
          };
        }
        case 'undeclared_move':
          return {
            node: target,
            expected: [`goto_node ${target}`],
            message: `the walk moves ${left ?? 'to the start'} → ${target}, which no goto_node declared`,
          };
        default: {
          const policy = model.policies[c.policy!]!;
          const passes = [...policy.passes].map((n) => model.nodes[n]!);
          return {
            node: target,
            expected: passes,
            message: `${target} entered by ${model.state(move.next).path.join(' > ')}, which passes none of ${list(passes)}`,
          };
        }
      }
    });
  };

  for (const move of moves) {
    if (move.type === 'silent') {
      const from = model.state(move.from);
      const cost = moveDeviations(from, move.called, move.move, mode === 'declared', move.before, null);
      const target = model.nodes[move.move.target]!;
      walk.push(target);
      const next = model.state(move.move.next);
      enteredAt = rewound(enteredAt, next.path);
      enteredAt.set(target, move.before > 0 ? trace[move.before - 1]!.index : -1);
      steps.push({ step: stepOf(move.before), event: 'silent', move: 'silent', name: target, node: target, cost });
      continue;
    }
    const event = trace[move.event]!;
    const index = event.index;
    const call = events[index] as ToolCallEvent;
    const step = stepAt.get(index) ?? null;
    const from = model.state(move.from);
    const here = nodeName(from.node);
    let cost = 0;
    if (event.kind === 'reset') {
      enteredAt = new Map();
      steps.push({ step, event: call.tool, move: 'reset', name: call.tool, node: null, cost: 0 });
      continue;
    }
    if (event.kind === 'goto') {
      const target = typeof call.args?.node_id === 'string' ? call.args.node_id : '(none)';
      if (move.outcome === 'taken') {
        cost = moveDeviations(from, move.called, move.move!, false, move.event, step);
        walk.push(target);
        enteredAt = rewound(enteredAt, model.state(move.next).path);
        enteredAt.set(target, index);
        steps.push({ step, event: 'goto_node', move: 'taken', name: target, node: target, cost });
      } else {
        const legal = model
          .movesOf(from)
          .filter((m) => !m.limit)
          .map((m) => model.nodes[m.target]!);
        const why =
          event.target < 0
            ? call.args?.node_id === undefined
              ? 'it names no node'
              : 'it is not a node of the SOP'
            : legal.includes(target)
              ? `the calls around it place the agent elsewhere`
              : `the rule refuses it from ${here ?? 'the start'}`;
        cost = charge([{ kind: 'declared_move_off_walk' }], { step, at: call.place }, () => ({
          node: here,
          expected: legal,
          message: `goto_node ${target} is not on the walk: ${why}; the walk stays at ${here ?? 'the start'}`,
        }));
        steps.push({ step, event: 'goto_node', move: 'off_walk', name: target, node: here, cost });
      }
      continue;
    }
    const tool = model.tools[event.tool]!;
    const charges: Charge[] = [];
    callCost(model, from, event.tool, charges);
    cost = charge(charges, { step, at: call.place, tool }, (c) => {
      if (c.kind === 'unexpected_call') {
        const offered = here === null ? [] : [...(model.sop.toolsByNode[here] ?? [])];
        return {
          node: here,
          expected: offered,
          message:
            here === null
              ? `${tool} called before the walk enters the SOP`
              : `${tool} called at ${here}, which offers ${offered.length === 0 ? 'no tools' : list(offered)}; no walk explains it at a lower cost`,
        };
      }
      const policy = model.policies[c.policy!]!;
      const passes = [...policy.passes].map((n) => model.nodes[n]!);
      const path = from.path.length === 0 ? 'before any move' : `on the path ${from.path.join(' > ')}`;
      return { node: here, expected: passes, message: `${tool} called ${path}, which passes none of ${list(passes)}` };
    });
    cost += confirmations(model, events, index, from, tool, event.tool, enteredAt, used, seesDialogue, (kind, message, policy) => {
      deviations.push({
        kind,
        step,
        node: here,
        expected: ['the user’s explicit yes at the confirmation step'],
        tool,
        policy: policy.id,
        cost: COSTS[kind],
        severity: policy.severity,
        message: `${message}${about(policy.id, policy.description)}`,
        at: call.place,
      });
      return COSTS[kind];
    });
    nodeAt.set(index, here);
    steps.push({ step, event: tool, move: move.outcome === 'sync' ? 'sync' : 'log', name: tool, node: here, cost });
  }
  return { deviations, steps, walk, nodeAt };
}

/** The user's yes before a call its confirmation policies guard, where the path passed their step (chat only). */
function confirmations(
  model: AlignModel,
  events: readonly ConversationEvent[],
  index: number,
  at: RunState,
  toolName: string,
  tool: number,
  enteredAt: ReadonlyMap<string, number>,
  used: Set<number>,
  seesDialogue: boolean,
  report: (
    kind: DeviationKind,
    message: string,
    policy: { id: string; description: string | null; severity: 'error' | 'warning' },
  ) => number,
): number {
  let cost = 0;
  for (const p of model.policiesOfTool[tool]!) {
    const policy = model.policies[p]!;
    if (policy.confirmation === null || at.passed[p] !== 1 || !seesDialogue) continue;
    if (typeof policy.confirmation === 'string') {
      cost += report(
        'unconfirmed_call',
        `${toolName}: the policy's confirmation pattern does not compile (${policy.confirmation})`,
        policy,
      );
      continue;
    }
    const step = [...at.path].reverse().find((node) => policy.passes.has(model.nodeIndex.get(node)!))!;
    const verdict = checkConfirmation({
      events,
      call: index,
      step,
      enteredAt: enteredAt.get(step) ?? -1,
      pattern: policy.confirmation,
      used,
    });
    if (verdict.ok) used.add(verdict.answer);
    else cost += report('unconfirmed_call', `${toolName} at ${model.nodes[at.node] ?? step}: ${verdict.message}`, policy);
  }
  return cost;
}

/** Keeps the entry times of the nodes still on the path (a rewind or restart forgets the others). */
function rewound(enteredAt: Map<string, number>, path: readonly string[]): Map<string, number> {
  const kept = new Map<string, number>();
  for (const node of path) if (enteredAt.has(node)) kept.set(node, enteredAt.get(node)!);
  return kept;
}

/**
 * After the last call, the shortest way on to a terminal node through nodes without tools (decision nodes, the
 * END_* nodes), at no cost: a conversation that answered a question at INFO ended at END_INFO, which leaves no
 * trace. Nothing when the walk cannot get there that way.
 */
function complete(model: AlignModel, state: number, called: boolean): RunMove[] {
  const start = model.state(state);
  if (start.node >= 0 && model.terminal[start.node] === 1) return [];
  const seen = new Set<number>([state]);
  let frontier: { state: number; called: boolean; moves: RunMove[] }[] = [{ state, called, moves: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { state: id, called: wasCalled, moves } of frontier) {
      const from = model.state(id);
      for (const move of model.movesOf(from)) {
        if (seen.has(move.next) || model.hasTools[move.target] === 1) continue;
        if (moveCost(model, from, wasCalled, move, false) > 0) continue;
        seen.add(move.next);
        const path = [...moves, move];
        if (model.terminal[move.target] === 1) return path;
        next.push({ state: move.next, called: false, moves: path });
      }
    }
    frontier = next;
  }
  return [];
}

/** The conversation with the walk's moves written in as inferred goto_node calls, and unknown tools left out. */
function effectiveConversation(
  conversation: Conversation,
  trace: readonly TraceEvent[],
  moves: readonly AlignMove[],
  completion: readonly RunMove[],
  model: AlignModel,
): Conversation {
  const events = conversation.events;
  const after = new Map<number, ToolCallEvent[]>();
  const insert = (position: number, move: RunMove): void => {
    const anchor = position > 0 ? trace[position - 1]!.index : -1;
    const place = (position < trace.length ? events[trace[position]!.index] : events[trace.at(-1)?.index ?? 0])?.place ?? { message: 0 };
    const list = after.get(anchor) ?? [];
    list.push({
      kind: 'call',
      tool: 'goto_node',
      args: { node_id: model.nodes[move.target]! },
      inferred: true,
      ...(move.limit ? { forced: true as const } : {}),
      place,
    });
    after.set(anchor, list);
  };
  for (const move of moves) if (move.type === 'silent') insert(move.before, move.move);
  for (const move of completion) insert(trace.length, move);
  const aligned = new Set(trace.map((event) => event.index));
  const result: ConversationEvent[] = [...(after.get(-1) ?? [])];
  for (const [index, event] of events.entries()) {
    if (event.kind !== 'call' || aligned.has(index) || TOOLKIT.has(event.tool)) result.push(event);
    result.push(...(after.get(index) ?? []));
  }
  return { ...conversation, events: result };
}

function traceName(model: AlignModel, events: readonly ConversationEvent[], event: TraceEvent): string {
  if (event.kind === 'call') return model.tools[event.tool]!;
  const call = events[event.index] as ToolCallEvent;
  return event.kind === 'goto' ? `goto_node ${String(call.args?.node_id ?? '(none)')}` : call.tool;
}

function about(id: string, description: string | null): string {
  return ` (policy ${id}${description === null ? '' : `: ${description}`})`;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.join(', ');
}
