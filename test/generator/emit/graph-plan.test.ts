// What a graph module holds, read back by evaluating the emitted TypeScript.
import { afterAll, describe, expect, it } from 'vitest';
import { emitProject } from '../../../generator/emit/emit-project.js';
import { evaluateModule, removeEvaluatedModules } from './evaluate-module.js';
import { buildModel, retailFixture } from './model-fixture.js';
import type { FixtureInput } from './model-fixture.js';

afterAll(removeEvaluatedModules);

function graphText(input: FixtureInput): string {
  const file = emitProject([input]).find((f) => f.path === `${input.model.agent}/graph.ts`);
  if (!file) throw new Error('no graph module');
  return file.content;
}

describe('graph module of the retail fixture', () => {
  const input = retailFixture();
  const text = graphText(input);

  it('opens with the header and imports only types, from the runtime contract', () => {
    const [header, blank, importLine] = text.split('\n');
    expect(header).toBe(
      '// @generated from sops/retail_customer_support.md (sha256:0123456789ab) by sop-toolkit. DO NOT EDIT. ' +
        'Regenerate: npm run build:sops',
    );
    expect(blank).toBe('');
    expect(importLine).toBe(
      "import type { AgentMeta, CompiledSop, EdgeTable, NodePrompt, SopNode } from '../../runtime/compiled-sop.js';",
    );
    expect(text.match(/^import /gm)).toHaveLength(1);
    expect(text).not.toContain('xstate');
  });

  it('annotates tables and keeps `as const` to the id tuples', () => {
    expect(text.match(/as const/g)).toHaveLength(4);
    expect(text).toContain('export const NODES: { readonly [K in NodeId]: SopNode<K> } = {');
    expect(text).toContain('export const EDGES: EdgeTable<NodeId, Successors> = {');
    expect(text).toContain('export const PROMPTS: { readonly [K in NodeId]?: NodePrompt<ToolName> } = {');
    expect(text).toContain('export const TOOLS_BY_NODE: { readonly [K in NodeId]: readonly ToolName[] } = {');
    expect(text).toContain('export const SOP: CompiledSop<NodeId, ToolName> = {');
    expect(text).toContain('export type SuccessorOf<N extends NodeId> = Successors[N];');
  });

  it('types the successors of every node, never for terminals', () => {
    const successors = text.slice(text.indexOf('export interface Successors {'), text.indexOf('}\n', text.indexOf('export interface Successors')));
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
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('export ')) expect(lines[i - 1], line).toMatch(/\*\/$/);
    });
  });

  it('holds the model data', async () => {
    const { model, facts } = input;
    const m = await evaluateModule(text);
    expect(m['NODE_IDS']).toEqual(model.nodes.map((n) => n.id));
    expect(m['DECISION_NODE_IDS']).toEqual(facts.decisionNodes);
    expect(m['TERMINAL_NODE_IDS']).toEqual(['DENY_CANCEL', 'DONE']);
    expect(m['TOOL_NAMES']).toEqual(model.tools.map((t) => t.name));
    expect(m['NODES']).toEqual(
      Object.fromEntries(model.nodes.map((n) => [n.id, { id: n.id, type: n.type, description: n.description }])),
    );
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
    const m = await evaluateModule(text);
    const sop = m['SOP'] as Record<string, unknown>;
    expect(sop['nodes']).toBe(m['NODES']);
    expect(sop['edges']).toBe(m['EDGES']);
    expect(sop['prompts']).toBe(m['PROMPTS']);
    expect(sop['toolsByNode']).toBe(m['TOOLS_BY_NODE']);
    expect(sop['meta']).toBe(m['AGENT_META']);
    expect(sop['entryNode']).toBe('START');
    expect(sop['hubs']).toEqual(['ROUTE']);
    expect(Object.keys(sop)).toEqual([
      'meta', 'sourceFile', 'sourceHash', 'entryNode', 'hubs', 'nodeIds', 'nodes', 'edges', 'prompts',
      'decisionNodes', 'terminalNodes', 'tools', 'toolsByNode', 'systemPrompt', 'systemPromptSections', 'flowchart',
    ]);
  });
});

describe('graph module edge cases', () => {
  it('adds tools that only a node names to TOOL_NAMES, after the frontmatter ones, once', async () => {
    const m = await evaluateModule(
      graphText(
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
    const text = graphText(buildModel({ agent: 'lonely', nodes: [{ id: 'START' }], edges: [] }));
    expect(text).toContain('export const DECISION_NODE_IDS = [] as const;');
    expect(text).toContain('export const TOOL_NAMES = [] as const;');
    expect(text).toContain('  readonly START: never;');
    expect(text).toContain('export const PROMPTS: { readonly [K in NodeId]?: NodePrompt<ToolName> } = {};');
    const m = await evaluateModule(text);
    expect(m['EDGES']).toEqual({ START: [] });
    expect(m['TERMINAL_NODE_IDS']).toEqual(['START']);
  });

  it('refuses a model the check stage would have rejected, naming the file', () => {
    const input = buildModel({ agent: 'broken', entryNode: 'NOPE', edges: ['START --> END'] });
    expect(() => emitProject([input])).toThrow(/sops\/broken\.md: entry node "NOPE" is not a node/);
  });
});
