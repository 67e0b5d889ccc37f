/**
 * Plans `generated/<agent>/ids.ts`: what app code types with, and nothing else. The id tuples (`as const`,
 * their literal types are the point) with their union types, and the successor types. No imports, no
 * prompts or other long strings, no `CompiledSop` to check against: a module importing an agent's `NodeId`
 * costs tsc this small file, not the graph module's tables (row 5 of the bench). The graph module imports its
 * ids from here and re-exports them, so `graph.js` keeps its whole API.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures } from 'ts-morph';
import { blankLineBefore, constStatement, doc, typeAlias, unionOfLiterals } from './declarations.js';
import { headerComment } from './header.js';
import { propertyName, stringLiteral } from './literal.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';
import { StructureKind } from './ts-morph-values.js';

/** The values of an ids module (the id tuples). */
export const ID_VALUE_EXPORTS = ['DECISION_NODE_IDS', 'NODE_IDS', 'TERMINAL_NODE_IDS', 'TOOL_NAMES'] as const;

/** The types of an ids module. */
export const ID_TYPE_EXPORTS = ['DecisionNodeId', 'NodeId', 'SuccessorOf', 'Successors', 'TerminalNodeId', 'ToolName'] as const;

export function planIdsModule(outline: SopOutline): PlannedFile {
  const { model } = outline;
  const sop = `the \`${outline.agent}\` SOP`;
  const statements: StatementStructures[] = [
    ...idList('NODE_IDS', 'NodeId', outline.nodeIds, `Node ids of ${sop}, in flowchart order.`, `A node of ${sop}.`),
    ...idList(
      'DECISION_NODE_IDS',
      'DecisionNodeId',
      outline.decisionNodeIds,
      `Decision (rhombus) nodes of ${sop}.`,
      `A decision node of ${sop}.`,
    ),
    ...idList(
      'TERMINAL_NODE_IDS',
      'TerminalNodeId',
      outline.terminalNodeIds,
      `Terminal nodes of ${sop}: no outgoing edges.`,
      `A terminal node of ${sop}.`,
    ),
    ...idList(
      'TOOL_NAMES',
      'ToolName',
      outline.toolNames,
      `Domain tools of ${sop}: frontmatter \`tools\`, then any a node names beyond them.`,
      `A domain tool of ${sop}.`,
    ),
    {
      kind: StructureKind.Interface,
      leadingTrivia: blankLineBefore,
      docs: [doc(`The successors of each node of ${sop} (\`never\` for terminal nodes).`)],
      isExported: true,
      name: 'Successors',
      properties: outline.nodeIds.map((id) => ({
        name: propertyName(id),
        isReadonly: true,
        type: unionOfLiterals(outline.successors.get(id) ?? [], stringLiteral),
      })),
    },
    typeAlias('SuccessorOf', 'The nodes an edge leads to from node `N`.', 'Successors[N]', [{ name: 'N', constraint: 'NodeId' }]),
  ];
  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(model.file)}\n\n`,
    statements,
  };
  return { path: outline.idsPath, structure };
}

/** `export const NAME = [...] as const;` and `export type Name = (typeof NAME)[number];` */
function idList(constName: string, typeName: string, ids: readonly string[], constDoc: string, typeDoc: string): StatementStructures[] {
  return [
    constStatement({ name: constName, doc: constDoc, value: ids, suffix: ' as const' }),
    typeAlias(typeName, typeDoc, `(typeof ${constName})[number]`),
  ];
}
