// The whole emit: file set, determinism, index, registry and bundle.
import { describe, expect, it } from 'vitest';
import { emitAgentFiles, emitProject, emitProjectFiles } from '../../../generator/emit/emit-project.js';
import { INDEX_DOC } from '../../../generator/emit/index-plan.js';
import { buildModel, nastyFixture, retailFixture, syntheticFixture } from './model-fixture.js';

const inputs = [retailFixture(), syntheticFixture(12, 'alpha_agent'), nastyFixture()];

describe('emitProject', () => {
  const files = emitProject(inputs);

  it('emits an ids, a graph and a machine module per SOP, an index, a registry and the bundle, sorted by path', () => {
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
      'sop-bundle.json',
    ]);
  });

  // tsc checks every module a program reaches: what app code types with must not reach the data tables.
  it('keeps the data out of what app code types with: ids import nothing, machines only xstate, the contract and ids', () => {
    const importsOf = (path: string): string[] =>
      [
        ...(files.find((f) => f.path === path)?.content ?? '').matchAll(/^(?:import|export) .*?from '([^']+)';$|^\} from '([^']+)';$/gm),
      ].map((m) => m[1] ?? m[2] ?? '');
    for (const agent of ['alpha_agent', 'nasty_strings', 'retail_customer_support']) {
      expect(importsOf(`${agent}/ids.ts`), agent).toEqual([]);
      expect(importsOf(`${agent}/machine.ts`), agent).toEqual(['xstate', 'sop-toolkit/contract', './ids.js']);
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
    expect(emitProjectFiles(inputs).map((f) => f.path)).toEqual(['index.ts', 'registry.ts', 'sop-bundle.json']);
    const together = [...agentFiles.flat(), ...emitProjectFiles(inputs)].sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(together).toEqual(files);
  });

  it('writes LF, a final newline, no trailing blanks, no machine-specific paths', () => {
    for (const file of files) {
      expect(file.content).not.toContain('\r');
      expect(file.content).toMatch(/[;}]\n$/);
      expect(file.content).not.toMatch(/[ \t]$/m);
      expect(file.content).not.toContain(process.cwd());
      expect(file.content).not.toMatch(/from '\.\.\/\.\.\/|\/(home|root|tmp|Users|work)\//);
      if (file.path.endsWith('.ts')) {
        expect(file.content).toMatch(/^\/\/ @generated from \S.* by sop-toolkit\. DO NOT EDIT\. Regenerate: npm run build:sops\n\n/);
      }
    }
  });

  it('imports the shared types by package name, so the bytes do not depend on where the toolkit is', () => {
    const graph = files.find((f) => f.path === 'retail_customer_support/graph.ts')?.content ?? '';
    expect(graph).toContain(
      "import type { AgentMeta, CompiledSop, EdgeTable, NodePrompt, SopNode, TransitionTable } from 'sop-toolkit/contract';",
    );
  });

  it('keeps lines within 120 columns, except the header and strings too long to fit', () => {
    for (const file of emitProject([retailFixture(), syntheticFixture(40)])) {
      if (file.path.endsWith('.json')) continue;
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
    expect(index).toMatch(/^\/\/ @generated from sops\/\*\.md by sop-toolkit/);
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

  it('writes a registry of typed lazy loaders sorted by agent, importing nothing eagerly', () => {
    const registry = files.find((f) => f.path === 'registry.ts')?.content ?? '';
    expect(registry).toContain("export type AgentName = 'alpha_agent' | 'nasty_strings' | 'retail_customer_support';");
    expect([...registry.matchAll(/^ {2}(\w+): \(\) => import\('\.\/(\w+)\/graph\.js'\),$/gm)].map((m) => m[1])).toEqual([
      'alpha_agent',
      'nasty_strings',
      'retail_customer_support',
    ]);
    expect(registry.match(/^import .*$/gm)).toBeNull();
    expect(registry).toContain('export function loadAgent<A extends AgentName>(name: A): Promise<AgentModules[A]> {');
  });

  it('writes the bundle: every agent, sorted, with the data of its graph module', () => {
    const bundle = JSON.parse(files.find((f) => f.path === 'sop-bundle.json')?.content ?? '{}');
    expect(bundle.format).toBe('sop-bundle/1');
    expect(Object.keys(bundle.agents)).toEqual(['alpha_agent', 'nasty_strings', 'retail_customer_support']);
    const retail = bundle.agents.retail_customer_support;
    expect(retail.transitions.entry).toBe('START');
    expect(retail.transitions.hubs).toEqual(['ROUTE']);
    expect(retail.sourceFile).toBe('sops/retail_customer_support.md');
  });

  it('rewrites only the graph module and the bundle when a prompt or the source hash changes', () => {
    const [retail, alpha, nasty] = inputs;
    if (!retail || !alpha || !nasty) throw new Error('fixtures');
    const [prompt, ...rest] = retail.model.prompts;
    const edited = {
      ...retail,
      model: { ...retail.model, sourceHash: `sha256:${'f'.repeat(64)}`, prompts: [{ ...prompt!, prompt: 'Changed.' }, ...rest] },
    };
    const after = emitProject([edited, alpha, nasty]);
    const changed = after.filter((f, i) => f.content !== files[i]?.content).map((f) => f.path);
    expect(changed).toEqual(['retail_customer_support/graph.ts', 'sop-bundle.json']);
  });

  it('keeps a carried agent (its SOP failed this build) in the index, the registry and the bundle', () => {
    const [retail, alpha] = inputs;
    if (!retail || !alpha) throw new Error('fixtures');
    const previous = JSON.parse(emitProjectFiles([retail, alpha]).find((f) => f.path === 'sop-bundle.json')?.content ?? '{}');
    const carried = previous.agents.retail_customer_support;
    const partial = emitProjectFiles([alpha], [carried]);
    expect(partial).toEqual(emitProjectFiles([retail, alpha]));
  });

  it('emits an index, a registry and a bundle that are still valid when there are no SOPs', () => {
    const empty = emitProject([]);
    expect(empty.map((f) => f.path)).toEqual(['index.ts', 'registry.ts', 'sop-bundle.json']);
    expect(empty[0]?.content).toMatch(/ \*\/\n\nexport \{\};\n$/);
    expect(empty[1]?.content).toContain('export type AgentName = never;');
    expect(JSON.parse(empty[2]?.content ?? '')).toEqual({ format: 'sop-bundle/1', agents: {} });
  });

  it('refuses two agents whose exported names collide', () => {
    expect(() =>
      emitProject([buildModel({ agent: 'foo_1', edges: ['START --> B'] }), buildModel({ agent: 'foo1', edges: ['START --> B'] })]),
    ).toThrow(/agents `foo1` \(sops\/foo1\.md\) and `foo_1` \(sops\/foo_1\.md\) both export as `foo1`/);
  });
});
