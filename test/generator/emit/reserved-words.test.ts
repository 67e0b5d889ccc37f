/**
 * Node ids and agent names that are words TypeScript reserves or members every object carries (issue 21): the
 * generated modules still type-check in an app, with `tsc` over them and over app code that uses those names (typed
 * tables, successor types, machine events, the registry), or the name is refused at build time where it is written.
 *
 * The words come from TypeScript itself (every keyword of its scanner, `delete`, `default` and `enum` among them) and
 * from the engine (`Object.getOwnPropertyNames` of `Object.prototype` and `Function.prototype`, plus `__proto__` and
 * `prototype`), so the lists cannot go stale. Each name is first compiled alone, to tell the names the format refuses
 * (a Mermaid keyword, `__proto__`) from the ones it accepts. Then all accepted node ids go into one SOP and every
 * accepted agent name into a SOP of its own; every generated module of them parses as TypeScript, and `tsc` checks the
 * node-id SOP and a sample of the agents (each agent costs tsc ~0.2 s of XState types) with app code using them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { buildProject, type ProjectBuild } from '../../../generator/build-project.js';
import { compileSop } from '../../../generator/compile-sop.js';
import type { Diagnostic } from '../../../generator/diagnostics/diagnostic.js';
import { camelCaseAgent, OBJECT_MEMBERS, pascalCaseAgent } from '../../../generator/model/naming.js';
import { prototypeNames } from '../../support/name-probes.js';
import { compareMachineWithTable } from '../../support/machine-vs-table.js';
import { type EmittedProject, writeEmittedProject } from './emitted-project.js';

function keywords(): string[] {
  const words: string[] = [];
  for (let kind = ts.SyntaxKind.FirstKeyword; kind <= ts.SyntaxKind.LastKeyword; kind++) {
    const word = ts.tokenToString(kind);
    if (word !== undefined) words.push(word);
  }
  return words;
}

const WORDS = [...new Set([...keywords(), ...prototypeNames()])];

/** A SOP whose flowchart is START, then `ids` in a chain, then DONE; the first id has a prompt and a visit limit. */
function chainSop(agent: string, ids: readonly string[]): string {
  const chain = ['START([Start])', ...ids.map((id) => `${id}["${id}"]`), 'DONE([Done])'];
  return [
    '---',
    `agent: ${agent}`,
    'version: "1"',
    'tools: [lookup]',
    '---',
    '',
    '## Role',
    'Reserved words.',
    '',
    '## SOP Flowchart',
    '```mermaid',
    'flowchart TD',
    ...chain.slice(1).map((to, i) => `    ${chain[i]} --> ${to}`),
    '```',
    '',
    '## Node Prompts',
    '',
    `### ${ids[0] ?? 'DONE'}`,
    '```yaml',
    'tools: [lookup]',
    'max_visits: 3',
    'escalate_to: DONE',
    '```',
    'Look it up.',
    '',
  ].join('\n');
}

/** Whether the diagnostic is an error on the line that holds `word` as written. */
const refusesAt = (source: string, word: string) => (d: Diagnostic) =>
  d.severity === 'error' && new RegExp(`(^|[^\\w$])${word.replace(/\$/g, '\\$')}([^\\w$]|$)`).test(source.split('\n')[d.line - 1] ?? '');

interface Sorted {
  readonly accepted: string[];
  readonly refused: { word: string; diagnostics: readonly Diagnostic[] }[];
}

/** Compiles `sopOf(word)` for each word alone: accepted (no errors) or refused. */
function sortWords(words: readonly string[], sopOf: (word: string) => string): Sorted {
  const sorted: Sorted = { accepted: [], refused: [] };
  for (const word of words) {
    const { diagnostics } = compileSop('sops/word.md', sopOf(word));
    if (diagnostics.some((d) => d.severity === 'error')) sorted.refused.push({ word, diagnostics });
    else sorted.accepted.push(word);
  }
  return sorted;
}

const nodeIds = sortWords(WORDS, (word) => chainSop('words', [word]));
const AGENT_NAME = /^[a-z][a-z0-9_]*$/;
const agentNames = sortWords(
  WORDS.filter((word) => word === word.toLowerCase()),
  (word) => chainSop(word, ['ASK']),
);

/** The agents `tsc` checks: words that are reserved in JavaScript, TypeScript or every object. */
const TYPECHECKED_AGENTS = [
  'delete',
  'default',
  'enum',
  'class',
  'function',
  'new',
  'this',
  'await',
  'yield',
  'let',
  'static',
  'interface',
  'package',
  'type',
  'keyof',
  'namespace',
  'constructor',
  'prototype',
  'arguments',
  'call',
];

const agentSources = (agents: readonly string[]) => agents.map((agent) => ({ file: `sops/${agent}.md`, raw: chainSop(agent, ['ASK']) }));

let build: ProjectBuild;
let everyAgent: ProjectBuild;
let project: EmittedProject;

beforeAll(async () => {
  build = await buildProject([{ file: 'sops/words.md', raw: chainSop('words', nodeIds.accepted) }, ...agentSources(TYPECHECKED_AGENTS)]);
  everyAgent = await buildProject(agentSources(agentNames.accepted));
  project = writeEmittedProject(build.outputs);
}, 60_000);
afterAll(() => project?.remove());

describe('the members TypeScript gives every object', () => {
  it('are the names the generated optional tables give an entry of their own', () => {
    // Every `interface Object` of TypeScript's standard library (lib.es5.d.ts declares it; later libs may add to it).
    const libDir = dirname(ts.getDefaultLibFilePath({}));
    const members = readdirSync(libDir)
      .filter((name) => /^lib\..*\.d\.ts$/.test(name))
      .flatMap((name) => ts.createSourceFile(name, readFileSync(join(libDir, name), 'utf8'), ts.ScriptTarget.Latest).statements)
      .filter((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'Object')
      .flatMap((declaration) =>
        declaration.members.flatMap((member) => (member.name && ts.isIdentifier(member.name) ? [member.name.text] : [])),
      );
    expect([...OBJECT_MEMBERS].sort()).toEqual([...new Set(members)].sort());
  });
});

describe('node ids that are reserved words or object members', () => {
  it('are accepted, or refused with an error where they are written', () => {
    for (const word of ['delete', 'default', 'enum', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'new', 'this']) {
      expect(nodeIds.accepted, word).toContain(word);
    }
    for (const { word, diagnostics } of nodeIds.refused) {
      expect(diagnostics.filter(refusesAt(chainSop('words', [word]), word)), word).not.toEqual([]);
      expect(
        diagnostics.map((d) => d.code),
        word,
      ).not.toContain('SOP090');
    }
    expect(nodeIds.refused.map((r) => r.word)).toContain('__proto__');
  });

  it('build together into one agent whose machine follows the server', async () => {
    expect(build.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const graph = await project.importGenerated<{ SOP: CompiledSop }>('words/graph.ts');
    expect(graph.SOP.nodeIds).toEqual(['START', ...nodeIds.accepted, 'DONE']);
    const machines = await project.importGenerated<Record<string, AnyStateMachine>>('words/machine.ts');
    expect(compareMachineWithTable(machines['wordsMachine']!, graph.SOP).problems).toEqual([]);
  });
});

describe('agent names that are reserved words or object members', () => {
  it('are accepted, or refused with an error where they are written', () => {
    for (const word of ['delete', 'default', 'enum', 'constructor', 'prototype', 'class', 'function', 'new']) {
      expect(agentNames.accepted, word).toContain(word);
    }
    for (const { word, diagnostics } of agentNames.refused) {
      expect(AGENT_NAME.test(word) ? diagnostics.filter(refusesAt(chainSop(word, ['ASK']), word)) : [word], word).not.toEqual([]);
    }
    expect(TYPECHECKED_AGENTS.filter((agent) => !agentNames.accepted.includes(agent))).toEqual([]);
  });

  it('build together, and every module generated for them is valid TypeScript', () => {
    expect(everyAgent.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const modules = everyAgent.outputs.filter((file) => file.path.endsWith('.ts'));
    expect(modules.length).toBe(agentNames.accepted.length * 3 + 2);
    const problems = modules.flatMap((file) => {
      const { diagnostics = [] } = ts.transpileModule(file.content, { fileName: file.path, reportDiagnostics: true });
      return diagnostics.map((d) => `${file.path}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    });
    expect(problems).toEqual([]);
  });
});

describe('the generated TypeScript', () => {
  it('type-checks, and so does app code that uses every one of those names', () => {
    const words = nodeIds.accepted;
    const agents = TYPECHECKED_AGENTS;
    const app = [
      "import { createActor } from 'xstate';",
      "import { wordsMachine, type WordsNodeId } from './generated/index.js';",
      "import { NODES, TOOLS_BY_NODE, TRANSITIONS } from './generated/words/graph.js';",
      "import type { SuccessorOf } from './generated/words/ids.js';",
      "import { type AgentName, loadAgent } from './generated/registry.js';",
      `import { ${agents.map((a) => `${camelCaseAgent(a)}Machine`).join(', ')} } from './generated/index.js';`,
      `import type { ${agents.map((a) => `${pascalCaseAgent(a)}NodeId`).join(', ')} } from './generated/index.js';`,
      '',
      'const actor = createActor(wordsMachine).start();',
      ...['START', ...words, 'DONE'].flatMap((id, i, all) => {
        const literal = JSON.stringify(id);
        const next = all[i + 1];
        return [
          `export const id${i}: WordsNodeId = ${literal};`,
          `export const node${i}: ${literal} = NODES[${literal}].id;`,
          `export const tools${i}: readonly 'lookup'[] = TOOLS_BY_NODE[${literal}];`,
          ...(next === undefined ? [] : [`export const next${i}: SuccessorOf<${literal}> = ${JSON.stringify(next)};`]),
          `actor.send({ type: ${JSON.stringify(`GOTO.${id}`)} });`,
          `export const at${i}: boolean = actor.getSnapshot().matches(${literal});`,
        ];
      }),
      // Dot access too, where the word may be written so.
      ...words
        .filter((id) => /^[A-Za-z_$][\w$]*$/.test(id))
        .map((id, i) => `export const dot${i}: ${JSON.stringify(id)} = NODES.${id}.id;`),
      'export const entry: WordsNodeId = TRANSITIONS.entry;',
      '// @ts-expect-error not a node id',
      "export const wrong: WordsNodeId = 'NOT_A_NODE';",
      `export const machines = [${agents.map((a) => `${camelCaseAgent(a)}Machine`).join(', ')}];`,
      `export const agents: AgentName[] = [${agents.map((a) => JSON.stringify(a)).join(', ')}];`,
      ...agents.map((a, i) => `export const ask${i}: ${pascalCaseAgent(a)}NodeId = 'ASK';`),
      ...agents.map(
        (a, i) =>
          `export const loaded${i}: Promise<readonly ${pascalCaseAgent(a)}NodeId[]> = loadAgent(${JSON.stringify(a)}).then((m) => m.SOP.nodeIds);`,
      ),
      '',
    ].join('\n');
    project.write('app.ts', app);
    const { status, output } = project.typecheck();
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 120_000);
});
