/**
 * Plans `generated/<agent>/machine.ts`: the SOP as an XState v5 machine for app code, following the same
 * transition table as the server (`contract/transitions.ts`): one flat state per node (flowchart order); in
 * each state a `GOTO.<target>` transition per distinct successor (see `transitions.ts`); at the root the entry
 * node (always) and each hub (guarded: only while it is on the path). The context holds the path, moved by
 * the contract's `enterPath`, so the machine and the server cannot disagree on a move or on the path after it.
 * Terminal nodes are tagged `terminal`, not final: the entry node and the hubs on the path stay reachable.
 * One `setup({ types }).createMachine({...})` with the config literal inline (the one form where
 * `snapshot.value` and `matches()` are typed, and the cheapest for tsc).
 */
import type { CodeBlockWriter, OptionalKind, SourceFileStructure } from 'ts-morph';
import { blankLineBefore, constExpression, doc, importTypes, importValues, typeAlias } from './declarations.js';
import { CONTRACT_MODULE, headerComment } from './header.js';
import { modulePath } from './index-plan.js';
import { block, code, literalText, MAX_WIDTH, stringLiteral } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import type { AgentNames, SopOutline } from './outline.js';
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

  const states: LiteralObject = Object.fromEntries(
    model.nodes.map((node) => {
      const state: Record<string, LiteralValue> = { description: node.description, meta: { type: node.type } };
      if (terminal.has(node.id)) state['tags'] = ['terminal'];
      else state['on'] = transitionsOf(outline, node.id);
      return [node.id, block(state)];
    }),
  );
  // The moves legal from every state: the entry node, and each hub while it is on the path.
  const anywhere: LiteralObject = Object.fromEntries([
    [gotoEvent(entry), { target: `.${entry}`, actions: 'enter' }],
    ...outline.hubs.filter((hub) => hub !== entry).map((hub) => [gotoEvent(hub), { target: `.${hub}`, guard: 'onPath', actions: 'enter' }]),
  ]);
  const config = block({ id: agent, initial: entry, context: { path: [entry] }, on: block(anywhere), states: block(states) });
  const target = `event.type.slice(${GOTO_PREFIX.length}) as NodeId`;
  const setupArgument: LiteralValue = block({
    types: { context: code(`{} as ${contextType}`), events: code(`{} as ${eventType}`), tags: code("{} as 'terminal'") },
    guards: block({ onPath: code(`({ context, event }) => context.path.includes(${target})`) }),
    actions: block({
      enter: code(`assign({ path: ({ context, event }) => enterPath(context.path, ${target}, ${stringLiteral(entry)}) })`),
    }),
  });

  const initializer = `setup(${literalText(setupArgument, { column: 0 })}).createMachine(${literalText(config, { column: 0 })})`;
  const ids = `./${modulePath(outline.idsPath.slice(outline.idsPath.lastIndexOf('/') + 1))}`; // './ids.js'

  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(model.file)}\n\n`,
    statements: [
      { kind: StructureKind.ImportDeclaration, moduleSpecifier: 'xstate', namedImports: ['assign', 'setup'] },
      importValues(CONTRACT_MODULE, ['enterPath']),
      importTypes(ids, ['NodeId']),
      typeAlias(
        eventType,
        `Events of the \`${agent}\` machine: \`GOTO.<NodeId>\` for every node a move can enter.`,
        eventUnion(outline.eventTargets, `export type ${eventType} = `.length),
      ),
      {
        kind: StructureKind.Interface,
        leadingTrivia: blankLineBefore,
        docs: [doc(`The context of the \`${agent}\` machine: the path, as the server keeps it (entry node first, current node last).`)],
        isExported: true,
        name: contextType,
        properties: [{ name: 'path', isReadonly: true, type: 'readonly NodeId[]' }],
      },
      constExpression({
        name,
        doc:
          `The \`${agent}\` SOP as an XState machine: one flat state per node (flowchart order); \`GOTO.<NodeId>\` moves ` +
          'along each edge, to the entry node from anywhere, and to a hub while it is on the path; terminal nodes are tagged.',
        initializer,
      }),
    ],
  };
  return { path: outline.machinePath, structure };
}

function transitionsOf(outline: SopOutline, id: string): LiteralObject {
  return Object.fromEntries(
    machineTransitions(outline.edgesByNode.get(id) ?? []).map((t) => {
      const transition: Record<string, LiteralValue> = { target: t.target };
      if (t.description !== null) transition['description'] = t.description;
      if (t.style !== null) transition['meta'] = { style: t.style };
      transition['actions'] = 'enter';
      return [t.event, transition];
    }),
  );
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
