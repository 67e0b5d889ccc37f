/**
 * Plans `generated/index.ts`, the typed entry point for app code: explicit, sorted named re-exports (no
 * `export *`, so adding an export is a visible change). Per agent: its compiled SOP as `<agent>Sop`, its
 * machine, and its types prefixed with the agent (`RetailCustomerSupportNodeId`, …).
 */
import type { OptionalKind, SourceFileStructure } from 'ts-morph';
import { reExport } from './declarations.js';
import type { ReExport } from './declarations.js';
import { combinedHash, headerComment, sourceGlob } from './header.js';
import { eventTypeName, machineName } from './machine-plan.js';
import { compareCodeUnits } from './naming.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';

export const INDEX_PATH = 'index.ts';

/** Types of each graph module, re-exported with the agent's PascalCase name in front. */
export const GRAPH_TYPE_EXPORTS = [
  'DecisionNodeId',
  'NodeId',
  'Successors',
  'TerminalNodeId',
  'ToolName',
] as const;

export function planIndexModule(outlines: readonly SopOutline[]): PlannedFile {
  const exports = outlines.flatMap((o) => {
    const graphSpecifiers: ReExport[] = [
      { name: 'SOP', alias: `${o.camelName}Sop` },
      ...GRAPH_TYPE_EXPORTS.map((name) => ({ name, alias: `${o.pascalName}${name}`, typeOnly: true })),
    ];
    const machineSpecifiers: ReExport[] = [{ name: machineName(o) }, { name: eventTypeName(o), typeOnly: true }];
    return [reExport(`./${modulePath(o.graphPath)}`, graphSpecifiers), reExport(`./${modulePath(o.machinePath)}`, machineSpecifiers)];
  });
  exports.sort((a, b) => compareCodeUnits(a.moduleSpecifier ?? '', b.moduleSpecifier ?? ''));
  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerLine(outlines)}\n\n`,
    // A file without exports would not be a module; `export {}` keeps it one when there are no SOPs.
    statements: exports.length > 0 ? exports : ['export {};'],
  };
  return { path: INDEX_PATH, structure };
}

/** The header of a file built from every SOP: the common source glob and a hash over all inputs. */
export function headerLine(outlines: readonly SopOutline[]): string {
  const sources = outlines.map((o) => ({ agent: o.agent, file: o.model.file, sourceHash: o.model.sourceHash }));
  return headerComment(sourceGlob(sources.map((s) => s.file)), combinedHash(sources));
}

/** `retail/graph.ts` → `retail/graph.js` (NodeNext wants the runtime extension). */
export function modulePath(path: string): string {
  return path.replace(/\.ts$/, '.js');
}
