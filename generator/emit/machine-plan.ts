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
import { blankLineBefore, constExpression, doc, importTypes, importValues, typeAlias } from './declarations.js';
import { CONTRACT_MODULE, headerComment } from './header.js';
import { modulePath } from './index-plan.js';
import { block, code, literalText, MAX_WIDTH, stringLiteral } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import type { AgentNames, SopOutline } from './outline.js';
import type { ResolvedLimit } from '../model/visit-limits.js';
import type { PlannedFile } from './printer.js';
import { GOTO_PREFIX, gotoEvent, machineTransitions } from './transitions.js';
import { StructureKind } from './ts-morph-values.js';

export function machineName(outline: AgentNames): string {
  return `${outline.camelName}Machine`;
}

export function eventTypeName(outline: AgentNames): string {
  return `${outline.pascalName}Event`;
}

export function contextTypeName(outline: AgentNames): string {
  return `${outline.pascalName}Context`;
}

export function planMachineModule(outline: SopOutline): PlannedFile {
  const { model, agent } = outline;
  const eventType = eventTypeName(outline);
  const contextType = contextTypeName(outline);
  const name = machineName(outline);
  const entry = model.entryNode;
  const terminal = new Set(outline.terminalNodeIds);

  const limits = new Map(outline.limits.map((limit) => [limit.node, limit]));
  const states: LiteralObject = nameTable(
    model.nodes.map((node) => {
      const state: Record<string, LiteralValue> = { description: node.description, meta: { type: node.type } };
      if (terminal.has(node.id)) state['tags'] = ['terminal'];
      else state['on'] = transitionsOf(outline, node.id, limits);
      return [node.id, block(state)];
    }),
  );
  const config = block({
    id: agent,
    initial: entry,
    context: limits.size === 0 ? { path: [entry] } : { path: [entry], visits: {} },
    on: block(rootTransitions(outline, limits)),
    states: block(states),
  });
  const target = `event.type.slice(${GOTO_PREFIX.length}) as NodeId`;
  const limited = literalText(
    outline.limits.map((limit) => limit.node),
    { column: 0 },
  );
  const setupArgument: LiteralValue = block({
    types: { context: code(`{} as ${contextType}`), events: code(`{} as ${eventType}`), tags: code("{} as 'terminal'") },
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
    }),
    actions: block({
      enter: code(
        limits.size === 0
          ? `assign({ path: ({ context, event }) => enterPath(context.path, ${target}, ${stringLiteral(entry)}) })`
          : `assign({\n      path: ({ context, event }) => enterPath(context.path, ${target}, ${stringLiteral(entry)}),\n      visits: ({ context, event }) => countVisit(context.visits, ${target}, ${limited}),\n    })`,
      ),
    }),
  });

  const initializer = `setup(${literalText(setupArgument, { column: 0 })}).createMachine(${literalText(config, { column: 0 })})`;
  const ids = `./${modulePath(outline.idsPath.slice(outline.idsPath.lastIndexOf('/') + 1))}`; // './ids.js'

  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(model.file)}\n\n`,
    statements: [
      { kind: StructureKind.ImportDeclaration, moduleSpecifier: 'xstate', namedImports: ['assign', 'setup'] },
      importValues(CONTRACT_MODULE, limits.size === 0 ? ['enterPath'] : ['countVisit', 'enterPath', 'hasVisitsLeft']),
      ...(limits.size === 0 ? [] : [importTypes(CONTRACT_MODULE, ['Visits'])]),
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
      typeAlias(
        eventType,
        `Events of the \`${agent}\` machine: \`GOTO.<NodeId>\` for every node a move can enter.`,
        eventUnion(outline.eventTargets, `export type ${eventType} = `.length),
      ),
      {
        kind: StructureKind.Interface,
        leadingTrivia: blankLineBefore,
        docs: [
          doc(
            limits.size === 0
              ? `The context of the \`${agent}\` machine: the path, as the server keeps it (entry node first, current node last).`
              : `The context of the \`${agent}\` machine: the path (entry node first, current node last) and the visits to limited nodes, as the server keeps them.`,
          ),
        ],
        isExported: true,
        name: contextType,
        properties: [
          { name: 'path', isReadonly: true, type: 'readonly NodeId[]' },
          ...(limits.size === 0 ? [] : [{ name: 'visits', isReadonly: true, type: 'Visits' }]),
        ],
      },
      constExpression({
        name,
        doc:
          `The \`${agent}\` SOP as an XState machine: one flat state per node (flowchart order); \`GOTO.<NodeId>\` moves ` +
          'along each edge, to the entry node from anywhere, and to a hub while it is on the path; terminal nodes are tagged.' +
          (limits.size === 0
            ? ''
            : ' A node with a visit limit is entered only while it has visits left; once it has none, its escalation node is entered instead.'),
        initializer,
      }),
    ],
  };
  return { path: outline.machinePath, structure };
}

function transitionsOf(outline: SopOutline, id: string, limits: ReadonlyMap<string, ResolvedLimit>): LiteralObject {
  const edges = machineTransitions(outline.edgesByNode.get(id) ?? []);
  const own = edges.map((t): [string, LiteralValue] => {
    const transition: Record<string, LiteralValue> = { target: t.target };
    if (t.description !== null) transition['description'] = t.description;
    if (t.style !== null) transition['meta'] = { style: t.style };
    const limit = limits.get(t.target);
    if (limit !== undefined) transition['guard'] = { type: 'withinLimit', params: { max: limit.max } };
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

/** `{ type: 'GOTO.A' } | …` on one line when it fits, else one `| member` per line; `never` for none. */
function eventUnion(targets: readonly string[], column: number): string | ((writer: CodeBlockWriter) => void) {
  const members = targets.map((target) => `{ type: ${stringLiteral(gotoEvent(target))} }`);
  const oneLine = members.join(' | ');
  if (members.length === 0) return 'never';
  if (column + oneLine.length + 1 <= MAX_WIDTH) return oneLine;
  return (writer) => {
    for (const member of members) writer.newLine().write(`| ${member}`);
  };
}
