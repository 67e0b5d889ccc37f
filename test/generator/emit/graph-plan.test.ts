// What an ids module and a graph module hold, read back by evaluating the emitted TypeScript.
import { afterAll, describe, expect, it } from 'vitest';
import { emitProject } from '../../../generator/emit/emit-project.js';
import { evaluateModule, removeEvaluatedModules } from './evaluate-module.js';
import { buildModel, retailFixture } from './model-fixture.js';
import type { FixtureInput } from './model-fixture.js';

afterAll(removeEvaluatedModules);

interface AgentTexts {
  readonly ids: string;
  readonly graph: string;
}

function agentTexts(input: FixtureInput): AgentTexts {
  const files = emitProject([input]);
  const text = (name: string): string => {
    const file = files.find((f) => f.path === `${input.model.agent}/${name}`);
    if (!file) throw new Error(`no ${name}`);
    return file.content;
  };
  return { ids: text('ids.ts'), graph: text('graph.ts') };
}

/** The graph module, evaluated with its ids module beside it. */
function evaluateGraph(texts: AgentTexts): Promise<Record<string, unknown>> {
  return evaluateModule(texts.graph, { 'ids.js': texts.ids });
}

const HEADER = '// @generated from sops/retail_customer_support.md by sop-toolkit. DO NOT EDIT. ' + 'Regenerate: npm run build:sops';

describe('ids module of the retail fixture', () => {
  const { ids } = agentTexts(retailFixture());

  it('opens with the header and imports nothing', () => {
    const [header, blank, first] = ids.split('\n');
    expect(header).toBe(HEADER);
    expect(blank).toBe('');
    expect(first).toBe('/** Node ids of the `retail_customer_support` SOP, in flowchart order. */');
    expect(ids).not.toMatch(/^import /m);
    expect(ids).not.toContain(" from '");
  });

  it('holds the id tuples `as const`, their unions, the successor types, and nothing else', () => {
    expect(ids.match(/as const/g)).toHaveLength(4);
    expect([...ids.matchAll(/^export (?:const|type|interface) (\w+)/gm)].map((m) => m[1])).toEqual([
      'NODE_IDS',
      'NodeId',
      'DECISION_NODE_IDS',
      'DecisionNodeId',
      'TERMINAL_NODE_IDS',
      'TerminalNodeId',
      'TOOL_NAMES',
      'ToolName',
      'Successors',
      'SuccessorOf',
    ]);
    expect(ids).toContain('export type NodeId = (typeof NODE_IDS)[number];');
    expect(ids).toContain('export type SuccessorOf<N extends NodeId> = Successors[N];');
  });

  it('types the successors of every node, never for terminals', () => {
    const successors = ids.slice(
      ids.indexOf('export interface Successors {'),
      ids.indexOf('}\n', ids.indexOf('export interface Successors')),
    );
    expect(successors.split('\n').slice(1)).toEqual([
      "  readonly START: 'AUTH';",
      "  readonly AUTH: 'ROUTE';",
      "  readonly ROUTE: 'CHK_CANCEL' | 'DONE';",
      "  readonly CHK_CANCEL: 'IS_PENDING_C';",
      "  readonly IS_PENDING_C: 'COLLECT_CANCEL' | 'DENY_CANCEL';",
      "  readonly COLLECT_CANCEL: 'ROUTE' | 'DONE';",
      '  readonly DENY_CANCEL: never;',
      '  readonly DONE: never;',
      '',
    ]);
  });

  it('puts a JSDoc line on every export', () => {
    const lines = ids.split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('export ')) expect(lines[i - 1], line).toMatch(/\*\/$/);
    });
  });

  it('holds the ids', async () => {
    const { model, facts } = retailFixture();
    const m = await evaluateModule(ids);
    expect(Object.keys(m).sort()).toEqual(['DECISION_NODE_IDS', 'NODE_IDS', 'TERMINAL_NODE_IDS', 'TOOL_NAMES']);
    expect(m['NODE_IDS']).toEqual(model.nodes.map((n) => n.id));
    expect(m['DECISION_NODE_IDS']).toEqual(facts.decisionNodes);
    expect(m['TERMINAL_NODE_IDS']).toEqual(['DENY_CANCEL', 'DONE']);
    expect(m['TOOL_NAMES']).toEqual(model.tools.map((t) => t.name));
  });
});

describe('graph module of the retail fixture', () => {
  const input = retailFixture();
  const texts = agentTexts(input);
  const text = texts.graph;

  it('opens with the header and imports types from the contract, by package name, and the ids from ids.js', () => {
    const [header, blank, ...rest] = text.split('\n');
    expect(header).toBe(HEADER);
    expect(blank).toBe('');
    expect(rest.slice(0, 3)).toEqual([
      "import type { AgentMeta, CompiledSop, EdgeTable, NodePrompt, SopNode, TransitionTable } from 'sop-toolkit/contract';",
      "import { DECISION_NODE_IDS, NODE_IDS, TERMINAL_NODE_IDS, TOOL_NAMES } from './ids.js';",
      "import type { NodeId, Successors, ToolName } from './ids.js';",
    ]);
    expect(text.match(/^import /gm)).toHaveLength(3);
    expect(text).not.toContain('xstate');
  });

  it('re-exports everything of ids.js, so graph.js keeps its whole API', () => {
    const reExport = text.slice(text.indexOf('export {\n'), text.indexOf("\n} from './ids.js';\n"));
    expect(reExport.split('\n').slice(1)).toEqual([
      '  DECISION_NODE_IDS,',
      '  type DecisionNodeId,',
      '  NODE_IDS,',
      '  type NodeId,',
      '  type SuccessorOf,',
      '  type Successors,',
      '  TERMINAL_NODE_IDS,',
      '  TOOL_NAMES,',
      '  type TerminalNodeId,',
      '  type ToolName,',
    ]);
  });

  it('annotates tables and writes no `as const` (the id tuples are in ids.ts)', () => {
    expect(text).not.toContain('as const');
    expect(text).not.toMatch(/^export (?:type|interface) /m);
    expect(text).toContain('export const NODES: { readonly [K in NodeId]: SopNode<K> } = {');
    expect(text).toContain('export const EDGES: EdgeTable<NodeId, Successors> = {');
    expect(text).toContain('export const PROMPTS: { readonly [K in NodeId]?: NodePrompt<ToolName> } = {');
    expect(text).toContain('export const TOOLS_BY_NODE: { readonly [K in NodeId]: readonly ToolName[] } = {');
    expect(text).toContain('export const SOP: CompiledSop<NodeId, ToolName> = {');
  });

  it('puts a JSDoc comment on every export', () => {
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('export ')) expect(lines[i - 1], line).toMatch(/\*\/$/);
    });
  });

  it('holds the model data', async () => {
    const { model, facts } = input;
    const m = await evaluateGraph(texts);
    expect(m['NODE_IDS']).toEqual(model.nodes.map((n) => n.id));
    expect(m['DECISION_NODE_IDS']).toEqual(facts.decisionNodes);
    expect(m['TERMINAL_NODE_IDS']).toEqual(['DENY_CANCEL', 'DONE']);
    expect(m['TOOL_NAMES']).toEqual(model.tools.map((t) => t.name));
    expect(m['NODES']).toEqual(Object.fromEntries(model.nodes.map((n) => [n.id, { id: n.id, type: n.type, description: n.description }])));
    const edges = m['EDGES'] as Record<string, unknown[]>;
    expect(Object.keys(edges)).toEqual(model.nodes.map((n) => n.id));
    expect(Object.entries(edges).flatMap(([from, list]) => list.map((e) => ({ from, ...(e as object) })))).toEqual(
      model.edges.map((e) => ({ from: e.from, to: e.to, condition: e.condition, style: e.style })),
    );
    expect(m['PROMPTS']).toEqual({
      AUTH: {
        prompt: model.prompts[0]?.prompt,
        tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
        examples: [{ user: 'My email is a@b.com', agent: 'Thanks, let me look you up.' }],
      },
      COLLECT_CANCEL: {
        prompt: 'Collect and confirm the order id and the reason.',
        tools: ['cancel_pending_order'],
        examples: [],
      },
    });
    const toolsByNode = m['TOOLS_BY_NODE'] as Record<string, string[]>;
    expect(Object.keys(toolsByNode)).toEqual(model.nodes.map((n) => n.id));
    expect(toolsByNode['ROUTE']).toEqual([]);
    expect(m['SYSTEM_PROMPT']).toBe(model.systemPrompt);
    expect(m['SYSTEM_PROMPT_SECTIONS']).toEqual(['Role', 'SOP Flowchart']);
    expect(m['FLOWCHART']).toBe(model.flowchart);
    expect(m['AGENT_META']).toEqual({
      agent: 'retail_customer_support',
      version: '1.0',
      description: 'Retail support agent',
      model: model.model,
      mcpServers: model.mcpServers,
    });
    expect(m['SOURCE_FILE']).toBe('sops/retail_customer_support.md');
    expect(m['SOURCE_HASH']).toBe(model.sourceHash);
  });

  it('assembles SOP from the tables, by reference', async () => {
    const m = await evaluateGraph(texts);
    const sop = m['SOP'] as Record<string, unknown>;
    expect(sop['nodeIds']).toBe(m['NODE_IDS']);
    expect(sop['tools']).toBe(m['TOOL_NAMES']);
    expect(sop['nodes']).toBe(m['NODES']);
    expect(sop['edges']).toBe(m['EDGES']);
    expect(sop['prompts']).toBe(m['PROMPTS']);
    expect(sop['toolsByNode']).toBe(m['TOOLS_BY_NODE']);
    expect(sop['meta']).toBe(m['AGENT_META']);
    expect(sop['transitions']).toBe(m['TRANSITIONS']);
    expect(sop['transitions']).toMatchObject({ entry: 'START', hubs: ['ROUTE'] });
    expect(Object.keys(sop)).toEqual([
      'meta',
      'sourceFile',
      'sourceHash',
      'transitions',
      'nodeIds',
      'nodes',
      'edges',
      'prompts',
      'decisionNodes',
      'terminalNodes',
      'tools',
      'toolsByNode',
      'systemPrompt',
      'systemPromptSections',
      'flowchart',
    ]);
  });
});

describe('graph module edge cases', () => {
  it('adds tools that only a node names to TOOL_NAMES, after the frontmatter ones, once', async () => {
    const m = await evaluateGraph(
      agentTexts(
        buildModel({
          agent: 'tools',
          tools: ['b', 'a'],
          edges: ['START --> X'],
          prompts: { START: { prompt: 'p', tools: ['z', 'a', 'z'] }, X: { prompt: 'q', tools: ['y', 'z'] } },
        }),
      ),
    );
    expect(m['TOOL_NAMES']).toEqual(['b', 'a', 'z', 'y']);
    expect(m['TOOLS_BY_NODE']).toEqual({ START: ['z', 'a'], X: ['y', 'z'] });
  });

  it('writes empty lists and a single node without decisions or edges', async () => {
    const texts = agentTexts(buildModel({ agent: 'lonely', nodes: [{ id: 'START' }], edges: [] }));
    expect(texts.ids).toContain('export const DECISION_NODE_IDS = [] as const;');
    expect(texts.ids).toContain('export const TOOL_NAMES = [] as const;');
    expect(texts.ids).toContain('  readonly START: never;');
    expect(texts.graph).toContain('export const PROMPTS: { readonly [K in NodeId]?: NodePrompt<ToolName> } = {};');
    const m = await evaluateGraph(texts);
    expect(m['EDGES']).toEqual({ START: [] });
    expect(m['TERMINAL_NODE_IDS']).toEqual(['START']);
  });

  it('refuses a model the check stage would have rejected, naming the file', () => {
    const input = buildModel({ agent: 'broken', entryNode: 'NOPE', edges: ['START --> END'] });
    expect(() => emitProject([input])).toThrow(/sops\/broken\.md: entry node "NOPE" is not a node/);
  });
});
