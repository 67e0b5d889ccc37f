/**
 * Plans `generated/<agent>/graph.ts`: the data the server needs and the types app code narrows with (node
 * ids, successors per node, tool names), with no XState import. Tables carry explicit type annotations
 * instead of `as const`, so long strings stay out of the type graph and tsc pays little per SOP; only the
 * short id tuples use `as const`, because their literal types are the point.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures } from 'ts-morph';
import { StructureKind } from 'ts-morph';
import { blankLineBefore, constStatement, doc, importTypes, typeAlias, unionOfLiterals } from './declarations.js';
import { headerComment } from './header.js';
import { block, code, fromData, propertyName, stringLiteral } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';
import type { RuntimeTypesImport } from './runtime-types-import.js';


export function planGraphModule(outline: SopOutline, runtimeTypes: RuntimeTypesImport): PlannedFile {
  const { model, agent } = outline;
  const sop = `the \`${agent}\` SOP`;
  const byNode = (value: (id: string) => LiteralValue): LiteralObject =>
    Object.fromEntries(outline.nodeIds.map((id) => [id, value(id)]));
  const prompts = new Map(model.prompts.map((p) => [p.nodeId, p]));

  const statements: StatementStructures[] = [
    importTypes(runtimeTypes.fromAgentFolder, ['AgentMeta', 'CompiledSop', 'EdgeTable', 'NodePrompt', 'SopNode']),
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
    typeAlias('SuccessorOf', 'The nodes an edge leads to from node `N`.', 'Successors[N]', [
      { name: 'N', constraint: 'NodeId' },
    ]),
    constStatement({
      name: 'NODES',
      doc: `Every node of ${sop}: Mermaid shape and label.`,
      type: '{ readonly [K in NodeId]: SopNode<K> }',
      value: block(Object.fromEntries(model.nodes.map((n) => [n.id, { id: n.id, type: n.type, description: n.description }]))),
    }),
    constStatement({
      name: 'EDGES',
      doc: `Outgoing edges of every node of ${sop}, in source order.`,
      type: 'EdgeTable<NodeId, Successors>',
      value: block(byNode((id) => (outline.edgesByNode.get(id) ?? []).map((e) => ({ ...e })))),
    }),
    constStatement({
      name: 'PROMPTS',
      doc: `Node prompts of ${sop}, for the nodes that have one.`,
      type: '{ readonly [K in NodeId]?: NodePrompt<ToolName> }',
      value: block(
        Object.fromEntries(
          outline.nodeIds.flatMap((id) => {
            const prompt = prompts.get(id);
            if (!prompt) return [];
            const entry = {
              prompt: prompt.prompt,
              tools: outline.toolsByNode.get(id) ?? [],
              examples: prompt.examples.map((e) => ({ user: e.user, agent: e.agent })),
            };
            return [[id, block(entry)]];
          }),
        ),
      ),
    }),
    constStatement({
      name: 'TOOLS_BY_NODE',
      doc: `The domain tools each node of ${sop} allows (empty when its prompt names none).`,
      type: '{ readonly [K in NodeId]: readonly ToolName[] }',
      value: block(byNode((id) => outline.toolsByNode.get(id) ?? [])),
    }),
    constStatement({
      name: 'SYSTEM_PROMPT',
      doc: `The system prompt of ${sop}: every section before \`## Node Prompts\`, as written.`,
      type: 'string',
      value: model.systemPrompt,
    }),
    constStatement({
      name: 'SYSTEM_PROMPT_SECTIONS',
      doc: 'Headings of the sections in `SYSTEM_PROMPT`, in order.',
      type: 'readonly string[]',
      value: model.systemPromptSections.map((s) => s.heading),
    }),
    constStatement({
      name: 'FLOWCHART',
      doc: `The Mermaid source of ${sop}, as written (comments included).`,
      type: 'string',
      value: model.flowchart,
    }),
    constStatement({
      name: 'AGENT_META',
      doc: `Frontmatter metadata of ${sop}.`,
      type: 'AgentMeta',
      value: block({
        agent,
        version: model.version,
        description: model.description,
        model: fromData(model.model, 'model'),
        mcpServers: fromData(model.mcpServers, 'mcp_servers'),
      }),
    }),
    constStatement({
      name: 'SOURCE_FILE',
      doc: 'The SOP this module was compiled from, relative to the project.',
      type: 'string',
      value: model.file,
    }),
    constStatement({
      name: 'SOURCE_HASH',
      doc: 'sha256 of the source bytes; the server compares it to refuse a stale build.',
      type: 'string',
      value: model.sourceHash,
    }),
    constStatement({
      name: 'SOP',
      doc: `${capitalize(sop)}, compiled: what the runtime serves and the registry loads.`,
      type: 'CompiledSop<NodeId, ToolName>',
      value: block({
        meta: code('AGENT_META'),
        sourceFile: code('SOURCE_FILE'),
        sourceHash: code('SOURCE_HASH'),
        entryNode: model.entryNode,
        hubs: outline.hubs,
        nodeIds: code('NODE_IDS'),
        nodes: code('NODES'),
        edges: code('EDGES'),
        prompts: code('PROMPTS'),
        decisionNodes: code('DECISION_NODE_IDS'),
        terminalNodes: code('TERMINAL_NODE_IDS'),
        tools: code('TOOL_NAMES'),
        toolsByNode: code('TOOLS_BY_NODE'),
        systemPrompt: code('SYSTEM_PROMPT'),
        systemPromptSections: code('SYSTEM_PROMPT_SECTIONS'),
        flowchart: code('FLOWCHART'),
      }),
    }),
  ];
  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(model.file, model.sourceHash)}\n\n`,
    statements,
  };
  return { path: outline.graphPath, structure };
}

/** `export const NAME = [...] as const;` and `export type Name = (typeof NAME)[number];` */
function idList(
  constName: string,
  typeName: string,
  ids: readonly string[],
  constDoc: string,
  typeDoc: string,
): StatementStructures[] {
  return [
    constStatement({ name: constName, doc: constDoc, value: ids, suffix: ' as const' }),
    typeAlias(typeName, typeDoc, `(typeof ${constName})[number]`),
  ];
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
