/**
 * Plans `generated/<agent>/machine.ts`: the SOP as an XState v5 machine for app code. One
 * `setup({ types }).createMachine({...})` with the config literal inline and flat states (the one form where
 * `snapshot.value` and `matches()` are typed, and the cheapest for tsc). Each flowchart node is a state in
 * flowchart order; each distinct edge target is a `GOTO.<target>` transition (see `transitions.ts`);
 * terminal nodes are final. No actions, guards, `invoke` or `after`: `xstate/graph` can walk every machine.
 */
import type { CodeBlockWriter, OptionalKind, SourceFileStructure } from 'ts-morph';
import { constExpression, typeAlias } from './declarations.js';
import { headerComment } from './header.js';
import { block, code, literalText, MAX_WIDTH, stringLiteral } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';
import { gotoEvent, machineTransitions } from './transitions.js';
import { StructureKind } from './ts-morph-values.js';

export function machineName(outline: SopOutline): string {
  return `${outline.camelName}Machine`;
}

export function eventTypeName(outline: SopOutline): string {
  return `${outline.pascalName}Event`;
}

export function planMachineModule(outline: SopOutline): PlannedFile {
  const { model, agent } = outline;
  const eventType = eventTypeName(outline);
  const name = machineName(outline);
  const terminal = new Set(outline.terminalNodeIds);

  const states: LiteralObject = Object.fromEntries(
    model.nodes.map((node) => {
      const state: Record<string, LiteralValue> = { description: node.description, meta: { type: node.type } };
      if (terminal.has(node.id)) state['type'] = 'final';
      else state['on'] = transitionsOf(outline, node.id);
      return [node.id, block(state)];
    }),
  );
  const config = block({ id: agent, initial: model.entryNode, states: block(states) });
  const setupArgument: LiteralValue = { types: { events: code(`{} as ${eventType}`) } };

  const head = `export const ${name} = setup(`;
  const initializer =
    `setup(${literalText(setupArgument, { column: head.length, tail: ').createMachine({'.length })})` +
    `.createMachine(${literalText(config, { column: 0 })})`;

  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(model.file, model.sourceHash)}\n\n`,
    statements: [
      { kind: StructureKind.ImportDeclaration, moduleSpecifier: 'xstate', namedImports: ['setup'] },
      typeAlias(
        eventType,
        `Events of the \`${agent}\` machine: \`GOTO.<NodeId>\` for every node some edge leads to.`,
        eventUnion(outline.eventTargets, `export type ${eventType} = `.length),
      ),
      constExpression({
        name,
        doc:
          `The \`${agent}\` SOP as an XState machine: one flat state per node (flowchart order), a ` +
          '`GOTO.<NodeId>` transition along each edge, terminal nodes final.',
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
