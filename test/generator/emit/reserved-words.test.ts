/**
 * Node ids and agent names that are words TypeScript reserves or members every object carries (issue 21): each is
 * either accepted, and then the generated modules type-check in an app, or refused at build time where it is written.
 *
 * The words come from TypeScript itself (every keyword of its scanner, `delete`, `default` and `enum` among them) and
 * from the engine (`Object.getOwnPropertyNames` of `Object.prototype` and `Function.prototype`, plus `__proto__` and
 * `prototype`), so the lists cannot go stale. Each is compiled alone as a node id and as an agent name, to tell the
 * names the format refuses (a Mermaid keyword, `__proto__`, an agent with a capital) from the ones it accepts. Every
 * accepted agent name builds, and every module generated for it parses as TypeScript.
 *
 * What `tsc` checks is the golden case `test/fixtures/golden/reserved-words`: one SOP whose nodes are all the accepted
 * words, and SOPs for a sample of agent names; `npm run typecheck` checks its generated modules and the app code of
 * `test/types/reserved-words.types.test.ts`, which uses them. The case must hold every accepted word: this test says
 * so when TypeScript gains a keyword (`UPDATE_GOLDENS=1` rewrites the SOPs here; then regenerate the golden output).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { planBuild } from '../../../generator/project/plan-build.js';
import { compileSop } from '../../../generator/compile-sop.js';
import type { Diagnostic } from '../../../generator/diagnostics/diagnostic.js';
import { OBJECT_MEMBERS } from '../../../generator/model/naming.js';
import { compareMachineWithTable } from '../../support/machine-vs-table.js';
import { chainSop, reservedWords } from '../../support/name-probes.js';

const WORDS = reservedWords();
const GOLDEN = fileURLToPath(new URL('../../fixtures/golden/reserved-words/', import.meta.url));
/** The agent names of the golden case: reserved in JavaScript, in TypeScript, or carried by every object. */
const GOLDEN_AGENTS = ['await', 'class', 'constructor', 'default', 'delete', 'enum', 'new', 'prototype'];

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
const agentNames = sortWords(
  WORDS.filter((word) => word === word.toLowerCase()),
  (word) => chainSop(word, ['ASK']),
);

describe('the members TypeScript gives every object', () => {
  it('are the names the generated optional tables give an entry of their own', () => {
    // Every `interface Object` of TypeScript's standard library (lib.es5.d.ts declares it; later libs may add to it).
    const libDir = dirname(ts.getDefaultLibFilePath({}));
    const members = readdirSync(libDir)
      .filter((name) => /^lib\..*\.d\.ts$/.test(name))
      .map((name) => [name, readFileSync(join(libDir, name), 'utf8')] as const)
      .filter(([, text]) => /\binterface Object\b/.test(text))
      .flatMap(([name, text]) => ts.createSourceFile(name, text, ts.ScriptTarget.Latest).statements)
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

  it('are all nodes of the golden case, whose machine follows the server', async () => {
    const words = join(GOLDEN, 'sops/words.md');
    const expected = chainSop('words', nodeIds.accepted);
    if (process.env.UPDATE_GOLDENS === '1') writeFileSync(words, expected);
    expect(readFileSync(words, 'utf8'), 'run UPDATE_GOLDENS=1 on this test, then on test/generator/golden.test.ts').toBe(expected);
    const graph = (await import('../../fixtures/golden/reserved-words/generated/words/graph.js')) as { SOP: CompiledSop };
    const machines = (await import('../../fixtures/golden/reserved-words/generated/words/machine.js')) as Record<string, AnyStateMachine>;
    expect(graph.SOP.nodeIds).toEqual(['START', ...nodeIds.accepted, 'DONE']);
    expect(compareMachineWithTable(machines['wordsMachine']!, graph.SOP).problems).toEqual([]);
  });
});

describe('agent names that are reserved words or object members', () => {
  it('are accepted, or refused with an error where they are written', () => {
    for (const word of [...GOLDEN_AGENTS, 'function', 'this', 'yield', 'let', 'static', 'interface', 'package', 'keyof']) {
      expect(agentNames.accepted, word).toContain(word);
    }
    for (const { word, diagnostics } of agentNames.refused) {
      expect(diagnostics.filter(refusesAt(chainSop(word, ['ASK']), word)), word).not.toEqual([]);
    }
    for (const agent of GOLDEN_AGENTS) expect(readFileSync(join(GOLDEN, `sops/${agent}.md`), 'utf8'), agent).toBe(chainSop(agent, ['ASK']));
  });

  it('build together, and every module generated for them is valid TypeScript', async () => {
    const build = await planBuild(agentNames.accepted.map((agent) => ({ file: `sops/${agent}.md`, raw: chainSop(agent, ['ASK']) })));
    expect(build.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const modules = build.outputs.filter((file) => file.path.endsWith('.ts'));
    expect(modules.length).toBe(agentNames.accepted.length * 3 + 2);
    expect(syntaxProblems(modules)).toEqual([]);
    expect(syntaxProblems([{ path: 'broken.ts', content: 'export const = 1;' }])).not.toEqual([]);
  });
});

/** TypeScript's syntax errors in the files (parsed only: no libraries, no imports resolved). */
function syntaxProblems(files: readonly { readonly path: string; readonly content: string }[]): string[] {
  const byPath = new Map(files.map((file) => [file.path, file.content]));
  const options: ts.CompilerOptions = { noLib: true, noResolve: true, target: ts.ScriptTarget.ES2022 };
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (path, target) => {
    const content = byPath.get(path);
    return content === undefined ? undefined : ts.createSourceFile(path, content, target);
  };
  host.fileExists = (path) => byPath.has(path);
  const program = ts.createProgram({ rootNames: [...byPath.keys()], options, host });
  return program.getSyntacticDiagnostics().map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}
