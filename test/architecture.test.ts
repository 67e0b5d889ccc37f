/**
 * The layout CONTRIBUTING.md describes, checked on the source (every static import and re-export of every module):
 * the compiler (`generator/`) and the runtime (`runtime/`) stand side by side on `contract/` and never import each
 * other; what reads both (analysis, authoring, the CLI, `sop-toolkit/testing`) sits above them; inside the runtime the
 * general helpers (`runtime/support/`) and the stores sit below their users; and no import circle runs through files
 * of different folders.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './runtime/helpers/fixture-process.js';

/** What each top-level folder may import besides itself. */
const MAY_IMPORT = new Map<string, readonly string[]>([
  ['contract', []],
  ['generator', ['contract']],
  ['runtime', ['contract']],
  ['analysis', ['contract', 'generator', 'runtime']],
  ['authoring', ['contract', 'generator', 'runtime']],
  ['testing', ['contract', 'generator', 'runtime']],
  ['cli', ['contract', 'generator', 'runtime', 'analysis', 'authoring']],
]);

/** Folders inside the runtime that sit below the rest of it: what each may import of the runtime besides itself. */
const RUNTIME_BELOW = new Map<string, readonly string[]>([
  ['runtime/support', []],
  ['runtime/store', ['runtime/support']],
]);

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/g;

interface SourceImport {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(): string[] {
  return [...MAY_IMPORT.keys()].flatMap((top) =>
    readdirSync(join(PROJECT_ROOT, top), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => relative(PROJECT_ROOT, join(entry.parentPath, entry.name))),
  );
}

/** The project's own files a file imports (relative specifiers, `.js` written for `.ts`). */
function importsOf(file: string): SourceImport[] {
  const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const target = relative(PROJECT_ROOT, resolve(dirname(join(PROJECT_ROOT, file)), specifier));
      const ts = target.replace(/\.js$/, '.ts');
      const tsx = target.replace(/\.js$/, '.tsx');
      return { from: file, to: existsSync(join(PROJECT_ROOT, ts)) || !existsSync(join(PROJECT_ROOT, tsx)) ? ts : tsx };
    });
}

const topOf = (file: string): string => file.split('/')[0]!;
const within = (file: string, folder: string): boolean => file.startsWith(`${folder}/`);
const shown = (found: readonly SourceImport[]): string[] => found.map(({ from, to }) => `${from} → ${to}`);

describe('the layout', () => {
  const files = sourceFiles();
  const imports = files.flatMap(importsOf);

  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(imports.length).toBeGreaterThan(1000);
  });

  it('the compiler and the runtime import only the contract and themselves; nothing imports what sits above it', () => {
    const crossing = imports.filter(({ from, to }) => {
      const [source, target] = [topOf(from), topOf(to)];
      return source !== target && !(MAY_IMPORT.get(source) ?? []).includes(target);
    });
    expect(shown(crossing)).toEqual([]);
  });

  it("the runtime's helpers and stores import nothing of the runtime above them", () => {
    const upward = imports.filter(({ from, to }) => {
      const below = [...RUNTIME_BELOW.keys()].find((folder) => within(from, folder));
      if (below === undefined || !within(to, 'runtime') || within(to, below)) return false;
      return !(RUNTIME_BELOW.get(below) ?? []).some((allowed) => within(to, allowed));
    });
    expect(shown(upward)).toEqual([]);
  });

  it('no import circle runs through files of different folders', () => {
    const graph = new Map<string, string[]>(files.map((file) => [file, []]));
    for (const { from, to } of imports) if (graph.has(to)) graph.get(from)!.push(to);
    const circles = stronglyConnected(graph).filter((group) => new Set(group.map((file) => dirname(file))).size > 1);
    expect(circles).toEqual([]);
  });

  it('no source folder is named like build output', () => {
    const named = files.filter((file) =>
      file
        .split('/')
        .slice(0, -1)
        .some((part) => part === 'build' || part === 'dist'),
    );
    expect(named).toEqual([]);
  });
});

/** Tarjan's strongly connected components of more than one file, iteratively (the tree is deep enough to matter). */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const edges = graph.get(frame.node)!;
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  return groups;
}
