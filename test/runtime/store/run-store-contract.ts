/**
 * The run store contract as tests: every rule of `runtime/store/run-store.ts`, run against every store (memory,
 * SQLite on a real file, PostgreSQL on a real cluster). An engine's test file calls `describeRunStoreContract`
 * with a way to open a fresh, empty store; what only some engines have (a second instance on the same data,
 * changes heard across instances, a failure injected inside the engine) is declared by the engine, so each
 * engine states which rules apply to it rather than skipping any at run time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreErrorReporter } from '../../../runtime/store/change-listeners.js';
import type { CommitResult, RunChange, RunState, RunStore, StoredRun } from '../../../runtime/store/run-store.js';
import { aRun, anAudit, compiledRetailSop, T0, walked } from '../../support/stored-runs.js';

export interface OpenedForContract {
  readonly store: RunStore;
  /** Another instance on the same data, as a second process or server opens it (engines with `shared`). */
  readonly peer?: () => Promise<RunStore>;
  /** Makes every later audit insert fail inside the engine, a trigger (engines with `faults`). */
  readonly breakAuditInserts?: () => Promise<void>;
}

export interface ContractEngine {
  /** A fresh, empty store; `onError` receives what it reports outside any call. */
  open(onError: StoreErrorReporter): Promise<OpenedForContract>;
  /**
   * Whether the data outlives a store instance and can be opened by several at once (`peer`), and whether one
   * instance's listeners hear another's commits.
   */
  readonly shared: false | { readonly changesHeardAcrossInstances: boolean };
  /** Whether a failure can be injected inside the engine (`breakAuditInserts`). */
  readonly faults: boolean;
  /** U+0000 in text outside JSON: kept, or replaced by U+FFFD where the engine's text cannot hold it. */
  readonly nulInText: 'kept' | 'replaced';
  /**
   * Engines that hear other instances: resolves once `store`'s subscriptions have taken effect there (what
   * another instance commits before that may go unheard; live views re-read).
   */
  readonly settled?: (store: RunStore) => Promise<void>;
}

/** How long a test waits for a change that must arrive (PostgreSQL delivers through the network). */
const DELIVERY_MS = 5000;

export function describeRunStoreContract(engine: string, harness: ContractEngine): void {
  const toClose: RunStore[] = [];
  const reported: { message: string; error: unknown }[] = [];

  async function open(): Promise<OpenedForContract> {
    const opened = await harness.open((message, error) => reported.push({ message, error }));
    toClose.push(opened.store);
    const { peer } = opened;
    if (peer === undefined) return opened;
    return {
      ...opened,
      peer: async () => {
        const second = await peer();
        toClose.push(second);
        return second;
      },
    };
  }

  afterEach(async () => {
    await Promise.all(toClose.splice(0).map((store) => store.close()));
    reported.length = 0;
  });

  describe(`${engine} run store: create and read`, () => {
    it('creates a run at version 1 with its first audit entry, and reads back exactly what it created', async () => {
      const { store } = await open();
      const run = aRun({ state: walked('START') });
      const created = await store.create(run, anAudit({ to: 'START' }));
      expect(created).toEqual({ ...run, version: 1 });
      expect(await store.read(run.runId, T0)).toEqual({ status: 'found', run: created });
      expect(await store.audit(run.runId)).toEqual([{ ...anAudit({ to: 'START' }), seq: 1 }]);
    });

    it('refuses a second run with the same id and keeps the first', async () => {
      const { store } = await open();
      const run = aRun({ principal: 'alice' });
      await store.create(run, anAudit());
      await expect(store.create({ ...run, principal: 'mallory' }, anAudit({ tool: 'other' }))).rejects.toThrow(/already exists/);
      const read = await store.read(run.runId, T0);
      expect(read.status === 'found' && read.run.principal).toBe('alice');
      expect((await store.audit(run.runId)).map((entry) => entry.tool)).toEqual(['load_graph']);
    });

    it('reads an id it never saw as unknown', async () => {
      const { store } = await open();
      expect(await store.read('no-such-run', 0)).toEqual({ status: 'unknown' });
      expect(await store.audit('no-such-run')).toEqual([]);
    });

    it('keeps states and inputs as JSON exactly: key order, unicode, nesting, null, absent input and error', async () => {
      const { store } = await open();
      const state: RunState = {
        path: ['START', 'AUTH', 'ROUTE'],
        todos: [
          { content: 'Rückgabe prüfen — 返品 ✓', status: 'in_progress', completion_node: 'END', note: 'line 1\nline "2"' },
          { content: 'second', status: 'pending' },
        ],
        visits: { ROUTE: 2, AUTH: 1, START: 1 },
      };
      const run = aRun({ state });
      const input = { zeta: 1, alpha: { nested: [1, 'two', null, { b: true, a: false }] }, big: 2 ** 53 - 1, small: 0.1 };
      await store.create(run, anAudit({ input }));
      const moved = await store.commit(
        run.runId,
        1,
        state,
        anAudit({ tool: 'todo', input: undefined, outcome: 'error', error: 'bad' }),
        T0 + 1,
      );
      expect(moved.ok).toBe(true);
      await store.commit(
        run.runId,
        2,
        state,
        anAudit({ tool: 'goto_node', input: null, outcome: 'refused', from: 'ROUTE', to: 'ROUTE' }),
        T0 + 2,
      );
      const read = await store.read(run.runId, T0);
      expect(read.status === 'found' && JSON.stringify(read.run.state)).toBe(JSON.stringify(state));
      const audit = await store.audit(run.runId);
      expect(JSON.stringify(audit[0]?.input)).toBe(JSON.stringify(input));
      expect(audit[1]).toEqual({ ...anAudit({ tool: 'todo', outcome: 'error', error: 'bad' }), input: undefined, seq: 2 });
      expect(audit[2]).toEqual({ ...anAudit({ tool: 'goto_node', input: null, outcome: 'refused', from: 'ROUTE', to: 'ROUTE' }), seq: 3 });
      expect(audit[2]).not.toHaveProperty('error');
    });

    it("takes U+0000 anywhere (an error echoing a model's input, an id from a client), in JSON exactly", async () => {
      const { store } = await open();
      const odd = 'x\u0000y';
      const kept = harness.nulInText === 'kept' ? odd : 'x\uFFFDy';
      const run = aRun({ runId: odd, principal: odd, agent: odd, state: walked('START', odd) });
      await store.create(run, anAudit({ tool: odd, input: { node: odd }, error: odd, from: odd, to: odd }));
      const moved = await store.commit(odd, 1, walked(odd), anAudit({ error: odd }), T0 + 1);
      expect(moved.ok && [moved.run.runId, moved.run.principal, moved.run.state]).toEqual([kept, kept, walked(odd)]);
      const read = await store.read(odd, T0);
      expect(read.status === 'found' && [read.run.agent, read.run.state, read.run.version]).toEqual([kept, walked(odd), 2]);
      const [first] = await store.audit(odd);
      expect(first && [first.tool, first.input, first.error, first.from, first.to]).toEqual([kept, { node: odd }, kept, kept, kept]);
      expect((await store.list({ principal: odd })).map((row) => [row.runId, row.currentNode])).toEqual([[kept, kept]]);
      await store.openSession({ sessionId: odd, principal: odd, runId: odd, createdAt: T0, updatedAt: T0 });
      expect((await store.getSession(odd))?.runId).toBe(kept);
    });

    it('keeps times to the millisecond and durations to the fraction', async () => {
      const { store } = await open();
      const run = aRun({ createdAt: 8_640_000_000_000_000 - 1, updatedAt: 8_640_000_000_000_000 - 1 });
      await store.create(run, anAudit({ at: 1_749_999_999_999, durationMs: 12.3456789 }));
      const read = await store.read(run.runId, 0);
      expect(read.status === 'found' && [read.run.createdAt, read.run.updatedAt]).toEqual([run.createdAt, run.updatedAt]);
      const [entry] = await store.audit(run.runId);
      expect([entry?.at, entry?.durationMs]).toEqual([1_749_999_999_999, 12.3456789]);
    });
  });

  describe(`${engine} run store: commit (compare-and-set)`, () => {
    it('commits the next state with its audit entry when the run is at the version read', async () => {
      const { store } = await open();
      const run = aRun({ state: walked('START') });
      await store.create(run, anAudit({ to: 'START' }));
      const result = await store.commit(
        run.runId,
        1,
        walked('START', 'AUTH'),
        anAudit({ tool: 'goto_node', from: 'START', to: 'AUTH', at: T0 + 5 }),
        T0 + 7,
      );
      const expected: StoredRun = { ...run, state: walked('START', 'AUTH'), version: 2, updatedAt: T0 + 7 };
      expect(result).toEqual({ ok: true, run: expected });
      expect(await store.read(run.runId, T0)).toEqual({ status: 'found', run: expected });
      expect((await store.audit(run.runId)).at(-1)).toEqual({
        ...anAudit({ tool: 'goto_node', from: 'START', to: 'AUTH', at: T0 + 5 }),
        seq: 2,
      });
    });

    it('answers a stale version with conflict: nothing is overwritten, no audit entry appended', async () => {
      const { store } = await open();
      const run = aRun({ state: walked('START') });
      await store.create(run, anAudit());
      await store.commit(run.runId, 1, walked('START', 'AUTH'), anAudit({ tool: 'goto_node' }), T0 + 1);
      const now: StoredRun = { ...run, state: walked('START', 'AUTH'), version: 2, updatedAt: T0 + 1 };
      const stale = await store.commit(run.runId, 1, walked('START', 'ROUTE'), anAudit({ tool: 'stale' }), T0 + 2);
      expect(stale).toEqual({ ok: false, reason: 'conflict', current: now });
      const ahead = await store.commit(run.runId, 3, walked('START', 'ROUTE'), anAudit({ tool: 'ahead' }), T0 + 2);
      expect(ahead).toEqual({ ok: false, reason: 'conflict', current: now });
      const read = await store.read(run.runId, T0);
      expect(read.status === 'found' && [read.run.version, read.run.state, read.run.updatedAt]).toEqual([
        2,
        walked('START', 'AUTH'),
        T0 + 1,
      ]);
      expect((await store.audit(run.runId)).map((entry) => entry.tool)).toEqual(['load_graph', 'goto_node']);
    });

    it('answers a stale commit with the run as it is now, so the caller decides again on it and commits', async () => {
      const { store } = await open();
      const run = aRun({ state: walked('START') });
      await store.create(run, anAudit());
      // Another caller moved the run twice since this one read it at version 1.
      await store.commit(run.runId, 1, walked('START', 'AUTH'), anAudit({ tool: 'other' }), T0 + 1);
      await store.commit(run.runId, 2, walked('START', 'AUTH', 'ROUTE'), anAudit({ tool: 'other' }), T0 + 2);
      const lost = await store.commit(run.runId, 1, walked('START', 'INFO'), anAudit({ tool: 'mine' }), T0 + 3);
      if (lost.ok || lost.reason !== 'conflict') throw new Error(`expected a conflict, got ${JSON.stringify(lost)}`);
      expect(lost.current).toEqual({ ...run, state: walked('START', 'AUTH', 'ROUTE'), version: 3, updatedAt: T0 + 2 });
      // Decided again on what it was told, without a read in between: it lands.
      const next = walked(...lost.current.state.path, 'INFO');
      const retried = await store.commit(run.runId, lost.current.version, next, anAudit({ tool: 'mine' }), T0 + 4);
      expect(retried).toEqual({ ok: true, run: { ...run, state: next, version: 4, updatedAt: T0 + 4 } });
      expect((await store.audit(run.runId)).map((entry) => entry.tool)).toEqual(['load_graph', 'other', 'other', 'mine']);
    });

    it('answers a commit on a run it does not have with missing', async () => {
      const { store } = await open();
      expect(await store.commit('no-such-run', 1, walked('START'), anAudit(), T0)).toEqual({ ok: false, reason: 'missing' });
      expect(await store.audit('no-such-run')).toEqual([]);
    });

    it('keeps the version equal to the number of audit entries, numbered 1..n', async () => {
      const { store } = await open();
      const run = aRun();
      await store.create(run, anAudit());
      let committed = 1;
      let conflicts = 0;
      for (let call = 0; call < 30; call += 1) {
        const expected = call % 4 === 3 ? committed - 1 : committed; // every fourth call comes in stale
        const result = await store.commit(run.runId, expected, walked('START'), anAudit({ tool: `call-${call}` }), T0 + call);
        if (result.ok) committed += 1;
        else {
          conflicts += 1;
          expect(result.reason === 'conflict' && result.current.version).toBe(committed);
        }
      }
      expect(conflicts).toBe(7);
      const read = await store.read(run.runId, T0);
      expect(read.status === 'found' && read.run.version).toBe(committed);
      expect((await store.audit(run.runId)).map((entry) => entry.seq)).toEqual(Array.from({ length: committed }, (_, i) => i + 1));
    });

    it('lets exactly one of concurrent commits from the same version win', async () => {
      const { store } = await open();
      const run = aRun();
      await store.create(run, anAudit());
      for (let version = 1; version <= 10; version += 1) {
        const racers = Array.from({ length: 6 }, (_, i) =>
          store.commit(run.runId, version, walked(`N${version}_${i}`), anAudit({ tool: `racer-${i}` }), T0 + version),
        );
        expectOneWinner(await Promise.all(racers), run.runId, version, store);
      }
      const audit = await store.audit(run.runId);
      expect(audit.map((entry) => entry.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    });

    it('gives each commit its own run: calls on different runs never conflict', async () => {
      const { store } = await open();
      const runs = Array.from({ length: 8 }, () => aRun());
      for (const run of runs) await store.create(run, anAudit());
      const results = await Promise.all(runs.map((run) => store.commit(run.runId, 1, walked('START'), anAudit(), T0 + 1)));
      expect(results.every((result) => result.ok)).toBe(true);
    });
  });

  describe(`${engine} run store: expiry by idleness`, () => {
    it('reads a run idle since before the cutoff as expired until swept, and unknown after', async () => {
      const { store } = await open();
      const idle = aRun({ updatedAt: T0 });
      const fresh = aRun({ updatedAt: T0 + 60_000 });
      await store.create(idle, anAudit());
      await store.create(fresh, anAudit());
      expect((await store.read(idle.runId, T0)).status).toBe('found'); // last call exactly at the cutoff: not idle
      expect(await store.read(idle.runId, T0 + 1)).toEqual({
        status: 'expired',
        runId: idle.runId,
        principal: idle.principal,
        updatedAt: T0,
      });
      expect(await store.expire(T0 + 1)).toBe(1);
      expect(await store.read(idle.runId, T0 + 1)).toEqual({ status: 'unknown' });
      expect(await store.audit(idle.runId)).toEqual([]);
      expect(await store.commit(idle.runId, 1, walked('START'), anAudit(), T0 + 2)).toEqual({ ok: false, reason: 'missing' });
      expect((await store.read(fresh.runId, T0 + 1)).status).toBe('found');
      expect(await store.expire(T0 + 1)).toBe(0);
    });

    it('measures idleness from the last commit', async () => {
      const { store } = await open();
      const run = aRun({ updatedAt: T0 });
      await store.create(run, anAudit());
      await store.commit(run.runId, 1, walked('START'), anAudit(), T0 + 1000);
      expect((await store.read(run.runId, T0 + 500)).status).toBe('found');
      expect(await store.expire(T0 + 500)).toBe(0);
      expect(await store.expire(T0 + 1001)).toBe(1);
    });

    it('sweeps every idle run, however many, and lists at most 500 of them per page', async () => {
      const { store } = await open();
      const idle = Array.from({ length: 501 }, (_, i) => aRun({ updatedAt: T0 + i }));
      for (const run of idle) await store.create(run, anAudit());
      const fresh = aRun({ updatedAt: T0 + 10_000 });
      await store.create(fresh, anAudit());
      expect(await store.list({ limit: 10_000 })).toHaveLength(500);
      expect(await store.expire(T0 + 5000)).toBe(501);
      expect((await store.list({})).map((row) => row.runId)).toEqual([fresh.runId]);
    });
  });

  describe(`${engine} run store: list`, () => {
    it('lists the most recently active first (ties by run id) with the current node, version and principal', async () => {
      const { store } = await open();
      const a = aRun({ runId: 'run-a', updatedAt: T0 + 2, state: walked('START', 'AUTH') });
      const b = aRun({ runId: 'run-b', updatedAt: T0 + 2, principal: 'bob' });
      const c = aRun({ runId: 'run-c', updatedAt: T0 + 9, createdAt: T0 - 5 });
      for (const run of [b, c, a]) await store.create(run, anAudit());
      await store.commit(c.runId, 1, walked('START', 'ROUTE', 'INFO'), anAudit(), T0 + 10);
      expect(await store.list({})).toEqual([
        {
          runId: 'run-c',
          principal: 'alice',
          agent: c.agent,
          sourceHash: c.sourceHash,
          version: 2,
          currentNode: 'INFO',
          createdAt: T0 - 5,
          updatedAt: T0 + 10,
        },
        {
          runId: 'run-a',
          principal: 'alice',
          agent: a.agent,
          sourceHash: a.sourceHash,
          version: 1,
          currentNode: 'AUTH',
          createdAt: T0,
          updatedAt: T0 + 2,
        },
        {
          runId: 'run-b',
          principal: 'bob',
          agent: b.agent,
          sourceHash: b.sourceHash,
          version: 1,
          currentNode: null,
          createdAt: T0,
          updatedAt: T0 + 2,
        },
      ]);
    });

    it('lists only the runs of one principal when asked', async () => {
      const { store } = await open();
      await store.create(aRun({ principal: 'alice', runId: 'a1' }), anAudit());
      await store.create(aRun({ principal: 'bob', runId: 'b1' }), anAudit());
      await store.create(aRun({ principal: 'alice', runId: 'a2', updatedAt: T0 + 1 }), anAudit());
      expect((await store.list({ principal: 'alice' })).map((row) => row.runId)).toEqual(['a2', 'a1']);
      expect((await store.list({ principal: 'carol' })).map((row) => row.runId)).toEqual([]);
    });

    it('pages with before and beforeRunId without losing or repeating a run, even inside one millisecond', async () => {
      const { store } = await open();
      const times = [5, 5, 5, 4, 4, 3, 3, 3, 3, 1];
      for (const [i, t] of times.entries()) {
        await store.create(
          aRun({ runId: `r${String(i).padStart(2, '0')}`, principal: i % 3 === 0 ? 'bob' : 'alice', updatedAt: T0 + t }),
          anAudit(),
        );
      }
      for (const principal of [undefined, 'alice']) {
        const everything = (await store.list({ principal, limit: 500 })).map((row) => row.runId);
        const paged: string[] = [];
        let cursor: { before?: number; beforeRunId?: string } = {};
        for (;;) {
          const page = await store.list({ principal, limit: 2, ...cursor });
          paged.push(...page.map((row) => row.runId));
          const last = page.at(-1);
          if (last === undefined) break;
          cursor = { before: last.updatedAt, beforeRunId: last.runId };
        }
        expect(paged).toEqual(everything);
        expect(everything).toHaveLength(principal === undefined ? 10 : 6);
      }
      // Without beforeRunId, `before` alone is strict: the page starts below that millisecond.
      expect((await store.list({ before: T0 + 4 })).map((row) => row.updatedAt)).toEqual([T0 + 3, T0 + 3, T0 + 3, T0 + 3, T0 + 1]);
    });

    it('returns 50 runs by default and at least one whatever the limit', async () => {
      const { store } = await open();
      for (let i = 0; i < 52; i += 1) await store.create(aRun({ updatedAt: T0 + i }), anAudit());
      expect(await store.list({})).toHaveLength(50);
      expect(await store.list({ limit: 0 })).toHaveLength(1);
      expect(await store.list({ limit: -3 })).toHaveLength(1);
      expect(await store.list({ limit: 3 })).toHaveLength(3);
    });
  });

  describe(`${engine} run store: audit log`, () => {
    it('reads the audit log in order, from a sequence number, a page at a time', async () => {
      const { store } = await open();
      const run = aRun();
      await store.create(run, anAudit());
      for (let version = 1; version < 7; version += 1) {
        await store.commit(run.runId, version, walked('START'), anAudit({ tool: `t${version + 1}` }), T0 + version);
      }
      expect((await store.audit(run.runId)).map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((await store.audit(run.runId, { afterSeq: 2, limit: 3 })).map((entry) => [entry.seq, entry.tool])).toEqual([
        [3, 't3'],
        [4, 't4'],
        [5, 't5'],
      ]);
      expect(await store.audit(run.runId, { afterSeq: 7 })).toEqual([]);
      expect(await store.audit(run.runId, { limit: 0 })).toEqual([]);
    });

    it("keeps a domain call's entries (gateway mode) exactly: pending, then answered or unknown, with their detail", async () => {
      const { store } = await open();
      const run = aRun();
      await store.create(run, anAudit());
      const detail = { kind: 'domain', server: 'retail-tools', rule: 'node-tools', sop: 'sha256:abc', phase: 'forwarding' } as const;
      const forwarding = anAudit({ tool: 'cancel_pending_order', input: { order_id: '#W1' }, outcome: 'pending', detail });
      const unknown = anAudit({
        tool: 'cancel_pending_order',
        input: { order_id: '#W1' },
        outcome: 'unknown',
        error: 'the connection closed during the call',
        detail: { ...detail, phase: 'answered', upstreamMs: 12.5, reached: 'maybe' },
      });
      await store.commit(run.runId, 1, walked('START'), forwarding, T0 + 1);
      await store.commit(run.runId, 2, walked('START'), unknown, T0 + 2);
      const entries = await store.audit(run.runId);
      expect(entries.slice(1)).toEqual([
        { ...forwarding, seq: 2 },
        { ...unknown, seq: 3 },
      ]);
      expect(entries[0]).not.toHaveProperty('detail');
    });
  });

  describe(`${engine} run store: pinned agent versions`, () => {
    it('keeps a compiled SOP by its hash, once: a second put of the same hash changes nothing', async () => {
      const { store } = await open();
      const sop = compiledRetailSop();
      expect(await store.getAgentVersion(sop.sourceHash)).toBeUndefined();
      await store.putAgentVersion(sop);
      await store.putAgentVersion({ ...sop, meta: { ...sop.meta, description: 'a different build with the same hash' } });
      const kept = await store.getAgentVersion(sop.sourceHash);
      expect(kept).toEqual(sop);
      expect(JSON.stringify(kept)).toBe(JSON.stringify(sop));
    });
  });

  describe(`${engine} run store: sessions`, () => {
    it('opens, reads, repoints and closes a session', async () => {
      const { store } = await open();
      const session = { sessionId: 's-1', principal: 'alice', runId: null, createdAt: T0, updatedAt: T0 };
      expect(await store.getSession('s-1')).toBeUndefined();
      await store.openSession(session);
      expect(await store.getSession('s-1')).toEqual(session);
      await store.setSessionRun('s-1', 'run-9', T0 + 3);
      expect(await store.getSession('s-1')).toEqual({ ...session, runId: 'run-9', updatedAt: T0 + 3 });
      await store.setSessionRun('s-unknown', 'run-9', T0 + 3);
      expect(await store.getSession('s-unknown')).toBeUndefined();
      await store.closeSession('s-1');
      expect(await store.getSession('s-1')).toBeUndefined();
      await store.closeSession('s-1');
    });

    it('expires a session with its run: one whose current run is still active stays, however old', async () => {
      const { store } = await open();
      const live = aRun({ updatedAt: T0 + 100 });
      const idle = aRun({ updatedAt: T0 });
      await store.create(live, anAudit());
      await store.create(idle, anAudit());
      const opened = (sessionId: string, runId: string | null, at: number) => ({
        sessionId,
        principal: 'alice',
        runId,
        createdAt: at,
        updatedAt: at,
      });
      await store.openSession(opened('old-live-run', live.runId, T0));
      await store.openSession(opened('old-idle-run', idle.runId, T0));
      await store.openSession(opened('old-no-run', null, T0));
      await store.openSession(opened('fresh-gone-run', 'gone', T0 + 100));
      expect(await store.expire(T0 + 50)).toBe(1);
      const left = await Promise.all(['old-live-run', 'old-idle-run', 'old-no-run', 'fresh-gone-run'].map((id) => store.getSession(id)));
      expect(left.map((session) => session?.sessionId ?? null)).toEqual(['old-live-run', null, null, 'fresh-gone-run']);
    });
  });

  describe(`${engine} run store: subscribe`, () => {
    it('tells listeners of creates and successful commits, in order, never of a conflict; unsubscribe stops it', async () => {
      const { store } = await open();
      const kept = collect(store);
      const dropped = collect(store);
      const run = aRun();
      await store.create(run, anAudit());
      await store.commit(run.runId, 1, walked('START'), anAudit(), T0 + 1);
      await store.commit(run.runId, 1, walked('AUTH'), anAudit(), T0 + 2); // conflict
      await store.commit(run.runId, 2, walked('START', 'AUTH'), anAudit(), T0 + 3);
      await kept.until(3);
      await dropped.until(3);
      dropped.stop();
      await store.commit(run.runId, 3, walked('START'), anAudit(), T0 + 4);
      await kept.until(4);
      expect(kept.changes.map(bare)).toEqual([1, 2, 3, 4].map((version) => ({ runId: run.runId, version })));
      expect(dropped.changes).toHaveLength(3);
    });

    it('tells a commit with the run as committed (a create, which no other copy can be waiting for, without)', async () => {
      const { store } = await open();
      const heard = collect(store);
      const run = aRun();
      await store.create(run, anAudit());
      const moved = await store.commit(run.runId, 1, walked('START', 'AUTH'), anAudit(), T0 + 7);
      if (!moved.ok) throw new Error(moved.reason);
      await heard.until(2);
      expect(heard.changes).toEqual([
        { runId: run.runId, version: 1 },
        { runId: run.runId, version: 2, run: moved.run },
      ]);
      expect(moved.run).toEqual({ ...run, version: 2, state: walked('START', 'AUTH'), updatedAt: T0 + 7 });
    });

    it('keeps a commit and the other listeners whole when a listener throws, and reports the failure', async () => {
      const { store } = await open();
      store.subscribe(() => {
        throw new Error('listener bug');
      });
      const other = collect(store);
      const run = aRun();
      await store.create(run, anAudit());
      const result = await store.commit(run.runId, 1, walked('START'), anAudit(), T0 + 1);
      expect(result.ok).toBe(true);
      await other.until(2);
      await waitUntil(() => reported.length >= 2, 'the listener failures to be reported');
      expect(reported[0]?.message).toMatch(/listener failed/);
      expect(reported[0]?.error).toEqual(new Error('listener bug'));
    });
  });

  describe(`${engine} run store: close`, () => {
    it('closes once, however often asked, and calls no listener afterwards', async () => {
      const opened = await open();
      const heard = collect(opened.store);
      await opened.store.close();
      await opened.store.close();
      // A closed SQL store cannot write; another instance writes instead (memory keeps working after close).
      const writer = opened.peer === undefined ? opened.store : await opened.peer();
      await writer.create(aRun(), anAudit());
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard.changes).toEqual([]);
    });
  });

  const { shared, faults } = harness;
  if (shared !== false) {
    describe(`${engine} run store: instances sharing the data`, () => {
      it('keeps what one instance wrote for the next one: nothing lives in a process', async () => {
        const opened = await open();
        const run = aRun();
        await opened.store.create(run, anAudit());
        await opened.store.commit(run.runId, 1, walked('START'), anAudit({ tool: 'goto_node' }), T0 + 1);
        await opened.store.putAgentVersion(compiledRetailSop());
        await opened.store.openSession({ sessionId: 's', principal: 'alice', runId: run.runId, createdAt: T0, updatedAt: T0 });
        await opened.store.close();
        const next = await peerOf(opened);
        expect(await next.read(run.runId, T0)).toEqual({
          status: 'found',
          run: { ...run, state: walked('START'), version: 2, updatedAt: T0 + 1 },
        });
        expect((await next.audit(run.runId)).map((entry) => entry.tool)).toEqual(['load_graph', 'goto_node']);
        expect(await next.getAgentVersion(compiledRetailSop().sourceHash)).toEqual(compiledRetailSop());
        expect((await next.getSession('s'))?.runId).toBe(run.runId);
      });

      it('lets exactly one of two instances win a race from the same version, every time', async () => {
        const opened = await open();
        const peer = await peerOf(opened);
        const run = aRun();
        await opened.store.create(run, anAudit());
        for (let version = 1; version <= 20; version += 1) {
          const racers = [opened.store, peer, opened.store, peer].map((store, i) =>
            store.commit(run.runId, version, walked(`V${version}_${i}`), anAudit({ tool: `racer-${i}` }), T0 + version),
          );
          expectOneWinner(await Promise.all(racers), run.runId, version, opened.store);
        }
        expect((await peer.audit(run.runId)).map((entry) => entry.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
      });

      if (shared.changesHeardAcrossInstances) {
        it("tells one instance's listeners of another instance's commits, once, and its own", async () => {
          const opened = await open();
          const peer = await peerOf(opened);
          const heard = collect(opened.store);
          await harness.settled?.(opened.store);
          const run = aRun();
          await peer.create(run, anAudit());
          await peer.commit(run.runId, 1, walked('START'), anAudit(), T0 + 1);
          await heard.until(2);
          await opened.store.commit(run.runId, 2, walked('START', 'AUTH'), anAudit(), T0 + 2);
          await peer.commit(run.runId, 3, walked('START'), anAudit(), T0 + 3);
          await heard.until(4);
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(heard.changes.map(bare)).toEqual([1, 2, 3, 4].map((version) => ({ runId: run.runId, version })));
          // Another instance's commit carries the run as committed too (small enough for a notification).
          expect(heard.changes.map((change) => change.run?.version)).toEqual([undefined, 2, 3, 4]);
        });
      }
    });
  }

  if (faults) {
    describe(`${engine} run store: one transaction per call`, () => {
      it('leaves no trace of a commit whose audit entry fails: no state change, no entry, same version', async () => {
        const opened = await open();
        const breakAuditInserts = opened.breakAuditInserts;
        if (breakAuditInserts === undefined) throw new Error(`${engine} declares faults but gave no breakAuditInserts`);
        const heard = collect(opened.store);
        const run = aRun({ state: walked('START') });
        await opened.store.create(run, anAudit());
        await heard.until(1);
        await breakAuditInserts();
        await expect(opened.store.commit(run.runId, 1, walked('START', 'AUTH'), anAudit({ tool: 'goto_node' }), T0 + 1)).rejects.toThrow(
          /injected/,
        );
        await expect(opened.store.create(aRun({ runId: 'never' }), anAudit())).rejects.toThrow(/injected/);
        expect(await opened.store.read(run.runId, T0)).toEqual({ status: 'found', run: { ...run, version: 1 } });
        expect(await opened.store.read('never', 0)).toEqual({ status: 'unknown' });
        expect((await opened.store.audit(run.runId)).map((entry) => entry.seq)).toEqual([1]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(heard.changes).toHaveLength(1);
      });
    });
  }
}

async function peerOf(opened: OpenedForContract): Promise<RunStore> {
  if (opened.peer === undefined) throw new Error(`${opened.store.kind} declares shared data but gave no peer`);
  return opened.peer();
}

/** One commit won; every other lost with the run the winner left (each loser re-read it as it is after the win). */
function expectOneWinner(results: readonly CommitResult[], runId: string, version: number, store: RunStore): void {
  const winners = results.flatMap((result) => (result.ok ? [result.run] : []));
  expect(winners, `race from version ${version} of ${runId} on ${store.kind}`).toHaveLength(1);
  expect(winners[0]?.version).toBe(version + 1);
  const told = results.flatMap((result) => (!result.ok && result.reason === 'conflict' ? [result.current] : []));
  expect(told).toEqual(Array.from({ length: results.length - 1 }, () => winners[0]));
}

/** A change without the run it may carry: which run, which version. */
function bare(change: RunChange): RunChange {
  return { runId: change.runId, version: change.version };
}

interface Collected {
  readonly changes: RunChange[];
  until(count: number): Promise<void>;
  stop(): void;
}

function collect(store: RunStore): Collected {
  const changes: RunChange[] = [];
  const stop = store.subscribe((change) => changes.push(change));
  return { changes, stop, until: (count) => waitUntil(() => changes.length >= count, `${count} changes (have ${changes.length})`) };
}

async function waitUntil(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DELIVERY_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited ${DELIVERY_MS} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
