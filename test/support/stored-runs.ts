/** Runs and audit entries as a session service would write them, for tests of the stores and of `sop runs`. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { readBundle } from '../../contract/read-bundle.js';
import type { AuditEntry, RunState, StoredRun } from '../../runtime/store/run-store.js';
import { EMPTY_RUN_STATE } from '../../runtime/store/run-store.js';
import { PROJECT_ROOT } from './run-cli.js';

/** 2025-06-15T15:06:40Z: a fixed "now" in milliseconds since the epoch. */
export const T0 = 1_750_000_000_000;

/** 128 random bits, as the session service makes them. */
export function newRunId(): string {
  return randomBytes(16).toString('base64url');
}

export function aRun(overrides: Partial<Omit<StoredRun, 'version'>> = {}): Omit<StoredRun, 'version'> {
  return {
    runId: newRunId(),
    principal: 'alice',
    agent: 'retail_customer_support',
    sourceHash: 'sha256:1111111111111111111111111111111111111111111111111111111111111111',
    state: EMPTY_RUN_STATE,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function anAudit(overrides: Partial<Omit<AuditEntry, 'seq'>> = {}): Omit<AuditEntry, 'seq'> {
  return {
    tool: 'load_graph',
    input: { agent: 'retail_customer_support' },
    outcome: 'ok',
    from: null,
    to: null,
    at: T0,
    durationMs: 0.25,
    ...overrides,
  };
}

/** The state after walking `path` from the entry node. */
export function walked(...path: string[]): RunState {
  return { ...EMPTY_RUN_STATE, path, visits: Object.fromEntries(path.map((node) => [node, 1])) };
}

/** A real compiled SOP: the toolkit's own retail example, from the bundle `npm run build:sops` writes. */
export function compiledRetailSop(): CompiledSop {
  const read = readBundle(join(PROJECT_ROOT, 'generated', 'sop-bundle.json'));
  if (!read.ok) throw new Error(read.error);
  const sop = read.bundle.agents.retail_customer_support;
  if (sop === undefined) throw new Error('the bundle has no retail_customer_support agent');
  return sop;
}
