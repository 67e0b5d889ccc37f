/**
 * Plans `generated/registry.ts`, the runtime's view of the compiled agents: `AGENTS`, sorted by agent, each
 * with a lazy `load()` so a server with 100 agents imports none of them at start-up, typed loosely as
 * `AgentIndexEntry` so the server's type graph does not grow with the number of SOPs; and for app code a
 * typed `loadAgent(name)` that resolves to that agent's graph module.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures } from 'ts-morph';
import { blankLineBefore, constStatement, doc, importTypes, typeAlias, unionOfLiterals } from './declarations.js';
import { headerLine, modulePath } from './index-plan.js';
import { block, code, stringLiteral } from './literal.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';
import type { RuntimeTypesImport } from './runtime-types-import.js';
import { StructureKind } from './ts-morph-values.js';

export const REGISTRY_PATH = 'registry.ts';

export function planRegistryModule(outlines: readonly SopOutline[], runtimeTypes: RuntimeTypesImport): PlannedFile {
  const importOf = (o: SopOutline): string => `import(${stringLiteral(`./${modulePath(o.graphPath)}`)})`;
  const statements: StatementStructures[] = [
    importTypes(runtimeTypes.fromOutDir, ['AgentIndexEntry']),
    typeAlias(
      'AgentName',
      'The agents compiled into this folder.',
      unionOfLiterals(
        outlines.map((o) => o.agent),
        stringLiteral,
      ),
    ),
    {
      kind: StructureKind.Interface,
      leadingTrivia: blankLineBefore,
      docs: [doc("Each agent's graph module, as `loadAgent` resolves it.")],
      isExported: true,
      name: 'AgentModules',
      properties: outlines.map((o) => ({ name: o.agent, isReadonly: true, type: `typeof ${importOf(o)}` })),
    },
    constStatement({
      name: 'LOADERS',
      doc: 'One dynamic import per agent, typed per agent (for `loadAgent`).',
      type: '{ readonly [A in AgentName]: () => Promise<AgentModules[A]> }',
      value: block(Object.fromEntries(outlines.map((o) => [o.agent, code(`() => ${importOf(o)}`)]))),
      exported: false,
    }),
    constStatement({
      name: 'AGENTS',
      doc: 'Every compiled agent, sorted by name; `load()` imports its graph module on first use.',
      type: 'readonly AgentIndexEntry[]',
      value: outlines.map((o) =>
        block({
          agent: o.agent,
          sourceFile: o.model.file,
          sourceHash: o.model.sourceHash,
          load: code(`() => ${importOf(o)}.then((m) => m.SOP)`),
        }),
      ),
    }),
    {
      kind: StructureKind.Function,
      leadingTrivia: blankLineBefore,
      docs: [doc("Imports one agent's graph module, typed for that agent (`NODE_IDS`, `EDGES`, `SOP`, …).")],
      isExported: true,
      name: 'loadAgent',
      typeParameters: [{ name: 'A', constraint: 'AgentName' }],
      parameters: [{ name: 'name', type: 'A' }],
      returnType: 'Promise<AgentModules[A]>',
      statements: ['return LOADERS[name]();'],
    },
  ];
  const structure: OptionalKind<SourceFileStructure> = { leadingTrivia: `${headerLine(outlines)}\n\n`, statements };
  return { path: REGISTRY_PATH, structure };
}
