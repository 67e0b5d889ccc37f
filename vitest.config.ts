import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Generated modules import the toolkit by package name; inside its own repository that is this source tree.
    alias: {
      'sop-toolkit/contract': fileURLToPath(new URL('./contract/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker keeps its module graph from one file to the next (40 s of imports saved in a full run): nothing in the
    // toolkit keeps process-global state, so a file cannot see another's.
    isolate: false,
    // Two files at a time on this project's 2-core machines: most tests wait on processes they spawned.
    maxWorkers: 2,
  },
});
