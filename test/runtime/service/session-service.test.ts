/**
 * The session service on a real run store: every call audited in step with the run's version; two services on
 * one store (two instances) never lose an update; a run keeps the SOP version it started with across a rebuild;
 * idle runs expire; the live-session cap holds; a failing store answers "not applied" and changes nothing.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, type SopBundle } from '../../../contract/compiled-sop.js';
import { createAgentSource } from '../../../runtime/agents/agent-source.js';
import type { AgentCatalog } from '../../../runtime/agents/agent-catalog.js';
import { silentLogger } from '../../../runtime/support/logger.js';
import { type Caller, createSessionService, resultOf, type SessionService } from '../../../runtime/service/session-service.js';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import type { RunStore } from '../../../runtime/store/run-store.js';
import { FIXTURE_BUNDLE, SUPPORT_DESK } from '../../fixtures/runtime/agents.js';
import { FIXTURE_ROOT, fixtureService } from '../helpers/mcp-client.js';

type Answer = Record<string, any>;

const services: SessionService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});
function track(service: SessionService): SessionService {
  services.push(service);
  return service;
}

async function call(service: SessionService, name: string, args: object, caller: Caller): Promise<{ answer: Answer; isError: boolean }> {
  const result = resultOf(await service.callTool(name, args, caller));
  return { answer: result.structuredContent as Answer, isError: result.isError === true };
}

describe('runs and their audit log', () => {
  it('records every call on a run, in the same step as its state: tool, input, outcome, from → to, time, duration', async () => {
    let now = 1_000;
    const service = track(fixtureService({ clock: { now: () => (now += 5) } }));
    const caller = { principal: 'local' };
    const { answer } = await call(service, 'load_graph', { agent: 'support_desk' }, caller);
    const runId = answer.run_id as string;
    await call(service, 'goto_node', { node_id: 'START', run_id: runId }, caller);
    await call(service, 'goto_node', { node_id: 'ROUTE', run_id: runId }, caller);
    await call(service, 'goto_node', { node_id: 'NOPE', run_id: runId }, caller);
    await call(service, 'todo', { todos: [{ content: 'x', status: 'later' }], run_id: runId }, caller);
    await call(service, 'goto_node', { node_id: 'AUTH', run_id: runId }, caller);

    const audit = await service.store.audit(runId);
    expect(audit.map(({ seq, tool, outcome, from, to }) => ({ seq, tool, outcome, from, to }))).toEqual([
      { seq: 1, tool: 'load_graph', outcome: 'ok', from: null, to: null },
      { seq: 2, tool: 'goto_node', outcome: 'ok', from: null, to: 'START' },
      { seq: 3, tool: 'goto_node', outcome: 'refused', from: 'START', to: 'START' },
      { seq: 4, tool: 'goto_node', outcome: 'error', from: 'START', to: 'START' },
      { seq: 5, tool: 'todo', outcome: 'error', from: 'START', to: 'START' },
      { seq: 6, tool: 'goto_node', outcome: 'ok', from: 'START', to: 'AUTH' },
    ]);
    expect(audit[1]).toMatchObject({ input: { node_id: 'START', run_id: runId }, at: expect.any(Number), durationMs: expect.any(Number) });
    expect(audit[2]?.error).toBe('Cannot reach ROUTE from START');
    expect(audit[3]?.error).toMatch(/^Node not found: NOPE/);
    expect(audit[4]?.error).toMatch(/^Invalid arguments for todo: todos\[0\]\.status/);
    expect(audit.every((entry) => entry.durationMs >= 0 && entry.at >= 1_000)).toBe(true);
    const read = await service.store.read(runId, 0);
    expect(read).toMatchObject({ status: 'found', run: { version: 6, state: { path: ['START', 'AUTH'] } } });
  });

  it('never loses an update when two instances share the store: a stale copy is decided again on the run its failed commit returned', async () => {
    const store = createMemoryRunStore();
    // Every trip to the store, counted on the real store's own methods.
    const trips = { read: 0, commit: 0 };
    const counted: RunStore = {
      ...store,
      read(...args) {
        trips.read += 1;
        return store.read(...args);
      },
      commit(...args) {
        trips.commit += 1;
        return store.commit(...args);
      },
    };
    const first = track(fixtureService({ store: counted }));
    const second = track(fixtureService({ store: counted }));
    const caller = { principal: 'local' };
    const runId = (await call(first, 'load_graph', { agent: 'support_desk' }, caller)).answer.run_id as string;
    const route = ['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE', 'DO_REFUND', 'END_REFUND', 'ROUTE'];
    // Alternate instances: each one's copy of the run is stale whenever the other moved it last.
    for (const [index, node] of route.entries()) {
      const service = index % 2 === 0 ? first : second;
      expect((await call(service, 'goto_node', { node_id: node, run_id: runId }, caller)).answer.valid, node).toBe(true);
    }
    // A stale instance deciding an illegal move from its old copy would accept it: it must refuse from the fresh run.
    expect((await call(first, 'goto_node', { node_id: 'DO_REFUND', run_id: runId }, caller)).answer).toMatchObject({
      valid: false,
      current_node: 'ROUTE',
    });
    const audit = await store.audit(runId);
    expect(audit).toHaveLength(route.length + 2);
    expect(audit.map((entry) => entry.seq)).toEqual(audit.map((_, index) => index + 1));
    // One read in all (the second instance's first sight of the run); after it every stale call is one failed
    // commit, which returns the run as it is, and one that lands: no call reads the run again.
    const calls = route.length + 1;
    const staleCalls = calls - 2;
    expect(trips).toEqual({ read: 1, commit: calls + staleCalls });
  });

  it('serves concurrent calls on one run from two instances as a sequence of legal moves', async () => {
    const store = createMemoryRunStore();
    const instances = [track(fixtureService({ store })), track(fixtureService({ store }))];
    const caller = { principal: 'local' };
    const runId = (await call(instances[0]!, 'load_graph', { agent: 'support_desk' }, caller)).answer.run_id as string;
    await call(instances[0]!, 'goto_node', { node_id: 'START', run_id: runId }, caller);
    const targets = ['AUTH', 'ROUTE', 'COLLECT_ADDR', 'ROUTE', 'CHK_REFUND', 'START', 'AUTH', 'ROUTE'];
    const answers = await Promise.all(
      targets.flatMap((node) => instances.map((service) => call(service, 'goto_node', { node_id: node, run_id: runId }, caller))),
    );
    const audit = await store.audit(runId);
    expect(audit).toHaveLength(2 + answers.length);
    // Replaying the audit's accepted moves from the entry must reproduce every recorded `to`.
    let at: string | null = null;
    for (const entry of audit.slice(1)) {
      expect(entry.from).toBe(at);
      if (entry.outcome === 'ok') at = entry.to;
    }
  });
});

describe('SOP versions', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function writeBundle(path: string, bundle: SopBundle): void {
    writeFileSync(`${path}.tmp`, JSON.stringify(bundle));
    renameSync(`${path}.tmp`, path);
  }

  it('starts new runs on a rebuilt bundle while a running run keeps the version it started with', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sop-reload-'));
    const bundlePath = join(dir, 'sop-bundle.json');
    writeBundle(bundlePath, FIXTURE_BUNDLE);
    const store = createMemoryRunStore();
    let reloaded: (catalog: AgentCatalog) => void = () => {};
    const agents = createAgentSource({
      origin: { bundlePath, initial: FIXTURE_BUNDLE, watch: true, onReload: (catalog) => reloaded(catalog) },
      store,
      logger: silentLogger,
    });
    const service = track(createSessionService({ agents, store, projectRoot: FIXTURE_ROOT, logger: silentLogger }));
    const caller = { principal: 'local' };
    const oldRun = (await call(service, 'load_graph', { agent: 'support_desk' }, caller)).answer.run_id as string;
    await call(service, 'goto_node', { node_id: 'START', run_id: oldRun }, caller);

    const edited = {
      ...SUPPORT_DESK,
      sourceHash: `sha256:${'e'.repeat(64)}`,
      prompts: { ...SUPPORT_DESK.prompts, AUTH: { ...SUPPORT_DESK.prompts.AUTH!, prompt: 'Verify the customer, new wording.' } },
    };
    const changed = new Promise<AgentCatalog>((resolve) => (reloaded = resolve));
    writeBundle(bundlePath, { format: BUNDLE_FORMAT, agents: { ...FIXTURE_BUNDLE.agents, support_desk: edited } });
    expect((await changed).byName('support_desk')?.sourceHash).toBe(edited.sourceHash);

    const newRun = (await call(service, 'load_graph', { agent: 'support_desk' }, caller)).answer.run_id as string;
    await call(service, 'goto_node', { node_id: 'START', run_id: newRun }, caller);
    const fresh = await call(service, 'goto_node', { node_id: 'AUTH', run_id: newRun }, caller);
    const old = await call(service, 'goto_node', { node_id: 'AUTH', run_id: oldRun }, caller);
    expect(fresh.answer.node.prompt).toBe('Verify the customer, new wording.');
    expect(old.answer.node.prompt).toBe(SUPPORT_DESK.prompts.AUTH?.prompt);
    expect(await store.getAgentVersion(SUPPORT_DESK.sourceHash)).toEqual(SUPPORT_DESK);
  });

  it('answers a run pinned to a version nobody has with an error naming both hashes and the way forward', async () => {
    const store = createMemoryRunStore();
    const service = track(fixtureService({ store }));
    const gone = `sha256:${'0'.repeat(64)}`;
    await store.create(
      {
        runId: 'run_pinned',
        principal: 'local',
        agent: 'support_desk',
        sourceHash: gone,
        state: { path: [], todos: [], visits: {} },
        createdAt: 1,
        updatedAt: Date.now(),
      },
      { tool: 'load_graph', input: {}, outcome: 'ok', from: null, to: null, at: 1, durationMs: 0 },
    );
    const { answer, isError } = await call(service, 'goto_node', { node_id: 'START', run_id: 'run_pinned' }, { principal: 'local' });
    expect(isError).toBe(true);
    expect(answer.error).toBe(
      `This run is pinned to support_desk ${gone}, which this server does not have (it now serves ${SUPPORT_DESK.sourceHash}). ` +
        'A run never switches SOP versions: start a new run with load_graph.',
    );
  });
});

describe('limits', () => {
  it('expires a run idle longer than the TTL, then forgets it', async () => {
    let now = 10_000;
    const service = track(fixtureService({ clock: { now: () => now }, limits: { runIdleMs: 60_000 } }));
    const caller = { principal: 'local' };
    const runId = (await call(service, 'load_graph', { agent: 'tiny_flow' }, caller)).answer.run_id as string;
    now += 59_000;
    expect((await call(service, 'goto_node', { node_id: 'BEGIN', run_id: runId }, caller)).isError).toBe(false);
    now += 61_000;
    expect((await call(service, 'goto_node', { node_id: 'STEP', run_id: runId }, caller)).answer.error).toBe(
      `Run ${runId} expired: it was idle for more than 1 min. Start a new run with load_graph.`,
    );
    expect(await service.sweep()).toBe(1);
    expect((await call(service, 'goto_node', { node_id: 'STEP', run_id: runId }, caller)).answer.error).toMatch(/^Unknown run/);
  });

  it('refuses sessions beyond the live-session cap until one ends', async () => {
    const service = track(fixtureService({ limits: { maxLiveSessions: 2 } }));
    const first = await service.openSession('local');
    expect((await service.openSession('local')).ok).toBe(true);
    expect(await service.openSession('local')).toEqual({
      ok: false,
      error: 'This server holds 2 live sessions, its limit: end finished sessions (HTTP DELETE) or try again later.',
    });
    if (!first.ok) throw new Error('first session refused');
    expect(await service.closeSession(first.sessionId, 'local')).toBe(true);
    expect((await service.openSession('local')).ok).toBe(true);
  });

  it("reads a session's owner once per 5 s: one ended here is gone at once, one ended on another instance within 5 s", async () => {
    let now = 1_000;
    const store = createMemoryRunStore();
    let reads = 0;
    const counted: RunStore = {
      ...store,
      getSession(...args) {
        reads += 1;
        return store.getSession(...args);
      },
    };
    const clock = { now: () => now };
    const here = track(fixtureService({ store: counted, clock }));
    const there = track(fixtureService({ store: counted, clock }));
    const opened = await here.openSession('alice');
    if (!opened.ok) throw new Error('session refused');
    const id = opened.sessionId;
    expect(await here.hasSession(id, 'alice')).toBe(true);
    expect(await here.hasSession(id, 'bob')).toBe(false);
    expect(reads).toBe(0);
    expect(await there.hasSession(id, 'alice')).toBe(true);
    expect(await there.hasSession(id, 'alice')).toBe(true);
    expect(reads).toBe(1);
    expect(await here.closeSession(id, 'alice')).toBe(true);
    expect(await here.hasSession(id, 'alice')).toBe(false);
    now += 4_999;
    expect(await there.hasSession(id, 'alice')).toBe(true);
    now += 1;
    expect(await there.hasSession(id, 'alice')).toBe(false);
  });

  it("names a connection's run (stdio) without reading its session from the store; an HTTP session's is read on each call", async () => {
    const store = createMemoryRunStore();
    let reads = 0;
    const counted: RunStore = {
      ...store,
      getSession(...args) {
        reads += 1;
        return store.getSession(...args);
      },
    };
    const service = track(fixtureService({ store: counted }));
    for (const channel of ['connection', 'request'] as const) {
      const opened = await service.openSession('local');
      if (!opened.ok) throw new Error('session refused');
      const caller: Caller = { principal: 'local', sessionId: opened.sessionId, channel };
      reads = 0;
      await call(service, 'load_graph', { agent: 'support_desk' }, caller);
      for (const node of ['START', 'AUTH', 'ROUTE'])
        expect((await call(service, 'goto_node', { node_id: node }, caller)).answer.valid).toBe(true);
      expect([channel, reads]).toEqual([channel, channel === 'connection' ? 0 : 3]);
      // The store still holds the session's run: what an HTTP call in the same session would use.
      const runId = (await counted.getSession(opened.sessionId))?.runId;
      expect((await store.read(runId ?? '', 0)).status).toBe('found');
      await service.closeSession(opened.sessionId, 'local');
    }
  });

  it('answers "not applied" when the store fails, and the run is as it was', async () => {
    const store = createMemoryRunStore();
    let failing = false;
    const flaky: RunStore = {
      ...store,
      commit: (...args) => (failing ? Promise.reject(new Error('connection reset\nat socket.js:1')) : store.commit(...args)),
    };
    const service = track(fixtureService({ store: flaky }));
    const caller = { principal: 'local' };
    const runId = (await call(service, 'load_graph', { agent: 'tiny_flow' }, caller)).answer.run_id as string;
    await call(service, 'goto_node', { node_id: 'BEGIN', run_id: runId }, caller);
    failing = true;
    const failed = await call(service, 'goto_node', { node_id: 'STEP', run_id: runId }, caller);
    expect(failed).toEqual({
      isError: true,
      answer: { error: 'The run store is unavailable (connection reset); goto_node was not applied. Try again.' },
    });
    failing = false;
    expect((await call(service, 'goto_node', { node_id: 'STEP', run_id: runId }, caller)).answer.path).toEqual(['BEGIN', 'STEP']);
    expect(await store.audit(runId)).toHaveLength(3);
  });
});
