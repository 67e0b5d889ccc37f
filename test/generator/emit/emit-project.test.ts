// The whole emit: file set, determinism, index and registry.
import { describe, expect, it } from 'vitest';
import { emitAgentFiles, emitProject, emitProjectFiles } from '../../../generator/emit/emit-project.js';
import { INDEX_DOC } from '../../../generator/emit/index-plan.js';
import { buildModel, nastyFixture, retailFixture, syntheticFixture } from './model-fixture.js';

const inputs = [retailFixture(), syntheticFixture(12, 'alpha_agent'), nastyFixture()];

describe('emitProject', () => {
  const files = emitProject(inputs);

  it('emits an ids, a graph and a machine module per SOP, an index and a registry, sorted by path', () => {
    expect(files.map((f) => f.path)).toEqual([
      'alpha_agent/graph.ts',
      'alpha_agent/ids.ts',
      'alpha_agent/machine.ts',
      'index.ts',
      'nasty_strings/graph.ts',
      'nasty_strings/ids.ts',
      'nasty_strings/machine.ts',
      'registry.ts',
      'retail_customer_support/graph.ts',
      'retail_customer_support/ids.ts',
      'retail_customer_support/machine.ts',
    ]);
  });

  // tsc checks every module a program reaches: what app code types with must not reach the data tables.
  it('keeps the data out of what app code types with: ids import nothing, machines only xstate, the index no graph', () => {
    const importsOf = (path: string): string[] =>
      [
        ...(files.find((f) => f.path === path)?.content ?? '').matchAll(/^(?:import|export) .*?from '([^']+)';$|^\} from '([^']+)';$/gm),
      ].map((m) => m[1] ?? m[2] ?? '');
    for (const agent of ['alpha_agent', 'nasty_strings', 'retail_customer_support']) {
      expect(importsOf(`${agent}/ids.ts`), agent).toEqual([]);
      expect(importsOf(`${agent}/machine.ts`), agent).toEqual(['xstate']);
    }
    expect(importsOf('index.ts').filter((m) => m.endsWith('/graph.js'))).toEqual([]);
  });

  it('is byte-identical across runs and input orders', () => {
    expect(emitProject(inputs)).toEqual(files);
    expect(emitProject([...inputs].reverse())).toEqual(files);
    expect(emitProject([inputs[1], inputs[2], inputs[0]].flatMap((i) => (i ? [i] : [])))).toEqual(files);
  });

  // A build prints each SOP's files as soon as it has compiled, and the index and registry at the end.
  it("is each SOP's own files plus the project files, however they are put together", () => {
    const agentFiles = inputs.map((input) => emitAgentFiles(input));
    expect(agentFiles.map((list) => list.map((f) => f.path))).toEqual([
      ['retail_customer_support/graph.ts', 'retail_customer_support/ids.ts', 'retail_customer_support/machine.ts'],
      ['alpha_agent/graph.ts', 'alpha_agent/ids.ts', 'alpha_agent/machine.ts'],
      ['nasty_strings/graph.ts', 'nasty_strings/ids.ts', 'nasty_strings/machine.ts'],
    ]);
    expect(emitProjectFiles(inputs).map((f) => f.path)).toEqual(['index.ts', 'registry.ts']);
    const together = [...agentFiles.flat(), ...emitProjectFiles(inputs)].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(together).toEqual(files);
  });

  it('writes LF, a final newline, no trailing blanks, no machine-specific paths', () => {
    for (const file of files) {
      expect(file.content).not.toContain('\r');
      expect(file.content).toMatch(/[;}]\n$/);
      expect(file.content).not.toMatch(/[ \t]$/m);
      expect(file.content).not.toContain(process.cwd());
      expect(file.content).toMatch(
        /^\/\/ @generated from \S.* \(sha256:[0-9a-f]{12}\) by sop-toolkit\. DO NOT EDIT\. Regenerate: npm run build:sops\n\n/,
      );
    }
  });

  it('keeps lines within 120 columns, except the header and strings too long to fit', () => {
    for (const file of emitProject([retailFixture(), syntheticFixture(40)])) {
      const long = file.content
        .split('\n')
        .slice(1)
        .filter((line) => line.length > 120);
      expect(long, file.path).toEqual([]);
    }
  });

  it('writes an index of explicit, sorted named exports: machines and id types, no data', () => {
    const index = files.find((f) => f.path === 'index.ts')?.content ?? '';
    expect(index).not.toContain('export *');
    expect(index).toMatch(/^\/\/ @generated from sops\/\*\.md \(sha256:[0-9a-f]{12}\)/);
    const modules = [...index.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(modules).toEqual([...modules].sort());
    expect(modules).toEqual([
      './alpha_agent/ids.js',
      './alpha_agent/machine.js',
      './nasty_strings/ids.js',
      './nasty_strings/machine.js',
      './retail_customer_support/ids.js',
      './retail_customer_support/machine.js',
    ]);
    expect(index).toContain(
      'export {\n' +
        '  type DecisionNodeId as RetailCustomerSupportDecisionNodeId,\n' +
        '  type NodeId as RetailCustomerSupportNodeId,\n' +
        '  type Successors as RetailCustomerSupportSuccessors,\n' +
        '  type TerminalNodeId as RetailCustomerSupportTerminalNodeId,\n' +
        '  type ToolName as RetailCustomerSupportToolName,\n' +
        "} from './retail_customer_support/ids.js';\n",
    );
    expect(index).not.toMatch(/\bSOP\b as/);
    // Its JSDoc, right after the header, says where the data is and when to import per agent instead.
    expect(index.split('\n').slice(2).join('\n').startsWith(`${INDEX_DOC}\n\n`)).toBe(true);
    expect(INDEX_DOC).toMatch(/^\/\*\*\n( \*( .*)?\n)+ \*\/$/);
    expect(INDEX_DOC).toContain('`<agent>/graph.ts`');
    expect(INDEX_DOC).toContain('`loadAgent()`');
    expect(INDEX_DOC).toContain('import `<agent>/machine.js` and `<agent>/ids.js` directly');
    expect(index).toContain(
      "export { type RetailCustomerSupportEvent, retailCustomerSupportMachine } from './retail_customer_support/machine.js';\n",
    );
  });

  it('writes a registry of lazy loaders sorted by agent', () => {
    const registry = files.find((f) => f.path === 'registry.ts')?.content ?? '';
    expect(registry).toContain("export type AgentName = 'alpha_agent' | 'nasty_strings' | 'retail_customer_support';");
    expect([...registry.matchAll(/^ {4}agent: '(\w+)',$/gm)].map((m) => m[1])).toEqual([
      'alpha_agent',
      'nasty_strings',
      'retail_customer_support',
    ]);
    expect(registry).toContain("    load: () => import('./retail_customer_support/graph.js').then((m) => m.SOP),\n");
    expect(registry).toContain("    sourceFile: 'sops/nasty strings.md',\n");
    // Nothing is imported eagerly: only types at the top.
    expect(registry.match(/^import .*$/gm)).toEqual(["import type { AgentIndexEntry } from '../runtime/compiled-sop.js';"]);
    expect(registry).toContain('export function loadAgent<A extends AgentName>(name: A): Promise<AgentModules[A]> {');
  });

  it('changes the index and registry hash when any source changes, and only their hash and that SOP', () => {
    const [retail, alpha, nasty] = inputs;
    if (!retail || !alpha || !nasty) throw new Error('fixtures');
    const edited = { ...retail, model: { ...retail.model, sourceHash: `sha256:${'f'.repeat(64)}` } };
    const after = emitProject([edited, alpha, nasty]);
    const changed = after.filter((f, i) => f.content !== files[i]?.content).map((f) => f.path);
    expect(changed).toEqual([
      'index.ts',
      'registry.ts',
      'retail_customer_support/graph.ts',
      'retail_customer_support/ids.ts',
      'retail_customer_support/machine.ts',
    ]);
  });

  it('emits an index and a registry that are still modules when there are no SOPs', () => {
    const empty = emitProject([]);
    expect(empty.map((f) => f.path)).toEqual(['index.ts', 'registry.ts']);
    expect(empty[0]?.content).toMatch(/ \*\/\n\nexport \{\};\n$/);
    expect(empty[1]?.content).toContain('export type AgentName = never;');
    expect(empty[1]?.content).toContain('export const AGENTS: readonly AgentIndexEntry[] = [];');
  });

  it('refuses two agents whose exported names collide', () => {
    expect(() =>
      emitProject([buildModel({ agent: 'foo_1', edges: ['START --> B'] }), buildModel({ agent: 'foo1', edges: ['START --> B'] })]),
    ).toThrow(/agents `foo1` \(sops\/foo1\.md\) and `foo_1` \(sops\/foo_1\.md\) both export as `foo1`/);
  });
});
