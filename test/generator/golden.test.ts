/**
 * Golden tests: each `test/fixtures/golden/<case>/sops/*.md` compiles to exactly the committed files in
 * `<case>/generated/`, byte for byte. The goldens are under `tsconfig.json`, so `npm run typecheck` also
 * proves they type-check. After an intended change to the output: `UPDATE_GOLDENS=1 npx vitest run test/generator/golden.test.ts`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planBuild } from '../../generator/project/plan-build.js';
import { listFiles } from '../../generator/write/compare-outputs.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GOLDEN = join(ROOT, 'test/fixtures/golden');
const update = process.env.UPDATE_GOLDENS === '1';

describe('golden output', () => {
  for (const name of readdirSync(GOLDEN).sort()) {
    it(name, async () => {
      const caseDir = join(GOLDEN, name);
      const sopsDir = join(caseDir, 'sops');
      const outDir = join(caseDir, 'generated');
      const sources = readdirSync(sopsDir)
        .sort()
        .map((f) => ({
          file: relative(caseDir, join(sopsDir, f)).split(sep).join('/'),
          raw: readFileSync(join(sopsDir, f), 'utf8'),
        }));
      const build = await planBuild(sources);
      expect(build.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      if (update) {
        rmSync(outDir, { recursive: true, force: true });
        for (const f of build.outputs) {
          mkdirSync(dirname(join(outDir, f.path)), { recursive: true });
          writeFileSync(join(outDir, f.path), f.content);
        }
      }
      expect(listFiles(outDir)).toEqual(build.outputs.map((f) => f.path));
      for (const f of build.outputs) expect(f.content, f.path).toBe(readFileSync(join(outDir, f.path), 'utf8'));
    });
  }
});
