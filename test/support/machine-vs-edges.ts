/**
 * Checks a generated XState machine against the compiled SOP it was generated with, for tests: the same
 * states in flowchart order, the entry node as initial state, exactly one `GOTO.<to>` transition per distinct
 * edge target (both ways: no transition without an edge, no edge without a transition), final states exactly
 * at the terminal nodes, labels and conditions carried over; and, walking the machine with `xstate/graph`'s
 * `getShortestPaths` (bounded, one path per state), that the states it reaches are exactly the nodes
 * reachable from the entry along the edge table, each path replaying on a real actor.
 *
 * Returns the problems found as readable lines (empty when the two agree), so a failing test says what
 * differs. Works on any emitted agent: point it at `generated/<agent>/machine.js` and `graph.js`.
 */
import { createActor } from 'xstate';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { gotoEvent, machineTransitions } from '../../generator/emit/transitions.js';
import type { CompiledSop } from '../../runtime/compiled-sop.js';

export function compareMachineWithEdges(machine: AnyStateMachine, sop: CompiledSop): string[] {
  const problems: string[] = [];
  const states: Readonly<Record<string, AnyStateNode>> = machine.root.states;
  if (machine.id !== sop.meta.agent) problems.push(`machine id is ${machine.id}, agent is ${sop.meta.agent}`);
  const stateKeys = Object.keys(states);
  if (stateKeys.join() !== sop.nodeIds.join()) {
    problems.push(`states [${stateKeys.join(', ')}] differ from nodes [${sop.nodeIds.join(', ')}]`);
  }
  const initial = machine.root.initial.target.map((t) => t.key).join();
  if (initial !== sop.entryNode) problems.push(`initial state is ${initial}, entry node is ${sop.entryNode}`);

  for (const id of sop.nodeIds) {
    const state = Object.hasOwn(states, id) ? states[id] : undefined;
    if (!state) continue; // reported above
    problems.push(...compareState(id, state, sop));
  }
  problems.push(...compareReachability(machine, sop));
  return problems;
}

function compareState(id: string, state: AnyStateNode, sop: CompiledSop): string[] {
  const problems: string[] = [];
  const edges = sop.edges[id] ?? [];
  const node = sop.nodes[id];
  if (state.description !== node?.description) problems.push(`${id}: description ${JSON.stringify(state.description)}`);
  if (state.meta?.type !== node?.type) problems.push(`${id}: meta.type ${JSON.stringify(state.meta?.type)}`);
  if ((state.type === 'final') !== (edges.length === 0)) {
    problems.push(`${id}: state type is ${state.type} but the node has ${edges.length} outgoing edges`);
  }

  const actual = new Map<string, { target: string; description: string | null; style: unknown }>();
  for (const [event, definitions] of state.transitions) {
    for (const definition of definitions) {
      const targets = (definition.target ?? []).map((t) => t.key);
      if (definitions.length !== 1 || targets.length !== 1 || definition.guard || definition.actions.length > 0) {
        problems.push(`${id}: ${event} is not one unguarded transition to one target (${targets.join(', ')})`);
      }
      actual.set(event, {
        target: targets.join(),
        description: definition.description ?? null,
        style: (definition.meta as { style?: unknown } | undefined)?.style ?? null,
      });
    }
  }
  const expected = new Map(machineTransitions(edges).map((t) => [t.event, t]));
  for (const [event, t] of actual) {
    const want = expected.get(event);
    if (!want) problems.push(`${id}: machine has ${event} → ${t.target}, the edge table has no edge ${id} → ${t.target}`);
    else if (want.target !== t.target) problems.push(`${id}: ${event} goes to ${t.target}, expected ${want.target}`);
    else if (want.description !== t.description || want.style !== t.style) {
      problems.push(
        `${id}: ${event} has description ${JSON.stringify(t.description)} / style ${JSON.stringify(t.style)}, ` +
          `edges say ${JSON.stringify(want.description)} / ${JSON.stringify(want.style)}`,
      );
    }
  }
  for (const edge of edges) {
    if (!actual.has(gotoEvent(edge.to))) problems.push(`${id}: edge ${id} → ${edge.to} has no machine transition`);
  }
  return problems;
}

function compareReachability(machine: AnyStateMachine, sop: CompiledSop): string[] {
  const problems: string[] = [];
  const reachable = new Set<string>([sop.entryNode]);
  for (const id of reachable) for (const edge of sop.edges[id] ?? []) reachable.add(edge.to);

  const paths = getShortestPaths(machine);
  const reached = new Set<string>();
  for (const path of paths) {
    const value = String(path.state.value);
    reached.add(value);
    const actor = createActor(machine).start();
    for (const step of path.steps) if (!step.event.type.startsWith('xstate.')) actor.send(step.event);
    const replayed = String(actor.getSnapshot().value);
    actor.stop();
    if (replayed !== value) problems.push(`replaying the path to ${value} ends in ${replayed}`);
  }
  const sorted = (set: Set<string>): string => [...set].sort().join(', ');
  if (sorted(reached) !== sorted(reachable)) {
    problems.push(`the machine reaches [${sorted(reached)}], the edges reach [${sorted(reachable)}] from the entry`);
  }
  return problems;
}
