/**
 * `sop-toolkit/testing`: helpers for an app's test suite. `walkGoldenPaths` walks every golden path of an agent
 * (the build's `paths.json` fixture, or paths computed from the bundle) through a real session service and
 * reports each move the server refuses:
 *
 *   const report = await walkGoldenPaths({ bundle: 'generated/sop-bundle.json', agent: 'retail_customer_support',
 *     paths: 'generated/retail_customer_support/paths.json' });
 *   expect(report.failures).toEqual([]);
 *
 * Explicit, sorted exports.
 */
export type { GoldenPath, GoldenPaths, PathLimits } from '../generator/paths/golden-paths.js';
export { DEFAULT_PATH_LIMITS, goldenPaths, PATHS_FORMAT } from '../generator/paths/golden-paths.js';
export type { PathWalkFailure, PathWalkOptions, PathWalkReport } from './walk-paths.js';
export { walkGoldenPaths } from './walk-paths.js';
