/**
 * The fuzzer's seeds: real SOPs (the repository's own, the golden fixtures, the runtime fixture), which every
 * mutation starts from, so inputs stay close to what authors write and reach every stage of the compiler.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SOP_DIRS = [
  'sops',
  'test/fixtures/golden/minimal/sops',
  'test/fixtures/golden/wide-syntax/sops',
  'test/fixtures/runtime/project/sops',
];

export interface CorpusFile {
  readonly name: string;
  readonly text: string;
}

/** Every SOP of the corpus folders under `projectRoot`, in a stable order. */
export function readCorpus(projectRoot: string): CorpusFile[] {
  return SOP_DIRS.flatMap((dir) => {
    const abs = join(projectRoot, dir);
    if (!existsSync(abs)) return [];
    return readdirSync(abs)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => ({ name: `${dir}/${f}`, text: readFileSync(join(abs, f), 'utf8') }));
  });
}
