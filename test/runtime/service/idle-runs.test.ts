/**
 * 20,000 conversations that never close: each opens a session and starts a run, then goes silent. With a short
 * TTL every run and every session expires, and the process's heap comes back to where it was: nothing about an
 * idle conversation stays in memory once it expired (the run cache and the live-session table are bounded and
 * swept). Heap is measured after forced garbage collection, before and after, as a difference in MiB: a
 * structural property (retained or not), not a timing.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resultOf } from '../../../runtime/service/session-service.js';
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import { fixtureService } from '../helpers/mcp-client.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe('idle runs', () => {
  it('all expire after the TTL, and the heap returns to its size before them', async () => {
    let now = 1_000_000;
    const store = createMemoryRunStore();
    const service = fixtureService({ store, clock: { now: () => now }, limits: { runIdleMs: 60_000, maxLiveSessions: 50_000 } });
    const warm = await service.openSession('local');
    if (!warm.ok) throw new Error(warm.error);
    await service.callTool('load_graph', { agent: 'support_desk' }, { principal: 'local', sessionId: warm.sessionId });
    const before = heapMiB();

    const runIds: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      const opening = await service.openSession(`principal-${i % 7}`);
      if (!opening.ok) throw new Error(opening.error);
      const caller = { principal: `principal-${i % 7}`, sessionId: opening.sessionId };
      const result = resultOf(await service.callTool('load_graph', { agent: 'support_desk' }, caller));
      runIds.push((result.structuredContent as { run_id: string }).run_id);
      await service.callTool('goto_node', { node_id: 'START' }, caller);
    }
    const loaded = heapMiB();
    expect((await store.list({ limit: 500 })).length).toBe(500);

    now += 61_000;
    expect(await service.sweep()).toBe(20_001);
    runIds.length = 0;
    const after = heapMiB();

    // 20,000 live runs cost real memory (their state and audit); once expired, none of it is retained.
    expect(loaded - before).toBeGreaterThan(5);
    expect(after - before).toBeLessThan(2);
    expect(await store.list({})).toEqual([]);
    await service.close();
  }, 120_000);
});
