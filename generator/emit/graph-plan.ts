/**
 * Plans `generated/<agent>/graph.ts`: the data the server needs (`SOP` and the tables it is made of), with no
 * XState import. The ids and their types live in `ids.ts` (see `ids-plan.ts`); this module imports what its
 * tables are typed with from there and re-exports all of it, so `graph.js` still offers everything. Tables
 * carry explicit type annotations instead of `as const`, so long strings stay out of the type graph and tsc
 * pays little per SOP.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures } from 'ts-morph';
import { constStatement, importTypes, importValues, jsDoc, reExport } from './declarations.js';
import { headerComment } from './header.js';
import { ID_TYPE_EXPORTS, ID_VALUE_EXPORTS } from './ids-plan.js';
import { modulePath } from './index-plan.js';
import { block, code, fromData } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';
import type { RuntimeTypesImport } from './runtime-types-import.js';

export function planGraphModule(outline: SopOutline, runtimeTypes: RuntimeTypesImport): PlannedFile {
  const { model, agent } = outline;
  const sop = `the \`${agent}\` SOP`;
  const byNode = (value: (id: string) => LiteralValue): LiteralObject => Object.fromEntries(outline.nodeIds.map((id) => [id, value(id)]));
  const prompts = new Map(model.prompts.map((p) => [p.nodeId, p]));
  const ids = `./${modulePath(outline.idsPath.slice(outline.idsPath.lastIndexOf('/') + 1))}`; // './ids.js'
  const idExports = [...ID_VALUE_EXPORTS.map((name) => ({ name })), ...ID_TYPE_EXPORTS.map((name) => ({ name, typeOnly: true }))];

  const statements: StatementStructures[] = [
    importTypes(runtimeTypes.fromAgentFolder, ['AgentMeta', 'CompiledSop', 'EdgeTable', 'NodePrompt', 'SopNode']),
    importValues(ids, ID_VALUE_EXPORTS),
    importTypes(ids, ['NodeId', 'Successors', 'ToolName']),
    reExport(
      ids,
      idExports,
      jsDoc(
        `The ids and id types of ${sop}, re-exported from \`${ids}\`. App code that only types with them should ` +
          `import \`${ids}\` itself: type-checking that module does not load the tables below.`,
      ),
    ),
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

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
