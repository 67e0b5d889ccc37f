/**
 * Checks a generated XState machine against the transition table the server follows, for tests. Two parts:
 *
 *   - shape: the same states in flowchart order, the entry node initial, descriptions and node types carried
 *     over, one `GOTO.<to>` transition per distinct edge target with its conditions, terminal nodes tagged;
 *   - behaviour, on every (state, target) pair: every configuration the server can reach is enumerated (the
 *     current node, which hubs are on the path and, for a SOP with visit limits, the visit counts decide what is
 *     legal; one path stands for each), and for each one and every node as target, the machine (`snapshot.can`,
 *     then the real `transition`) must allow exactly the moves the server's rule (`contract/transitions.ts` on
 *     the compiled table) allows, ending on the same node with the same path and visits in its context.
 *
 * The server's state before the first move (empty path: only the entry node is legal) has no machine state:
 * the machine starts where that first move lands, on the entry node with the path [entry] (and that visit counted).
 *
 * Returns the problems found as readable lines (empty when the two agree), so a failing test says what differs.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { getNextSnapshot } from 'xstate';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { decideMove, limitedNodes, type Visits } from '../../contract/transitions.js';
import { gotoEvent, machineTransitions } from '../../generator/emit/transitions.js';

export interface Comparison {
  readonly problems: readonly string[];
  /** Configurations visited (current node + hubs on the path) and (configuration, target) pairs compared. */
  readonly configurations: number;
  readonly pairs: number;
}

export function compareMachineWithTable(machine: AnyStateMachine, sop: CompiledSop): Comparison {
  const problems = compareShape(machine, sop);
  const behaviour = compareMoves(machine, sop);
  return { problems: [...problems, ...behaviour.problems], configurations: behaviour.configurations, pairs: behaviour.pairs };
}

function compareShape(machine: AnyStateMachine, sop: CompiledSop): string[] {
  const problems: string[] = [];
  const states: Readonly<Record<string, AnyStateNode>> = machine.root.states;
  if (machine.id !== sop.meta.agent) problems.push(`machine id is ${machine.id}, agent is ${sop.meta.agent}`);
  if (Object.keys(states).join() !== sop.nodeIds.join()) {
    problems.push(`states [${Object.keys(states).join(', ')}] differ from nodes [${sop.nodeIds.join(', ')}]`);
  }
  const initial = machine.root.initial.target.map((t) => t.key).join();
  if (initial !== sop.transitions.entry) problems.push(`initial state is ${initial}, entry node is ${sop.transitions.entry}`);
  const terminals = new Set(sop.terminalNodes);
  for (const id of sop.nodeIds) {
    const state = Object.hasOwn(states, id) ? states[id] : undefined;
    if (!state) continue; // reported above
    const node = sop.nodes[id];
    if (state.description !== node?.description) problems.push(`${id}: description ${JSON.stringify(state.description)}`);
    if (state.meta?.type !== node?.type) problems.push(`${id}: meta.type ${JSON.stringify(state.meta?.type)}`);
    if (state.type === 'final') problems.push(`${id}: final, but the entry node and the hubs stay reachable from it`);
    if (state.tags.includes('terminal') !== terminals.has(id)) problems.push(`${id}: terminal tag does not match the terminal nodes`);
    const expected = machineTransitions(sop.edges[id] ?? []);
    for (const want of expected) {
      const [definition] = state.transitions.get(want.event) ?? [];
      const target = definition?.target?.map((t) => t.key).join();
      if (target !== want.target) problems.push(`${id}: ${want.event} goes to ${target ?? 'nothing'}, edges say ${want.target}`);
      else if ((definition?.description ?? null) !== want.description) {
        problems.push(`${id}: ${want.event} has description ${JSON.stringify(definition?.description)}, edges say ${want.description}`);
      }
    }
    const escalations = escalationEvents(sop, id);
    const own = [...state.transitions.keys()].filter((event) => !expected.some((t) => t.event === event) && !escalations.includes(event));
    if (own.length > 0) problems.push(`${id}: transitions [${own.join(', ')}] have no edge`);
    const missing = escalations.filter((event) => !state.transitions.has(event));
    if (missing.length > 0)
      problems.push(`${id}: no transitions [${missing.join(', ')}] to the escalation nodes of its limited successors`);
  }
  return problems;
}

/** The escalation moves a state needs of its own: to the escalation nodes of its limited successors, not already legal there. */
function escalationEvents(sop: CompiledSop, id: string): string[] {
  const table = sop.transitions;
  const successors = table.successors[id] ?? [];
  const limits = table.limits ?? {};
  const events = successors.flatMap((next) => {
    const escalation = Object.hasOwn(limits, next) ? limits[next]?.escalation : undefined;
    if (escalation === undefined || successors.includes(escalation)) return [];
    if (escalation === table.entry && !Object.hasOwn(limits, table.entry)) return [];
    return [gotoEvent(escalation)];
  });
  return [...new Set(events)];
}

interface Configuration {
  readonly path: readonly string[];
  readonly visits: Visits;
}

function compareMoves(machine: AnyStateMachine, sop: CompiledSop): Comparison {
  const problems: string[] = [];
  const table = sop.transitions;
  const hubs = new Set(table.hubs);
  const limited = limitedNodes(table);
  const visitsText = (visits: Visits): string => limited.map((id) => `${id}=${visits[id] ?? 0}`).join(',');
  const keyOf = ({ path, visits }: Configuration): string =>
    `${path.at(-1)}|${path
      .filter((id) => hubs.has(id))
      .sort()
      .join(',')}|${visitsText(visits)}`;
  const first = decideMove(table, [], table.entry, {});
  if (!first.ok) return { problems: [`the entry node ${table.entry} is refused as the first move`], configurations: 0, pairs: 0 };
  const start: Configuration = { path: first.path, visits: first.visits };
  const seen = new Map<string, Configuration>([[keyOf(start), start]]);
  const queue: Configuration[] = [start];
  let pairs = 0;
  for (let config = queue.shift(); config !== undefined; config = queue.shift()) {
    const { path, visits } = config;
    const current = path.at(-1)!;
    const context = limited.length === 0 ? { path } : { path, visits };
    const snapshot = machine.resolveState({ value: current, context });
    for (const target of sop.nodeIds) {
      pairs += 1;
      const event = { type: gotoEvent(target) };
      const expected = decideMove(table, path, target, visits);
      const allowed = snapshot.can(event);
      const where = `from ${current} (path ${path.join(' > ')}${limited.length === 0 ? '' : `; visits ${visitsText(visits)}`}) to ${target}`;
      if (allowed !== expected.ok) {
        problems.push(`${where}: the machine ${allowed ? 'allows' : 'refuses'} it, the server ${expected.ok ? 'allows' : 'refuses'} it`);
        continue;
      }
      if (!expected.ok) continue;
      const next = getNextSnapshot(machine, snapshot, event);
      const nextContext = next.context as { path: readonly string[]; visits?: Visits };
      const nextVisits = nextContext.visits ?? {};
      if (
        String(next.value) !== target ||
        nextContext.path.join() !== expected.path.join() ||
        visitsText(nextVisits) !== visitsText(expected.visits)
      ) {
        problems.push(
          `${where}: the machine ends on ${String(next.value)} with path ${nextContext.path.join(' > ')} (visits ${visitsText(nextVisits)}), ` +
            `the server on ${expected.path.join(' > ')} (visits ${visitsText(expected.visits)})`,
        );
        continue;
      }
      const reached: Configuration = { path: expected.path, visits: expected.visits };
      const key = keyOf(reached);
      if (!seen.has(key)) {
        seen.set(key, reached);
        queue.push(reached);
      }
    }
  }
  return { problems, configurations: seen.size, pairs };
}
