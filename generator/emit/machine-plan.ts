/**
 * Plans `generated/<agent>/machine.ts`: the SOP as an XState v5 machine for app code, following the same
 * transition table as the server (`contract/transitions.ts`): one flat state per node (flowchart order); in
 * each state a `GOTO.<target>` transition per distinct successor (see `transitions.ts`); at the root the entry
 * node (always) and each hub (guarded: only while it is on the path). The context holds the path, moved by
 * the contract's `enterPath`, so the machine and the server cannot disagree on a move or on the path after it.
 * Terminal nodes are tagged `terminal`, not final: the entry node and the hubs on the path stay reachable.
 * One `setup({ types }).createMachine({...})` with the config literal inline (the one form where
 * `snapshot.value` and `matches()` are typed, and the cheapest for tsc).
 *
 * A SOP with visit limits also keeps the run's visit counts in the context (counted by the contract's
 * `countVisit`): a move into a limited node is guarded by `withinLimit` (or `onPathWithinLimit` for a hub), and
 * the escalation node gets a transition guarded by `usedUp` (in the states that lead to a limited node) or
 * `onPathUsedUp` (at the root, for a limited hub or entry node). A SOP without limits gets the machine it always
 * got, byte for byte.
 */
import type { CodeBlockWriter, OptionalKind, SourceFileStructure } from 'ts-morph';
import { nameTable } from '../../contract/name-table.js';
import type { SubflowCall } from '../../contract/compiled-sop.js';
import { blankLineBefore, constExpression, constStatement, doc, importTypes, importValues, typeAlias } from './declarations.js';
import { CONTRACT_MODULE, headerComment } from './header.js';
import { modulePath } from './index-plan.js';
import { block, code, literalText, MAX_WIDTH, stringLiteral } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import {
  callActors,
  callEntryExit,
  calleeImports,
  callGuards,
  type Composition,
  combinedGuard,
  compositionOf,
  extraEventMembers,
  forkSetup,
  forwardTransition,
  returnedGuard,
} from './machine-composition.js';
import { calleeTypeName, contextTypeName, eventTypeName, machineName } from './machine-names.js';
import type { SopOutline } from './outline.js';
import type { ResolvedLimit } from '../model/visit-limits.js';
import type { PlannedFile } from './printer.js';
import { GOTO_PREFIX, gotoEvent, machineTransitions } from './transitions.js';
import { StructureKind } from './ts-morph-values.js';

export { contextTypeName, eventTypeName, machineName } from './machine-names.js';

export function planMachineModule(outline: SopOutline): PlannedFile {
  const { model, agent } = outline;
  const eventType = eventTypeName(outline);
  const contextType = contextTypeName(outline);
  const name = machineName(outline);
  const entry = model.entryNode;
  const terminal = new Set(outline.terminalNodeIds);
  const composition = compositionOf(outline);

  const limits = new Map(outline.limits.map((limit) => [limit.node, limit]));
  const states: LiteralObject = nameTable(
    model.nodes.map((node) => {
      const call = composition?.calls.get(node.id);
      const state: Record<string, LiteralValue> = { description: node.description, meta: { type: node.type } };
      if (call !== undefined) {
        state['meta'] = { type: node.type, subflow: call.agent };
        const { entry: spawn, exit } = callEntryExit(node.id, call);
        state['entry'] = spawn;
        state['exit'] = exit;
        state['on'] = callTransitions(outline, node.id, call, limits);
      } else if (terminal.has(node.id)) state['tags'] = ['terminal'];
      else state['on'] = transitionsOf(outline, node.id, limits, composition);
      return [node.id, block(state)];
    }),
  );
  const startsAtFork = composition?.forks.has(entry) === true;
  const context: Record<string, LiteralValue> = limits.size === 0 ? { path: [entry] } : { path: [entry], visits: {} };
  if (composition !== null && composition.forks.size > 0) context['forks'] = startsAtFork ? [{ fork: entry, depth: 0, done: [] }] : [];
  if (composition !== null && composition.calls.size > 0) {
    context['calls'] = {};
    context['callee'] = null;
  }
  const config = block({
    id: agent,
    initial: entry,
    context,
    on: block(rootTransitions(outline, limits)),
    states: block(states),
  });
  const target = `event.type.slice(${GOTO_PREFIX.length}) as NodeId`;
  const limited = literalText(
    outline.limits.map((limit) => limit.node),
    { column: 0 },
  );
  const forks = composition !== null && composition.forks.size > 0 ? forkSetup(entry, limits.size === 0 ? null : limited) : null;
  const calls = composition !== null && composition.calls.size > 0 ? composition : null;
  const setupArgument: LiteralValue = block({
    types: { context: code(`{} as ${contextType}`), events: code(`{} as ${eventType}`), tags: code("{} as 'terminal'") },
    ...(calls === null ? {} : { actors: block(callActors(calls)) }),
    guards: block({
      onPath: code(`({ context, event }) => context.path.includes(${target})`),
      ...(limits.size === 0
        ? {}
        : {
            withinLimit: code(
              `({ context, event }, params: { max: number }) =>\n      hasVisitsLeft(context.visits, ${target}, params.max)`,
            ),
            onPathWithinLimit: code(
              `({ context, event }, params: { max: number }) =>\n      context.path.includes(${target}) && hasVisitsLeft(context.visits, ${target}, params.max)`,
            ),
            usedUp: code(
              `({ context }, params: { nodes: readonly UsedUp[] }) =>\n      params.nodes.some(({ node, max }) => !hasVisitsLeft(context.visits, node, max))`,
            ),
            onPathUsedUp: code(
              `({ context }, params: { nodes: readonly UsedUp[] }) =>\n      params.nodes.some(({ node, max }) => context.path.includes(node) && !hasVisitsLeft(context.visits, node, max))`,
            ),
          }),
      ...(forks === null ? {} : forks.guards),
      ...(calls === null ? {} : callGuards()),
    }),
    actions: block(
      forks !== null
        ? forks.actions
        : {
            enter: code(
              limits.size === 0
                ? `assign({ path: ({ context, event }) => enterPath(context.path, ${target}, ${stringLiteral(entry)}) })`
                : `assign({\n      path: ({ context, event }) => enterPath(context.path, ${target}, ${stringLiteral(entry)}),\n      visits: ({ context, event }) => countVisit(context.visits, ${target}, ${limited}),\n    })`,
            ),
          },
    ),
  });

  const initializer = `setup(${literalText(setupArgument, { column: 0 })}).createMachine(${literalText(config, { column: 0 })})`;
  const ids = `./${modulePath(outline.idsPath.slice(outline.idsPath.lastIndexOf('/') + 1))}`; // './ids.js'

  const usesAnd = initializer.includes('and([');
  const xstateValues = ['assign', 'setup', ...(usesAnd ? ['and'] : []), ...(calls === null ? [] : ['sendTo', 'stopChild'])];
  const contractValues = [
    ...(limits.size === 0 ? ['enterPath'] : ['countVisit', 'enterPath', 'hasVisitsLeft']),
    ...(forks === null ? [] : ['forkMove']),
    ...(calls === null ? [] : ['calledEvent', 'calleeCan', 'entryOf', 'memoryOf', 'resumable', 'returnedAlong']),
  ];
  const contractTypes = [
    ...(limits.size === 0 ? [] : ['Visits']),
    ...(forks === null ? [] : ['ForkProgress', 'ForkTable']),
    ...(composition === null ? [] : composition.joins.size > 0 ? ['Outcome'] : []),
    ...(calls === null ? [] : ['CallMemory', 'CalledEvent', 'SopEdge']),
  ];
  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(model.file)}\n\n`,
    statements: [
      composition === null
        ? { kind: StructureKind.ImportDeclaration, moduleSpecifier: 'xstate', namedImports: ['assign', 'setup'] }
        : importValues('xstate', xstateValues),
      ...(calls === null ? [] : [importTypes('xstate', ['ActorRefFrom'])]),
      importValues(
        CONTRACT_MODULE,
        composition === null ? contractValues : contractValues.filter((value) => initializer.includes(`${value}(`)),
      ),
      ...(contractTypes.length === 0 ? [] : [importTypes(CONTRACT_MODULE, contractTypes)]),
      ...calleeImportStatements(calls),
      importTypes(ids, ['NodeId']),
      ...(limits.size === 0
        ? []
        : [
            typeAlias(
              'UsedUp',
              'A limited node and its `max_visits`, as the escalation guards are given them.',
              '{ readonly node: NodeId; readonly max: number }',
            ),
          ]),
      ...(forks === null
        ? []
        : [
            constStatement({
              name: 'FORKS',
              doc: `The forks of the \`${agent}\` SOP: each fork's branches, its join and how the join completes, as the server's transition table has them.`,
              type: 'ForkTable<NodeId>',
              value: block(
                nameTable(
                  outline.forks.map(([fork, rule]) => [
                    fork,
                    block({ branches: rule.branches, join: rule.join, strategy: rule.strategy, passed: rule.passed, failed: rule.failed }),
                  ]),
                ),
              ),
              exported: false,
            }),
          ]),
      ...(calls === null
        ? []
        : [
            typeAlias(
              calleeTypeName(outline),
              `The machine the \`${agent}\` machine runs as a child while it is at a sub-flow node.`,
              calleeImports(calls)
                .map((callee) => `ActorRefFrom<typeof ${callee.machine}>`)
                .join(' | '),
            ),
          ]),
      typeAlias(
        eventType,
        `Events of the \`${agent}\` machine: \`GOTO.<NodeId>\` for every node a move can enter` +
          `${forks === null ? '' : " (a move into a join may carry the finished branch's `outcome`)"}` +
          `${calls === null ? '' : ', and `GOTO.<node>.<id>` for a node of the SOP a sub-flow node calls'}.`,
        eventUnion(
          outline.eventTargets,
          `export type ${eventType} = `.length,
          composition === null ? null : extraEventMembers(composition, outline),
        ),
      ),
      {
        kind: StructureKind.Interface,
        leadingTrivia: blankLineBefore,
        docs: [
          doc(
            composition !== null
              ? `The context of the \`${agent}\` machine: the path (entry node first, current node last)${limits.size === 0 ? '' : ', the visits to limited nodes'}` +
                  `${forks === null ? '' : ', the records of the forks on the path'}` +
                  `${calls === null ? '' : ', what it keeps of the calls at each sub-flow node (the called visits) and the child it runs at one'}, as the server keeps them.`
              : limits.size === 0
                ? `The context of the \`${agent}\` machine: the path, as the server keeps it (entry node first, current node last).`
                : `The context of the \`${agent}\` machine: the path (entry node first, current node last) and the visits to limited nodes, as the server keeps them.`,
          ),
        ],
        isExported: true,
        name: contextType,
        properties: [
          { name: 'path', isReadonly: true, type: 'readonly NodeId[]' },
          ...(limits.size === 0 ? [] : [{ name: 'visits', isReadonly: true, type: 'Visits' }]),
          ...(forks === null ? [] : [{ name: 'forks', isReadonly: true, type: 'readonly ForkProgress[]' }]),
          ...(calls === null
            ? []
            : [
                { name: 'calls', isReadonly: true, type: '{ readonly [node: string]: CallMemory }' },
                { name: 'callee', isReadonly: true, type: `${calleeTypeName(outline)} | null` },
              ]),
        ],
      },
      constExpression({
        name,
        doc:
          `The \`${agent}\` SOP as an XState machine: one flat state per node (flowchart order); \`GOTO.<NodeId>\` moves ` +
          'along each edge, to the entry node from anywhere, and to a hub while it is on the path; terminal nodes are tagged.' +
          (limits.size === 0
            ? ''
            : ' A node with a visit limit is entered only while it has visits left; once it has none, its escalation node is entered instead.') +
          (forks === null
            ? ''
            : " A fork's branches are taken in any order; a branch's last node leads into the join once that completes it, else back to the fork.") +
          (calls === null
            ? ''
            : " A sub-flow node runs the called SOP's machine as a child and leaves along the edge its terminal maps to."),
        initializer,
      }),
    ],
  };
  return { path: outline.machinePath, structure };
}

function transitionsOf(
  outline: SopOutline,
  id: string,
  limits: ReadonlyMap<string, ResolvedLimit>,
  composition: Composition | null = null,
): LiteralObject {
  const edges = machineTransitions(outline.edgesByNode.get(id) ?? []);
  const own = edges.map((t): [string, LiteralValue] => {
    const transition: Record<string, LiteralValue> = { target: t.target };
    if (t.description !== null) transition['description'] = t.description;
    if (t.style !== null) transition['meta'] = { style: t.style };
    const limit = limits.get(t.target);
    const guards: LiteralValue[] = limit === undefined ? [] : [{ type: 'withinLimit', params: { max: limit.max } }];
    const fork = composition?.forks.get(id);
    const joinOf = composition?.joins.get(id);
    const reserved = joinOf === undefined ? undefined : composition?.forks.get(joinOf);
    if (fork?.branches.includes(t.target) || reserved?.passed.includes(t.target) || reserved?.failed.includes(t.target))
      guards.push('forkAllows');
    const into = composition?.joins.get(t.target);
    if (into !== undefined && into !== id) {
      // A branch's last node: into the join when that completes it, else back to the fork.
      const guard = combinedGuard([...guards, 'completesJoin']);
      return [
        t.event,
        [
          { ...transition, ...(guard === undefined ? {} : { guard }), actions: 'enter' },
          { target: into, actions: 'goBack' },
        ],
      ];
    }
    const guard = combinedGuard(guards);
    if (guard !== undefined) transition['guard'] = guard;
    transition['actions'] = 'enter';
    return [t.event, transition];
  });
  // Escalation: a successor that used up its visits opens its escalation node here (unless it is a successor anyway).
  const successors = new Set(edges.map((t) => t.target));
  const escalations = groupByEscalation(edges.flatMap((t) => (limits.has(t.target) ? [limits.get(t.target)!] : [])));
  const entry = outline.model.entryNode;
  for (const [escalation, usedUp] of escalations) {
    if (successors.has(escalation) || (escalation === entry && !limits.has(entry))) continue;
    own.push([gotoEvent(escalation), { target: escalation, guard: usedUpGuard('usedUp', usedUp), actions: 'enter' }]);
  }
  return nameTable(own);
}

/**
 * The moves legal from every state: the entry node, and each hub while it is on the path (each within its visit
 * limit, if it has one); and the escalation nodes of a limited entry node or hub that used up its visits.
 */
function rootTransitions(outline: SopOutline, limits: ReadonlyMap<string, ResolvedLimit>): LiteralObject {
  const entry = outline.model.entryNode;
  const hubs = outline.hubs.filter((hub) => hub !== entry);
  const byEvent = new Map<string, LiteralValue[]>();
  const add = (node: string, transition: LiteralObject) => {
    const event = gotoEvent(node);
    byEvent.set(event, [...(byEvent.get(event) ?? []), { target: `.${node}`, ...transition, actions: 'enter' }]);
  };
  const entryLimit = limits.get(entry);
  add(entry, entryLimit === undefined ? {} : { guard: { type: 'withinLimit', params: { max: entryLimit.max } } });
  for (const hub of hubs) {
    const limit = limits.get(hub);
    add(hub, { guard: limit === undefined ? 'onPath' : { type: 'onPathWithinLimit', params: { max: limit.max } } });
  }
  const anywhere = [entry, ...hubs].flatMap((node) => (limits.has(node) ? [limits.get(node)!] : []));
  for (const [escalation, usedUp] of groupByEscalation(anywhere)) {
    if (escalation === entry) continue;
    add(escalation, { guard: usedUpGuard('onPathUsedUp', usedUp) });
  }
  return nameTable([...byEvent].map(([event, transitions]) => [event, transitions.length === 1 ? transitions[0]! : transitions]));
}

function groupByEscalation(limits: readonly ResolvedLimit[]): Map<string, ResolvedLimit[]> {
  const groups = new Map<string, ResolvedLimit[]>();
  for (const limit of limits) groups.set(limit.escalation, [...(groups.get(limit.escalation) ?? []), limit]);
  return groups;
}

function usedUpGuard(type: 'usedUp' | 'onPathUsedUp', limits: readonly ResolvedLimit[]): LiteralObject {
  return { type, params: { nodes: limits.map((limit) => ({ node: limit.node, max: limit.max })) } };
}

/**
 * A sub-flow node's transitions: forwarding `GOTO.<node>.*` to the child, and each of its edges once the child stands
 * on a terminal that maps to it (within the target's visit limit; else its escalation node, as for any edge).
 */
function callTransitions(outline: SopOutline, id: string, call: SubflowCall, limits: ReadonlyMap<string, ResolvedLimit>): LiteralObject {
  const written = outline.edgesByNode.get(id) ?? [];
  const edges = machineTransitions(written);
  const returned = (to: string) => returnedGuard(id, call, written, to);
  const own: [string, LiteralValue][] = [forwardTransition(id)];
  for (const t of edges) {
    const transition: Record<string, LiteralValue> = { target: t.target };
    if (t.description !== null) transition['description'] = t.description;
    if (t.style !== null) transition['meta'] = { style: t.style };
    const limit = limits.get(t.target);
    transition['guard'] = combinedGuard([
      returned(t.target),
      ...(limit === undefined ? [] : [{ type: 'withinLimit', params: { max: limit.max } }]),
    ])!;
    transition['actions'] = 'enter';
    own.push([t.event, transition]);
  }
  const successors = new Set(edges.map((t) => t.target));
  const entry = outline.model.entryNode;
  const escalations = new Map<string, LiteralValue[]>();
  for (const t of edges) {
    const limit = limits.get(t.target);
    if (limit === undefined || successors.has(limit.escalation) || (limit.escalation === entry && !limits.has(entry))) continue;
    const guard = combinedGuard([returned(t.target), usedUpGuard('usedUp', [limit])])!;
    escalations.set(limit.escalation, [
      ...(escalations.get(limit.escalation) ?? []),
      { target: limit.escalation, guard, actions: 'enter' },
    ]);
  }
  for (const [escalation, transitions] of escalations)
    own.push([gotoEvent(escalation), transitions.length === 1 ? transitions[0]! : transitions]);
  return nameTable(own);
}

function calleeImportStatements(calls: Composition | null) {
  if (calls === null) return [];
  return calleeImports(calls).flatMap((callee) => [
    importValues(callee.module, [callee.machine]),
    importTypes(callee.module, [callee.event]),
  ]);
}

/** `{ type: 'GOTO.A' } | …` on one line when it fits, else one `| member` per line; `never` for none. */
function eventUnion(
  targets: readonly string[],
  column: number,
  extra: { readonly joins: ReadonlySet<string>; readonly called: readonly string[] } | null = null,
): string | ((writer: CodeBlockWriter) => void) {
  const members = [
    ...targets.map((target) =>
      extra?.joins.has(target) === true
        ? `{ type: ${stringLiteral(gotoEvent(target))}; outcome?: Outcome }`
        : `{ type: ${stringLiteral(gotoEvent(target))} }`,
    ),
    ...(extra?.called ?? []),
  ];
  const oneLine = members.join(' | ');
  if (members.length === 0) return 'never';
  if (column + oneLine.length + 1 <= MAX_WIDTH) return oneLine;
  return (writer) => {
    for (const member of members) writer.newLine().write(`| ${member}`);
  };
}
