/**
 * Plans `generated/index.ts`, the typed entry point for app code: explicit, sorted named re-exports (no
 * `export *`, so adding an export is a visible change). Per agent: its machine and event type, and its id
 * types prefixed with the agent (`RetailCustomerSupportNodeId`, …), re-exported from `<agent>/ids.ts`.
 *
 * No data, on purpose: tsc checks every module a program reaches, so one name imported from the index costs
 * every module the index re-exports from. Re-exporting each agent's `SOP` made every app that imports the
 * index type-check every graph module (prompt tables, system prompts, the `CompiledSop` check), ~40 KB per
 * agent; the runtime reads the JSON bundle, and app code that wants an agent's data imports
 * `<agent>/graph.js` (or calls `loadAgent`). The emitted file says so in its own JSDoc.
 */
import type { OptionalKind, SourceFileStructure } from 'ts-morph';
import { jsDoc, reExport } from './declarations.js';
import type { ReExport } from './declarations.js';
import { headerComment, sourceGlob } from './header.js';
import { eventTypeName, machineName } from './machine-names.js';
import { compareCodeUnits } from '../model/naming.js';
import type { AgentNames } from './outline.js';
import type { PlannedFile } from './printer.js';

export const INDEX_PATH = 'index.ts';

/** Types of each ids module, re-exported with the agent's PascalCase name in front. */
export const INDEX_ID_TYPE_EXPORTS = ['DecisionNodeId', 'NodeId', 'Successors', 'TerminalNodeId', 'ToolName'] as const;

/** The index's own JSDoc: what it holds, what it leaves out and why, and when to import per agent instead. */
export const INDEX_DOC = jsDoc(
  'The typed entry point for app code. Per agent: its XState machine (`<agent>Machine`, e.g. ' +
    '`retailCustomerSupportMachine`), its event type (`<Agent>Event`) and its id types under its name ' +
    '(`<Agent>NodeId`, `…DecisionNodeId`, `…TerminalNodeId`, `…ToolName`, `…Successors`), from ' +
    '`<agent>/machine.ts` and `<agent>/ids.ts`.',
  "No data: an agent's compiled SOP (`SOP`, `EDGES`, `PROMPTS`, …) is in `<agent>/graph.ts`. Import it from there, " +
    'or load it with `loadAgent()` from `registry.ts`. tsc checks every module a program reaches, so if this file ' +
    're-exported the graph modules, every app importing one name from it would type-check all of them.',
  "Importing from this file still costs tsc every agent's machine. App code that uses a few agents out of many " +
    'should import `<agent>/machine.js` and `<agent>/ids.js` directly.',
);

export function planIndexModule(outlines: readonly AgentNames[]): PlannedFile {
  const exports = outlines.flatMap((o) => {
    const idSpecifiers: ReExport[] = INDEX_ID_TYPE_EXPORTS.map((name) => ({
      name,
      alias: `${o.pascalName}${name}`,
      typeOnly: true,
    }));
    const machineSpecifiers: ReExport[] = [{ name: machineName(o) }, { name: eventTypeName(o), typeOnly: true }];
    return [reExport(`./${modulePath(o.idsPath)}`, idSpecifiers), reExport(`./${modulePath(o.machinePath)}`, machineSpecifiers)];
  });
  exports.sort((a, b) => compareCodeUnits(a.moduleSpecifier ?? '', b.moduleSpecifier ?? ''));
  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerLine(outlines)}\n\n${INDEX_DOC}\n\n`,
    // A file without exports would not be a module; `export {}` keeps it one when there are no SOPs.
    statements: exports.length > 0 ? exports : ['export {};'],
  };
  return { path: INDEX_PATH, structure };
}

/** The header of a file built from every SOP: the common source glob. */
export function headerLine(outlines: readonly AgentNames[]): string {
  return headerComment(sourceGlob(outlines.map((o) => o.sourceFile)));
}

/** `retail/graph.ts` → `retail/graph.js` (NodeNext wants the runtime extension). */
export function modulePath(path: string): string {
  return path.replace(/\.ts$/, '.js');
}
