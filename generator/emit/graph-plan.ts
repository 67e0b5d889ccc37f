/**
 * Plans `generated/<agent>/graph.ts`: the data the server needs (`SOP` and the tables it is made of), with no
 * XState import. The ids and their types live in `ids.ts` (see `ids-plan.ts`); this module imports what its
 * tables are typed with from there and re-exports all of it, so `graph.js` still offers everything. Tables
 * carry explicit type annotations instead of `as const`, so long strings stay out of the type graph and tsc
 * pays little per SOP.
 */
import type { OptionalKind, SourceFileStructure, StatementStructures } from 'ts-morph';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf, nameTable } from '../../contract/name-table.js';
import { constStatement, importTypes, importValues, jsDoc, reExport } from './declarations.js';
import { CONTRACT_MODULE, headerComment } from './header.js';
import { ID_TYPE_EXPORTS, ID_VALUE_EXPORTS } from './ids-plan.js';
import { OBJECT_MEMBERS } from '../model/naming.js';
import { modulePath } from './index-plan.js';
import { block, code, fromData } from './literal.js';
import type { LiteralObject, LiteralValue } from './literal.js';
import type { SopOutline } from './outline.js';
import type { PlannedFile } from './printer.js';

/** `data` is `compiledSopOf(outline)`: the module prints the same values the bundle holds. */
export function planGraphModule(outline: SopOutline, data: CompiledSop): PlannedFile {
  const { agent } = outline;
  const sop = `the \`${agent}\` SOP`;
  const byNode = (value: (id: string) => LiteralValue): LiteralObject => nameTable(outline.nodeIds.map((id) => [id, value(id)]));
  // A table with optional entries: the nodes that have one, and an explicit `undefined` for a node named like a member
  // every object has (`toString`), which TypeScript would otherwise read in its place (see `OBJECT_MEMBERS`).
  const optionalByNode = (value: (id: string) => LiteralValue | undefined): LiteralObject =>
    nameTable(
      outline.nodeIds.flatMap((id) => {
        const entry = value(id) ?? (OBJECT_MEMBERS.has(id) ? code('undefined') : undefined);
        return entry === undefined ? [] : [[id, entry] as const];
      }),
    );
  const ids = `./${modulePath(outline.idsPath.slice(outline.idsPath.lastIndexOf('/') + 1))}`; // './ids.js'
  const idExports = [...ID_VALUE_EXPORTS.map((name) => ({ name })), ...ID_TYPE_EXPORTS.map((name) => ({ name, typeOnly: true }))];

  const statements: StatementStructures[] = [
    importTypes(CONTRACT_MODULE, [
      'AgentMeta',
      ...(data.policies === undefined ? [] : ['CompiledPolicy']),
      'CompiledSop',
      ...(data.conditions === undefined ? [] : ['DataCondition']),
      'EdgeTable',
      ...(data.evidence === undefined ? [] : ['EvidenceRequirement']),
      'NodePrompt',
      'SopNode',
      ...(data.subflows === undefined ? [] : ['SubflowCall']),
      'TransitionTable',
    ]),
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
      value: block(byNode((id) => ({ ...entryOf(data.nodes, id)! }))),
    }),
    constStatement({
      name: 'EDGES',
      doc: `Outgoing edges of every node of ${sop}, in source order.`,
      type: 'EdgeTable<NodeId, Successors>',
      value: block(byNode((id) => (entryOf(data.edges, id) ?? []).map((e) => ({ ...e })))),
    }),
    constStatement({
      name: 'PROMPTS',
      doc: `Node prompts of ${sop}, for the nodes that have one.`,
      type: '{ readonly [K in NodeId]?: NodePrompt<ToolName> }',
      value: block(
        optionalByNode((id) => {
          const prompt = entryOf(data.prompts, id);
          return prompt && block({ prompt: prompt.prompt, tools: prompt.tools, examples: prompt.examples.map((e) => ({ ...e })) });
        }),
      ),
    }),
    constStatement({
      name: 'TOOLS_BY_NODE',
      doc: `The domain tools each node of ${sop} allows (empty when its prompt names none).`,
      type: '{ readonly [K in NodeId]: readonly ToolName[] }',
      value: block(byNode((id) => entryOf(data.toolsByNode, id) ?? [])),
    }),
    constStatement({
      name: 'TRANSITIONS',
      doc:
        `The moves ${sop} allows: the entry node (always), a hub on the path, a successor of the current node` +
        `${data.transitions.limits === undefined ? '' : ', within the visit limits (then the escalation node)'}` +
        `${data.transitions.forks === undefined ? '' : "; a fork's branches in any order, its join once they are done"}. ` +
        'The server and the machine in `./machine.js` both follow this table.',
      type: 'TransitionTable<NodeId>',
      value: block({
        entry: data.transitions.entry,
        hubs: data.transitions.hubs,
        successors: block(byNode((id) => entryOf(data.transitions.successors, id) ?? [])),
        ...(data.transitions.limits === undefined
          ? {}
          : {
              limits: block(
                optionalByNode((id) => {
                  const limit = entryOf(data.transitions.limits, id);
                  return limit && { ...limit };
                }),
              ),
            }),
        ...(data.transitions.forks === undefined
          ? {}
          : {
              forks: block(
                optionalByNode((id) => {
                  const rule = entryOf(data.transitions.forks, id);
                  return (
                    rule &&
                    block({ branches: rule.branches, join: rule.join, strategy: rule.strategy, passed: rule.passed, failed: rule.failed })
                  );
                }),
              ),
            }),
      }),
    }),
    ...(data.subflows === undefined
      ? []
      : [
          constStatement({
            name: 'SUBFLOWS',
            doc: `The sub-flow nodes of ${sop}: the agent whose SOP each calls, and the exits declared (a terminal of that SOP → the successor the run goes on to).`,
            type: '{ readonly [K in NodeId]?: SubflowCall<NodeId> }',
            value: block(
              optionalByNode((id) => {
                const call = entryOf(data.subflows, id);
                return call && block({ agent: call.agent, exits: block(nameTable(Object.entries(call.exits))) });
              }),
            ),
          }),
        ]),
    ...(data.renames === undefined
      ? []
      : [
          constStatement({
            name: 'RENAMES',
            doc: `Node ids ${sop} renamed: an earlier version's id → the node it is now (\`sop diff\`, \`sop runs migrate\`).`,
            type: '{ readonly [old: string]: NodeId }',
            value: block(nameTable(Object.entries(data.renames))),
          }),
        ]),
    ...(data.policies === undefined
      ? []
      : [
          constStatement({
            name: 'POLICIES',
            doc: `The policies of ${sop}, resolved to node ids: \`sop build\` proved each over every path; \`sop replay\` checks conversations against them.`,
            type: 'readonly CompiledPolicy<NodeId, ToolName>[]',
            value: data.policies.map(({ scope, ...policy }) =>
              block({
                ...policy,
                ...(scope === undefined
                  ? {}
                  : { scope: block({ everyPathTo: block({ ...scope.everyPathTo }), passes: block({ ...scope.passes }) }) }),
              }),
            ),
          }),
        ]),
    ...(data.evidence === undefined
      ? []
      : [
          constStatement({
            name: 'EVIDENCE',
            doc: `What nodes of ${sop} require before a run goes on from them in gateway mode: a call of one of \`tools\` that found something (made earlier in the run, or during the visit with \`fresh\`), about the entity \`about\` names when it names one, and whose answer shows what \`shows\` says.`,
            type: '{ readonly [K in NodeId]?: EvidenceRequirement<ToolName> }',
            value: block(
              optionalByNode((id) => {
                const r = entryOf(data.evidence, id);
                return (
                  r &&
                  block({
                    tools: r.tools,
                    about: r.about,
                    ...(r.fresh === undefined ? {} : { fresh: r.fresh }),
                    ...(r.shows === undefined ? {} : { shows: block(r.shows.map((c) => ({ ...c }))) }),
                  })
                );
              }),
            ),
          }),
        ]),
    ...(data.conditions === undefined
      ? []
      : [
          constStatement({
            name: 'CONDITIONS',
            doc: `The edges of ${sop} decided by data (\`when\`): per node, per successor, the condition over an answer read earlier in the run that the move along that edge needs (gateway mode). An edge without one is the agent's judgement.`,
            type: '{ readonly [K in NodeId]?: { readonly [T in Successors[K]]?: DataCondition<ToolName> } }',
            value: block(
              optionalByNode((id) => {
                const targets = entryOf(data.conditions, id);
                return targets && block(nameTable(Object.entries(targets).map(([target, c]) => [target, { ...c }])));
              }),
            ),
          }),
        ]),
    constStatement({
      name: 'SYSTEM_PROMPT',
      doc: `The system prompt of ${sop}: every section before \`## Node Prompts\`, as written.`,
      type: 'string',
      value: data.systemPrompt,
    }),
    constStatement({
      name: 'SYSTEM_PROMPT_SECTIONS',
      doc: 'Headings of the sections in `SYSTEM_PROMPT`, in order.',
      type: 'readonly string[]',
      value: data.systemPromptSections,
    }),
    constStatement({
      name: 'FLOWCHART',
      doc: `The Mermaid source of ${sop}, as written (comments included).`,
      type: 'string',
      value: data.flowchart,
    }),
    constStatement({
      name: 'AGENT_META',
      doc: `Frontmatter metadata of ${sop}.`,
      type: 'AgentMeta',
      value: block({
        agent,
        version: data.meta.version,
        description: data.meta.description,
        model: fromData(data.meta.model, 'model'),
        mcpServers: fromData(data.meta.mcpServers, 'mcp_servers'),
      }),
    }),
    constStatement({
      name: 'SOURCE_FILE',
      doc: 'The SOP this module was compiled from, relative to the project.',
      type: 'string',
      value: data.sourceFile,
    }),
    constStatement({
      name: 'SOURCE_HASH',
      doc: 'sha256 of the source (line endings normalised): the SOP version a run pins.',
      type: 'string',
      value: data.sourceHash,
    }),
    constStatement({
      name: 'SOP',
      doc: `${capitalize(sop)}, compiled: the same data the server loads from \`sop-bundle.json\`.`,
      type: 'CompiledSop<NodeId, ToolName>',
      value: block({
        meta: code('AGENT_META'),
        sourceFile: code('SOURCE_FILE'),
        sourceHash: code('SOURCE_HASH'),
        transitions: code('TRANSITIONS'),
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
        ...(data.policies === undefined ? {} : { policies: code('POLICIES') }),
        ...(data.evidence === undefined ? {} : { evidence: code('EVIDENCE') }),
        ...(data.conditions === undefined ? {} : { conditions: code('CONDITIONS') }),
        ...(data.subflows === undefined ? {} : { subflows: code('SUBFLOWS') }),
        ...(data.renames === undefined ? {} : { renames: code('RENAMES') }),
      }),
    }),
  ];
  const structure: OptionalKind<SourceFileStructure> = {
    leadingTrivia: `${headerComment(data.sourceFile)}\n\n`,
    statements,
  };
  return { path: outline.graphPath, structure };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
