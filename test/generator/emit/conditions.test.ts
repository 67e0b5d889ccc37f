/**
 * The edges decided by data (`when`) and evidence's `fresh` and `shows`, as compiled: the bundle's `conditions`
 * (nodes in flowchart order, targets in edge order whatever order the yaml gives them, absent when no node has any),
 * the generated graph module's `CONDITIONS` and `EVIDENCE` (the same values, typed with the SOP's tool union: a
 * consumer reading another tool does not compile), and deterministic bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSop } from '../../../generator/compile-sop.js';
import { compiledSopOf } from '../../../generator/emit/compiled-data.js';
import { emitProject } from '../../../generator/emit/emit-project.js';
import { outlineSop } from '../../../generator/emit/outline.js';
import { BASE_SOP } from '../../support/sop-text.js';
import { evaluateModule, removeEvaluatedModules } from './evaluate-module.js';
import { type EmittedProject, writeEmittedProject } from './emitted-project.js';

const SOP = `---
agent: orders
version: "1"
tools: [get_order, find_user]
---

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Start]) --> FIND["Find the user"]
    FIND --> READ["Read the order"]
    READ --> CHECK{Pending?}
    CHECK -->|no| DENY([Deny])
    CHECK -->|yes| toString["Collect"]
    CHECK -->|human| HUMAN([Human])
    toString --> DONE([Done])
\`\`\`

## Node Prompts

### FIND
\`\`\`yaml
tools: [find_user]
evidence: true
\`\`\`
Find them.

### READ
\`\`\`yaml
tools: [get_order]
evidence:
  about: order_id
  fresh: true
  shows:
    - status in [pending, "pending (item modified)"]
    - lines.0.sku
\`\`\`
Read it.

### CHECK
\`\`\`yaml
when:
  toString: get_order.status == pending
  DENY: get_order.status != pending
\`\`\`
`;

function compiled(text: string) {
  const { model, facts, diagnostics } = compileSop('sops/orders.md', text);
  expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  return { model: model!, facts: facts! };
}

afterAll(removeEvaluatedModules);

describe('conditions and evidence, compiled', () => {
  const input = compiled(SOP);
  const data = compiledSopOf(outlineSop(input.model, input.facts));

  it("puts the bundle's conditions in flowchart order, each node's targets in edge order; edges without `when` stay out", () => {
    expect(data.conditions).toEqual({
      CHECK: {
        DENY: { tool: 'get_order', field: ['status'], op: '!=', values: ['pending'], text: 'get_order.status != pending' },
        toString: { tool: 'get_order', field: ['status'], op: '==', values: ['pending'], text: 'get_order.status == pending' },
      },
    });
    expect(Object.keys(data.conditions!.CHECK!)).toEqual(['DENY', 'toString']);
    expect(JSON.stringify(data.conditions)).toBe(
      '{"CHECK":{"DENY":{"tool":"get_order","field":["status"],"op":"!=","values":["pending"],"text":"get_order.status != pending"},' +
        '"toString":{"tool":"get_order","field":["status"],"op":"==","values":["pending"],"text":"get_order.status == pending"}}}',
    );
  });

  it('adds `fresh` and `shows` to evidence only where they are written', () => {
    expect(data.evidence).toEqual({
      FIND: { tools: ['find_user'], about: null },
      READ: {
        tools: ['get_order'],
        about: 'order_id',
        fresh: true,
        shows: [
          {
            field: ['status'],
            op: 'in',
            values: ['pending', 'pending (item modified)'],
            text: 'status in [pending, "pending (item modified)"]',
          },
          { field: ['lines', '0', 'sku'], op: 'present', values: [], text: 'lines.0.sku' },
        ],
      },
    });
    expect(Object.keys(data.evidence!.READ!)).toEqual(['tools', 'about', 'fresh', 'shows']);
  });

  it('leaves `conditions` out when no node has any, and `fresh: false` out', () => {
    const plain = compiled(BASE_SOP.replace('tools: [lookup]\n```', 'tools: [lookup]\nevidence: { fresh: false }\n```'));
    const sop = compiledSopOf(outlineSop(plain.model, plain.facts));
    expect(sop).not.toHaveProperty('conditions');
    expect(sop.evidence).toEqual({ ASK: { tools: ['lookup'], about: null } });
    const files = emitProject([plain]);
    const graph = files.find((f) => f.path === 'demo/graph.ts')!.content;
    expect(graph).not.toContain('CONDITIONS');
    expect(graph).not.toContain('DataCondition');
  });

  it('is byte-identical across builds, and the graph module holds what the bundle holds', async () => {
    const files = emitProject([input]);
    expect(emitProject([compiled(SOP)])).toEqual(files);
    const text = (path: string) => files.find((f) => f.path === path)!.content;
    const graph = text('orders/graph.ts');
    expect(graph).toContain(
      'export const CONDITIONS: { readonly [K in NodeId]?: { readonly [T in Successors[K]]?: DataCondition<ToolName> } } = {',
    );
    const module = await evaluateModule(graph, { 'ids.js': text('orders/ids.ts') });
    expect(module.CONDITIONS).toEqual(data.conditions);
    expect(module.EVIDENCE).toEqual(data.evidence);
    expect((module.SOP as { conditions: unknown }).conditions).toEqual(data.conditions);
    const bundle = JSON.parse(text('sop-bundle.json')) as { agents: Record<string, { conditions: unknown }> };
    expect(bundle.agents.orders!.conditions).toEqual(data.conditions);
  });
});

describe('the generated types of conditions', () => {
  let project: EmittedProject;
  beforeAll(() => {
    project = writeEmittedProject(emitProject([compiled(SOP)]));
  });
  afterAll(() => project.remove());

  it("type a condition's tool as the SOP's tool union, and its node as a node id", () => {
    project.write(
      'consumer.ts',
      [
        "import type { DataCondition } from 'sop-toolkit/contract';",
        "import { CONDITIONS, SOP } from './generated/orders/graph.js';",
        "import type { ToolName } from './generated/orders/ids.js';",
        '',
        'const decided: DataCondition<ToolName> | undefined = CONDITIONS.CHECK?.DENY;',
        '// @ts-expect-error HUMAN is a successor of CHECK, DONE is not',
        'const notNext = CONDITIONS.CHECK?.DONE;',
        "const tool: 'get_order' | 'find_user' | undefined = decided?.tool;",
        "const wider: DataCondition<ToolName> | undefined = SOP.conditions?.['CHECK']?.['toString'];",
        '// @ts-expect-error a tool the SOP does not have',
        "const unknownTool: DataCondition<ToolName> = { tool: 'get_orders', field: ['status'], op: '==', values: ['x'], text: '' };",
        '// @ts-expect-error a node the SOP does not have',
        'const unknownNode = CONDITIONS.CHEKC;',
        'export const used = [decided, notNext, tool, wider, unknownTool, unknownNode];',
        '',
      ].join('\n'),
    );
    const { status, output } = project.typecheck();
    expect(output).toBe('');
    expect(status).toBe(0);
  });
});
