/** The run store contract on the memory store (stdio's default): one process, nothing kept after it. */
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import { aRun, anAudit, T0, walked } from '../../support/stored-runs.js';
import { describeRunStoreContract } from './run-store-contract.js';

describeRunStoreContract('memory', {
  open: async (onError) => ({ store: createMemoryRunStore({ onError }) }),
  shared: false,
  faults: false,
  nulInText: 'kept',
});

describe('the memory store on a very long conversation', () => {
  it('keeps the latest audit entries of a run, while its version counts every call', async () => {
    const store = createMemoryRunStore({ maxAuditEntriesPerRun: 100 });
    await store.create(aRun({ runId: 'run_long' }), anAudit());
    for (let version = 1; version <= 1_000; version += 1) {
      const committed = await store.commit('run_long', version, walked('START'), anAudit({ tool: 'goto_node' }), T0 + version);
      expect(committed.ok).toBe(true);
    }
    const audit = await store.audit('run_long');
    expect(audit.length).toBeGreaterThanOrEqual(100);
    expect(audit.length).toBeLessThanOrEqual(110);
    expect(audit.at(-1)?.seq).toBe(1_001);
    expect(audit.map((entry) => entry.seq)).toEqual(audit.map((_, index) => 1_001 - audit.length + 1 + index));
  });
});
