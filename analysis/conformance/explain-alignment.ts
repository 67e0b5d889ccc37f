/**
 * The chosen alignment (`align.ts`) told as the report tells it: each deviation at its step with what the SOP
 * expected there, a line per event and per move the log does not show, the nodes of the walk, the node each call
 * was placed at; and the user's yes before each change the walk reaches its confirmation step for (read from what
 * was said, so chat transcripts only).
 */
import { checkConfirmation } from '../replay/confirmation.js';
import type { Conversation, ConversationEvent, EventPlace, ToolCallEvent } from '../replay/conversation.js';
import type { AlignModel, RunMove, WalkState } from './align-model.js';
import type { AlignMove, TraceEvent } from './align.js';
import type { AlignedStep, ConformanceMode, Deviation } from './conformance.js';
import { shownValue, branchData } from '../../contract/run/conditions.js';
import { callCost, type Charge, COSTS, type DeviationKind, moveCost, type MoveView } from './cost-model.js';
import type { TraceFacts } from './trace-facts.js';

export interface Explained {
  readonly deviations: Deviation[];
  readonly steps: AlignedStep[];
  readonly walk: string[];
  readonly nodeAt: Map<number, string | null>;
}

/** Walks the chosen alignment: its deviations with their places, its lines, its nodes, and the confirmations. */
export function explain(
  model: AlignModel,
  conversation: Conversation,
  trace: readonly TraceEvent[],
  moves: readonly AlignMove[],
  mode: ConformanceMode,
  stepAt: ReadonlyMap<number, number>,
  facts: TraceFacts,
  observesCalls: boolean,
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
          policy?.severity ??
          (c.kind === 'skipped_required' && node !== null
            ? (model.required.get(node)?.severity ?? 'error')
            : c.kind === 'step_without_call'
              ? 'warning'
              : 'error'),
        message: policy === undefined ? message : `${message}${about(policy.id, policy.description)}`,
        at: base.at,
      });
      total += COSTS[c.kind];
    }
    return total;
  };

  const moveDeviations = (
    from: WalkState,
    called: boolean,
    move: RunMove,
    undeclared: boolean,
    position: number,
    declaredStep: number | null,
  ): number => {
    const charges: Charge[] = [];
    const view: MoveView = { observesCalls, answers: facts.answers, facts: facts.at(position) };
    moveCost(model, from, called, move, undeclared, view, charges);
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
            message: skippedMessage(model, left!),
          };
        case 'step_without_call': {
          const offered = [...(model.sop.toolsByNode[left!] ?? [])];
          return {
            node: left,
            expected: offered,
            message: `${left} was left without a call of any of its tools (${list(offered)})`,
          };
        }
        case 'against_data': {
          const edge = model.conditions[c.condition!]!;
          const read = branchData(edge.condition, view.facts.records);
          const seen =
            read.length === 0
              ? `no answer of ${edge.condition.tool} was read before`
              : `${edge.condition.tool} answered ${read
                  .map(
                    (value) =>
                      `${value.entity === null ? '' : `${value.entity.value}: `}${edge.condition.field.join('.')} = ${shownValue(value.value)}`,
                  )
                  .join('; ')}`;
          return {
            node: target,
            expected: [edge.condition.text],
            message: `${left} → ${target} needs ${edge.condition.text}, and ${seen}`,
          };
        }
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
    const callFacts = facts.call(move.event);
    callCost(model, from, event.tool, callFacts, charges);
    cost = charge(charges, { step, at: call.place, tool }, (c) => {
      if (c.kind === 'unproven_entity') {
        const unproven = callFacts!.unproven!;
        return {
          node: here,
          expected: unproven.proven.map((value) => `${unproven.name} ${JSON.stringify(value)}`),
          message: `${tool} names ${unproven.name} ${JSON.stringify(unproven.value)}, which the conversation never read (it read ${unproven.proven.map((v) => JSON.stringify(v)).join(', ')})`,
        };
      }
      if (c.kind === 'unsettled_change') {
        return {
          node: here,
          expected: [`a read of ${callFacts!.unsettled!}`],
          message: `${tool} repeats a change of ${callFacts!.unsettled!} whose outcome was unknown, without reading it first`,
        };
      }
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
    const judged = call.failed === true ? 'none' : seesDialogue ? 'dialogue' : observesCalls ? 'audit' : 'none';
    cost += confirmations(model, events, index, from, tool, event.tool, enteredAt, used, judged, (kind, message, policy) => {
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

/**
 * The user's yes before a call its confirmation policies guard, where the path passed their step: read from what was
 * said (chat), or from the audit's record of it (a gateway's log). A call that failed was never made: nothing to judge.
 */
function confirmations(
  model: AlignModel,
  events: readonly ConversationEvent[],
  index: number,
  at: WalkState,
  toolName: string,
  tool: number,
  enteredAt: ReadonlyMap<string, number>,
  used: Set<number>,
  judged: 'dialogue' | 'audit' | 'none',
  report: (
    kind: DeviationKind,
    message: string,
    policy: { id: string; description: string | null; severity: 'error' | 'warning' },
  ) => number,
): number {
  let cost = 0;
  for (const p of model.policiesOfTool[tool]!) {
    const policy = model.policies[p]!;
    if (policy.confirmation === null || at.passed[p] !== 1 || judged === 'none') continue;
    if (judged === 'audit') {
      // A gateway's audit log: the gateway asked the user (or used the confirmation step) before sending the call.
      const answer = (events[index] as ToolCallEvent).confirmed;
      const confirmed = answer === 'yes' || answer === 'step';
      if (!confirmed)
        cost += report(
          'unconfirmed_call',
          `${toolName} at ${model.nodes[at.node] ?? '?'}: the audit log records no confirmation of it`,
          policy,
        );
      continue;
    }
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

function about(id: string, description: string | null): string {
  return ` (policy ${id}${description === null ? '' : `: ${description}`})`;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.join(', ');
}

/** Why leaving a required node uncalled is a deviation: the calls that would have passed it, and what requires it. */
function skippedMessage(model: AlignModel, node: string): string {
  const required = model.required.get(node);
  const policies = required?.policies ?? [];
  const by = [...(policies.length === 0 ? [] : [list(policies)]), ...(required?.evidence === undefined ? [] : ['its evidence'])].join(
    ' and ',
  );
  return required?.evidence === undefined
    ? `${node} was passed without a call of its tools (${list(model.sop.toolsByNode[node] ?? [])}); it is required by ${by}`
    : `${node} was passed without a successful call of ${list(required.evidence)}; it is required by ${by}`;
}
