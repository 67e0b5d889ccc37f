/**
 * Plans `generated/registry.ts`, for app code: `AgentName` (the union of the compiled agents) and a typed
 * `loadAgent(name)` that imports that agent's graph module on first use, so an app with 100 agents loads none
 * at start-up. The server does not use it: it loads `sop-bundle.json`. Nothing here depends on an SOP's
 * content, only on which agents exist, so editing a prompt leaves this file alone.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures } from 'ts-morph';
import { nameTable } from '../../contract/name-table.js';
import { blankLineBefore, constStatement, doc, typeAlias, unionOfLiterals } from './declarations.js';
import { headerLine, modulePath } from './index-plan.js';
import { block, code, stringLiteral } from './literal.js';
import type { AgentNames } from './outline.js';
import type { PlannedFile } from './printer.js';
import { StructureKind } from './ts-morph-values.js';

export const REGISTRY_PATH = 'registry.ts';

export function planRegistryModule(outlines: readonly AgentNames[]): PlannedFile {
  const importOf = (o: AgentNames): string => `import(${stringLiteral(`./${modulePath(o.graphPath)}`)})`;
  const statements: StatementStructures[] = [
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
      value: block(nameTable(outlines.map((o) => [o.agent, code(`() => ${importOf(o)}`)]))),
      exported: false,
    }),
    {
      kind: StructureKind.Function,
      leadingTrivia: blankLineBefore,
      docs: [
        doc(
          "Imports one agent's graph module, typed for that agent (`NODE_IDS`, `EDGES`, `SOP`, …). A name that is not " +
            'an agent (from untyped code: `constructor`, say) is refused, never taken for a member of `LOADERS`.',
        ),
      ],
      isExported: true,
      name: 'loadAgent',
      typeParameters: [{ name: 'A', constraint: 'AgentName' }],
      parameters: [{ name: 'name', type: 'A' }],
      returnType: 'Promise<AgentModules[A]>',
      statements: [
        'const known = Object.prototype.hasOwnProperty.call(LOADERS, name);',
        "return known ? LOADERS[name]() : Promise.reject(new Error('Unknown agent: ' + String(name)));",
      ],
    },
  ];
  const structure: OptionalKind<SourceFileStructure> = { leadingTrivia: `${headerLine(outlines)}\n\n`, statements };
  return { path: REGISTRY_PATH, structure };
}
