/**
 * The parts of a generated machine that sub-flows and fork/join add (`machine-plan.ts` puts them together; a SOP with
 * neither gets none of this, byte for byte):
 *   - fork/join: the forks' records in the context (`forks`), moved by the contract's `forkMove` on every move (the
 *     same function `decideMove` uses), a `FORKS` table for it, guards that close a done branch at its fork and open a
 *     join's outcome edges (`forkAllows`), and at a branch's last node two ways to the join: into it when that
 *     completes it (`completesJoin`), else back to the fork (`goBack`, no visit counted);
 *   - sub-flows: the sub-flow node spawns the called SOP's machine as a child (`resumable`, so it starts with the
 *     visits its last call at this node left, kept in `calls`), forwards `GOTO.<node>.<id>` to it while the child can
 *     make the move (`calleeCan`), and leaves along an edge once the child stands on a terminal that maps to it
 *     (`returned`, with the contract's `exitFor`, the rule the server's expansion follows).
 * Names as data: node ids reach the output only through `stringLiteral` and `propertyName`.
 */
import type { SubflowCall } from '../../contract/compiled-sop.js';
import type { ForkRule } from '../../contract/transitions.js';
import { agentNames, type SopOutline } from './outline.js';
import { code, type LiteralObject, type LiteralValue, literalText, stringLiteral } from './literal.js';
import { machineName, eventTypeName } from './machine-names.js';
import type { EdgeLike } from './transitions.js';

/** What a composed machine needs beyond the plain one. */
export interface Composition {
  readonly forks: ReadonlyMap<string, ForkRule>;
  /** Each join, the fork whose join it is. */
  readonly joins: ReadonlyMap<string, string>;
  readonly calls: ReadonlyMap<string, SubflowCall>;
  /** The called agents, sorted, each once. */
  readonly callees: readonly string[];
}

export function compositionOf(outline: SopOutline): Composition | null {
  if (outline.forks.length === 0 && outline.subflows.length === 0) return null;
  const forks = new Map(outline.forks);
  return {
    forks,
    joins: new Map([...forks].map(([fork, rule]) => [rule.join, fork])),
    calls: new Map(outline.subflows),
    callees: [...new Set(outline.subflows.map(([, call]) => call.agent))].sort(),
  };
}

/** `and([...])` of the guards, the one guard alone, or none. */
export function combinedGuard(guards: readonly LiteralValue[]): LiteralValue | undefined {
  if (guards.length <= 1) return guards[0];
  return code(`and([${guards.map((guard) => literalText(guard, { column: 0 })).join(', ')}])`);
}

/** The outcome an event carries (a move into a join), as the guards and actions pass it to `forkMove`. */
const OUTCOME = "'outcome' in event ? event.outcome : undefined";

/** The fork guards and actions of `setup`, and the `FORKS` table they read. */
export function forkSetup(entry: string, limited: string | null): { guards: LiteralObject; actions: LiteralObject } {
  const move = `forkMove(FORKS, ${stringLiteral(entry)}, context.path, event.type.slice(5) as NodeId, context.forks, ${OUTCOME})`;
  const visits = limited === null ? '' : ', visits: countVisit(context.visits, event.type.slice(5) as NodeId, ' + limited + ')';
  return {
    guards: {
      forkAllows: code(`({ context, event }) =>\n      ${move}.ok`),
      completesJoin: code(
        `({ context, event }) => {\n      const moved = ${move};\n      return moved.ok && moved.back === undefined;\n    }`,
      ),
    },
    actions: {
      enter: code(
        `assign(({ context, event }) => {\n      const moved = ${move};\n      return moved.ok ? { path: moved.path, forks: moved.forks${visits} } : {};\n    })`,
      ),
      goBack: code(
        `assign(({ context, event }) => {\n      const moved = ${move};\n      return moved.ok ? { path: moved.path, forks: moved.forks } : {};\n    })`,
      ),
    },
  };
}

/** The sub-flow guards of `setup`. */
export function callGuards(): LiteralObject {
  return {
    calleeCan: code('({ context, event }, params: { call: string }) => calleeCan(context.callee, params.call, event)'),
    returned: code(
      '({ context }, params: { edges: readonly SopEdge[]; exits: { readonly [terminal: string]: string }; to: NodeId }) =>\n      returnedAlong(context.callee, params.edges, params.exits, params.to)',
    ),
  };
}

/** The `actors` of `setup`: each called agent's machine, resumable. */
export function callActors(composition: Composition): LiteralObject {
  return Object.fromEntries(composition.callees.map((agent) => [agent, code(`resumable(${machineName(agentNames(agent, ''))})`)]));
}

/** The imports of the called agents' machines and event types. */
export function calleeImports(composition: Composition): { module: string; machine: string; event: string }[] {
  return composition.callees.map((agent) => {
    const names = agentNames(agent, '');
    return { module: `../${agent}/machine.js`, machine: machineName(names), event: eventTypeName(names) };
  });
}

/** A sub-flow node's entry and exit: spawn the child with the memory of its last call here, keep it on the way out. */
export function callEntryExit(node: string, call: SubflowCall): { entry: LiteralValue; exit: LiteralValue } {
  const id = stringLiteral(node);
  return {
    entry: code(
      `assign({ callee: ({ context, spawn }) => spawn(${stringLiteral(call.agent)}, { id: ${id}, input: entryOf(context.calls, ${id}) }) })`,
    ),
    exit: [
      code(`assign({ calls: ({ context }) => ({ ...context.calls, [${id}]: memoryOf(context.callee) }) })`),
      code(`stopChild(${id})`),
      code('assign({ callee: null })'),
    ],
  };
}

/** The forwarding transition of a sub-flow node: `GOTO.<node>.*` to the child, while it can make the move. */
export function forwardTransition(node: string): [string, LiteralValue] {
  const id = stringLiteral(node);
  return [
    `GOTO.${node}.*`,
    { guard: { type: 'calleeCan', params: { call: node } }, actions: code(`sendTo(${id}, ({ event }) => calledEvent(${id}, event))`) },
  ];
}

/** The guard that a sub-flow node leaves along its edge to `to`: the child stands on a terminal that maps to it. */
export function returnedGuard(node: string, call: SubflowCall, edges: readonly EdgeLike[], to: string): LiteralValue {
  void node;
  return {
    type: 'returned',
    params: { edges: edges.map((edge) => ({ to: edge.to, condition: edge.condition, style: edge.style })), exits: { ...call.exits }, to },
  };
}

/** The members the event type gets: a join's move may carry an outcome; a call's child's events, under its node. */
export function extraEventMembers(composition: Composition, outline: SopOutline): { joins: ReadonlySet<string>; called: string[] } {
  return {
    joins: new Set(composition.joins.keys()),
    called: outline.subflows.map(([node, call]) => `CalledEvent<${stringLiteral(node)}, ${eventTypeName(agentNames(call.agent, ''))}>`),
  };
}
