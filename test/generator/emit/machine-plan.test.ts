// The shape of a machine module: one setup(), inline config, flat states, GOTO events, the path in context.
import { describe, expect, it } from 'vitest';
import { emitProject } from '../../../generator/emit/emit-project.js';
import { buildModel, retailFixture } from './model-fixture.js';
import type { FixtureInput } from './model-fixture.js';

function machineText(input: FixtureInput): string {
  const file = emitProject([input]).find((f) => f.path === `${input.model.agent}/machine.ts`);
  if (!file) throw new Error('no machine module');
  return file.content;
}

describe('machine module of the retail fixture', () => {
  const text = machineText(retailFixture());

  it('imports xstate, the contract and its ids, and calls setup once, with the config inline', () => {
    expect(text.match(/^import .*$/gm)).toEqual([
      "import { assign, setup } from 'xstate';",
      "import { enterPath } from 'sop-toolkit/contract';",
      "import type { NodeId } from './ids.js';",
    ]);
    expect(text.match(/setup\(/g)).toHaveLength(1);
    expect(text).toContain(
      '  guards: {\n' +
        '    onPath: ({ context, event }) => context.path.includes(event.type.slice(5) as NodeId),\n' +
        '  },\n' +
        '  actions: {\n' +
        "    enter: assign({ path: ({ context, event }) => enterPath(context.path, event.type.slice(5) as NodeId, 'START') }),\n" +
        '  },\n' +
        '}).createMachine({\n' +
        "  id: 'retail_customer_support',\n" +
        "  initial: 'START',\n" +
        "  context: { path: ['START'] },\n",
    );
    expect(text.endsWith('  },\n});\n')).toBe(true);
    expect(text).not.toMatch(/as const|invoke|after:|type: 'final'/);
  });

  it('lets the entry node in from anywhere, and each hub while it is on the path', () => {
    expect(text).toContain(
      '  on: {\n' +
        "    'GOTO.START': { target: '.START', actions: 'enter' },\n" +
        "    'GOTO.ROUTE': { target: '.ROUTE', guard: 'onPath', actions: 'enter' },\n" +
        '  },\n',
    );
  });

  it('declares one event per node a move can enter, sorted, one per line when long', () => {
    expect(text).toContain(
      'export type RetailCustomerSupportEvent =\n' +
        "  | { type: 'GOTO.AUTH' }\n" +
        "  | { type: 'GOTO.CHK_CANCEL' }\n" +
        "  | { type: 'GOTO.COLLECT_CANCEL' }\n" +
        "  | { type: 'GOTO.DENY_CANCEL' }\n" +
        "  | { type: 'GOTO.DONE' }\n" +
        "  | { type: 'GOTO.IS_PENDING_C' }\n" +
        "  | { type: 'GOTO.ROUTE' }\n" +
        "  | { type: 'GOTO.START' };\n",
    );
  });

  it('writes flat states in flowchart order with label, shape, transitions; terminals tagged', () => {
    const keys = [...text.slice(text.indexOf('  states: {')).matchAll(/^ {4}(\w+): \{/gm)].map((m) => m[1]);
    expect(keys).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL', 'DENY_CANCEL', 'DONE']);
    expect(text).toContain(
      '    ROUTE: {\n' +
        "      description: 'Intent?',\n" +
        "      meta: { type: 'rhombus' },\n" +
        '      on: {\n' +
        "        'GOTO.CHK_CANCEL': { target: 'CHK_CANCEL', description: 'cancel', actions: 'enter' },\n" +
        "        'GOTO.DONE': { target: 'DONE', description: 'other | bye', actions: 'enter' },\n" +
        '      },\n' +
        '    },\n',
    );
    expect(text).toContain("          description: 'user changes mind',\n          meta: { style: 'dotted' },\n");
    expect(text).toContain(
      "    DONE: {\n      description: 'Done',\n      meta: { type: 'stadium' },\n      tags: ['terminal'],\n    },\n",
    );
  });
});

describe('machine module edge cases', () => {
  it('keeps a short event union on one line', () => {
    const text = machineText(buildModel({ agent: 'short', edges: ['START --> END'] }));
    expect(text).toContain("export type ShortEvent = { type: 'GOTO.END' } | { type: 'GOTO.START' };\n");
  });

  it('still lets a lone entry node be re-entered', () => {
    const text = machineText(buildModel({ agent: 'lonely', nodes: [{ id: 'START' }], edges: [] }));
    expect(text).toContain("export type LonelyEvent = { type: 'GOTO.START' };");
    expect(text).toContain("    START: {\n      description: 'START',\n      meta: { type: 'rectangle' },\n      tags: ['terminal'],\n");
  });

  it('quotes state keys that are not identifiers', () => {
    const text = machineText(buildModel({ agent: 'dashes', edges: ['START --> node-a', 'node-a --> 2nd'] }));
    expect(text).toContain("    'node-a': {\n");
    expect(text).toContain("on: { 'GOTO.2nd': { target: '2nd', actions: 'enter' } },");
  });
});
