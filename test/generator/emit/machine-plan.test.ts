// The shape of a machine module: one setup(), inline config, flat states, GOTO events.
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

  it('imports setup only and calls it once, with the config inline', () => {
    expect(text.match(/^import .*$/gm)).toEqual(["import { setup } from 'xstate';"]);
    expect(text.match(/setup\(/g)).toHaveLength(1);
    expect(text).toContain(
      'export const retailCustomerSupportMachine = setup({\n' +
        '  types: { events: {} as RetailCustomerSupportEvent },\n' +
        '}).createMachine({\n' +
        "  id: 'retail_customer_support',\n" +
        "  initial: 'START',\n" +
        '  states: {\n' +
        '    START: {\n',
    );
    expect(text.endsWith('  },\n});\n')).toBe(true);
    expect(text).not.toMatch(/as const|invoke|after:|actions|guard/);
  });

  it('declares one event per edge target, sorted, one per line when long', () => {
    expect(text).toContain(
      'export type RetailCustomerSupportEvent =\n' +
        "  | { type: 'GOTO.AUTH' }\n" +
        "  | { type: 'GOTO.CHK_CANCEL' }\n" +
        "  | { type: 'GOTO.COLLECT_CANCEL' }\n" +
        "  | { type: 'GOTO.DENY_CANCEL' }\n" +
        "  | { type: 'GOTO.DONE' }\n" +
        "  | { type: 'GOTO.IS_PENDING_C' }\n" +
        "  | { type: 'GOTO.ROUTE' };\n",
    );
  });

  it('writes flat states in flowchart order with label, shape, transitions; terminals final', () => {
    const keys = [...text.matchAll(/^ {4}(\w+): \{/gm)].map((m) => m[1]);
    expect(keys).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C', 'COLLECT_CANCEL', 'DENY_CANCEL', 'DONE']);
    expect(text).toContain(
      '    ROUTE: {\n' +
        "      description: 'Intent?',\n" +
        "      meta: { type: 'rhombus' },\n" +
        '      on: {\n' +
        "        'GOTO.CHK_CANCEL': { target: 'CHK_CANCEL', description: 'cancel' },\n" +
        "        'GOTO.DONE': { target: 'DONE', description: 'other | bye' },\n" +
        '      },\n' +
        '    },\n',
    );
    expect(text).toContain("        'GOTO.ROUTE': { target: 'ROUTE', description: 'user changes mind', meta: { style: 'dotted' } },\n");
    expect(text).toContain("    DONE: {\n      description: 'Done',\n      meta: { type: 'stadium' },\n      type: 'final',\n    },\n");
  });
});

describe('machine module edge cases', () => {
  it('keeps a short event union on one line', () => {
    const text = machineText(buildModel({ agent: 'short', edges: ['START --> END'] }));
    expect(text).toContain("export type ShortEvent = { type: 'GOTO.END' };\n");
  });

  it('types events as never when no edge exists', () => {
    const text = machineText(buildModel({ agent: 'lonely', nodes: [{ id: 'START' }], edges: [] }));
    expect(text).toContain('export type LonelyEvent = never;');
    expect(text).toContain("    START: {\n      description: 'START',\n      meta: { type: 'rectangle' },\n      type: 'final',\n");
  });

  it('quotes state keys that are not identifiers', () => {
    const text = machineText(buildModel({ agent: 'dashes', edges: ['START --> node-a', 'node-a --> 2nd'] }));
    expect(text).toContain("    'node-a': {\n");
    expect(text).toContain("on: { 'GOTO.2nd': { target: '2nd' } },");
  });
});
