/**
 * `sop discover`: an editable SOP drafted from agent logs, scored against them, and practice compared with a written
 * SOP (`discover.ts` composes the stages; docs/discover.md explains them).
 */
export { compileWritten } from './compile-draft.js';
export { DISCOVER_FORMAT, type DiscoverReport } from './discover-report.js';
export { type DiscoverInput, type DiscoverOutcome, discover } from './discover.js';
export { FITTING } from './draft-fit.js';
export { DEFAULT_NOISE } from './inductive-miner.js';
export type { Difference } from './practice.js';
export { renderDiscoverText, renderPracticeMarkdown } from './render-discover.js';
