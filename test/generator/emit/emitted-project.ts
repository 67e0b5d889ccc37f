/**
 * Writes emitted files into a throwaway project in the OS temp folder, laid out like this repository
 * (`generated/`, a copy of `contract/` that `sop-toolkit/contract` resolves to, `node_modules` linked to ours,
 * an ESM package, our compiler options), so tests can import the generated modules and run `tsc` on them and
 * on consumer code.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GeneratedFile } from '../../../generator/emit/emit-project.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface EmittedProject {
  readonly root: string;
  /** Imports `generated/<path>` (a `.ts` file) through vitest's transform. */
  importGenerated<T = Record<string, unknown>>(path: string): Promise<T>;
  /** Writes another file, relative to the project root. */
  write(path: string, content: string): void;
  /** Runs this repository's `tsc --noEmit` on the whole project; returns its exit code and output. */
  typecheck(): { status: number | null; output: string };
  remove(): void;
}

export function writeEmittedProject(files: readonly GeneratedFile[]): EmittedProject {
  const root = mkdtempSync(join(tmpdir(), 'sop-emit-'));
  const write = (path: string, content: string): void => {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  };
  for (const file of files) write(`generated/${file.path}`, file.content);
  cpSync(join(REPO, 'contract'), join(root, 'contract'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  write('package.json', JSON.stringify({ name: 'emit-fixture', private: true, type: 'module' }));
  const { compilerOptions } = JSON.parse(readFileSync(join(REPO, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  const paths = { 'sop-toolkit/contract': ['./contract/index.ts'] };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { ...compilerOptions, paths }, include: ['generated', 'contract', '*.ts'] }));

  return {
    root,
    importGenerated: async <T>(path: string) => (await import(pathToFileURL(join(root, 'generated', path)).href)) as T,
    write,
    typecheck: () => {
      const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
      const result = spawnSync(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', root], {
        encoding: 'utf8',
      });
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
