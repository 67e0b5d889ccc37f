/**
 * Bundles test/fixtures/runtime/serve-fixture.ts with esbuild into .cache/ (git-ignored) so a test can spawn
 * the runtime as a real stdio process with the fixture registry. Packages stay external and resolve from the
 * project's node_modules.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export async function bundleFixtureServer(): Promise<string> {
  const outDir = join(PROJECT_ROOT, '.cache', 'runtime-tests');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `serve-fixture-${process.pid}.mjs`);
  await build({
    entryPoints: [join(PROJECT_ROOT, 'test/fixtures/runtime/serve-fixture.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}
