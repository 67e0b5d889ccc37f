/**
 * Putting the gateway in front of a production agent, with the real retail server upstream and a real SDK client:
 *   - observe mode (`--observe`) sends every call of a SOP tool and makes every legal move, wherever the run stands
 *     (an agent that never calls load_graph or goto_node included), and audits what enforcement would have decided;
 *     `sop runs report` sums it per node and rule, with example runs, from the store (SQLite, through the CLI);
 *   - only the SOPs' tools are listed and forwarded;
 *   - a domain server down at start leaves the gateway up: its tools answer a tool error naming it and what happened,
 *     it keeps reconnecting, and once it is up its tools work and the clients are told;
 *   - `sop init`'s example SOP (tools, no mcp_servers) starts the gateway: its tools answer that no server offers them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, type CompiledSop, type SopBundle } from '../../../contract/compiled-sop.js';
import { EXAMPLE_SOP, EXAMPLE_SOP_FILE } from '../../../cli/commands/init-example-sop.js';
import { openSqliteRunStore } from '../../../runtime/store/sqlite-run-store.js';
import { domainDetailOf } from '../../../runtime/store/run-store.js';
import { compiledFromText } from '../../support/compiled-from-text.js';
import { authenticated, compiledFixture, legacyClient, REPO_BUNDLE, RETAIL, startGateway } from '../../support/gateway.js';
import { runCli } from '../../support/run-cli.js';
import { type ScriptedServer, startScriptedServer } from '../../support/scripted-server.js';

const SOPHIA_PENDING = '#W4817420';
const retail = REPO_BUNDLE.agents[RETAIL]!;
const dir = mkdtempSync(join(tmpdir(), 'sop-rollout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('observe mode', () => {
  it('sends what enforcement would hold back, makes the moves it would hold, asks no one, and audits what it would have decided', async () => {
    const gateway = await startGateway({ observe: true });
    try {
      const client = await legacyClient(gateway, 'yes');
      const runId = (await client.call('load_graph', { agent: RETAIL })).answer.run_id as string;
      await client.call('goto_node', { node_id: 'START' });
      await client.call('goto_node', { node_id: 'AUTH' });
      // Enforcing, the move waits for a lookup that found the user; observing, it is made.
      expect((await client.call('goto_node', { node_id: 'ROUTE' })).answer).toMatchObject({
        valid: true,
        path: ['START', 'AUTH', 'ROUTE'],
      });
      // A change at a step that does not offer it, with no order read and no confirmation: sent, the user not asked.
      const cancelled = await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' });
      expect(cancelled.isError).toBe(false);
      expect(client.asked).toEqual([]);
      expect(gateway.database().orders[SOPHIA_PENDING].status).toBe('cancelled');
      // Moves the transition rule refuses stay refused: that is navigation, not enforcement.
      expect((await client.call('goto_node', { node_id: 'DO_CANCEL' })).answer.valid).toBe(false);
      const audit = await gateway.store.audit(runId, { limit: 100 });
      const move = audit.find((entry) => entry.tool === 'goto_node' && entry.to === 'ROUTE')!;
      expect(move.detail).toMatchObject({ kind: 'move', would: { decision: 'refuse', rule: 'evidence' } });
      const sent = audit
        .filter((entry) => entry.tool === 'cancel_pending_order')
        .map((entry) => [entry.outcome, domainDetailOf(entry)?.phase]);
      expect(sent).toEqual([
        ['pending', 'forwarding'],
        ['ok', 'answered'],
      ]);
      const answered = domainDetailOf(audit.find((entry) => entry.tool === 'cancel_pending_order' && entry.outcome === 'ok')!)!;
      expect(answered.would).toMatchObject({ decision: 'refuse', rule: 'node-tools' });
      expect(answered.would?.reason).toMatch(/^cancel_pending_order is not offered at ROUTE: it is offered at DO_CANCEL\./);
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('observes an agent that never calls load_graph nor goto_node: its first domain call starts the run', async () => {
    const gateway = await startGateway({ observe: true });
    try {
      const client = await legacyClient(gateway);
      const found = await client.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });
      expect(found.answer).toEqual({ user_id: 'sophia_martin_4832' });
      expect((await client.call('get_order_details', { order_id: SOPHIA_PENDING })).isError).toBe(false);
      const [run] = await gateway.store.list({});
      const audit = await gateway.store.audit(run!.runId, { limit: 100 });
      expect(audit.map((entry) => [entry.tool, domainDetailOf(entry)?.would?.rule ?? null])).toEqual([
        ['load_graph', null],
        ['find_user_id_by_email', 'no-position'],
        ['get_order_details', 'no-position'],
      ]);
      expect(audit[0]!.detail).toEqual({ kind: 'start', gateway: true, implicit: true });
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('sop runs report sums what would have been held back, per node and rule, with example runs', async () => {
    const path = join(dir, 'runs.db');
    const opened = await openSqliteRunStore({ path });
    if (!opened.ok) throw new Error(opened.error);
    const gateway = await startGateway({ observe: true, store: opened.store });
    const runIds: string[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const client = await legacyClient(gateway);
        runIds.push((await client.call('load_graph', { agent: RETAIL })).answer.run_id as string);
        for (const node_id of ['START', 'AUTH', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING_C']) await client.call('goto_node', { node_id });
        await client.call('get_user_details', { user_id: 'sophia_martin_4832' });
        await client.close();
      }
    } finally {
      await gateway.close();
    }
    const json = runCli(['runs', 'report', '--store', `sqlite:${path}`, '--agent', RETAIL, '--since', '1d', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      runs: number;
      rows: { node: string; rule: string; mode: string; count: number; runs: number; examples: { runId: string }[] }[];
    };
    expect(report.runs).toBe(2);
    // Each run left AUTH and CHK_CANCEL without their evidence, and read the user at the status decision.
    expect(report.rows.map((row) => [row.node, row.rule, row.mode, row.count, row.runs])).toEqual([
      ['AUTH', 'evidence', 'would', 2, 2],
      ['CHK_CANCEL', 'evidence', 'would', 2, 2],
      ['IS_PENDING_C', 'node-tools', 'would', 2, 2],
    ]);
    expect(report.rows[0]!.examples.map((example) => example.runId).sort()).toEqual([...runIds].sort());
    const text = runCli(['runs', 'report', '--store', `sqlite:${path}`]);
    expect(text.stdout).toContain(`${RETAIL}  AUTH  move  evidence: would refuse 2 times in 2 runs`);
    expect(runCli(['runs', 'report', '--store', `sqlite:${path}`, '--since', 'yesterday']).code).toBe(2);
  });

  it('sop runs report judges the runs that never moved along the walk that best explains their calls', async () => {
    const path = join(dir, 'unmoved.db');
    const opened = await openSqliteRunStore({ path });
    if (!opened.ok) throw new Error(opened.error);
    const gateway = await startGateway({ observe: true, store: opened.store });
    try {
      const client = await legacyClient(gateway);
      await client.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });
      await client.call('get_order_details', { order_id: SOPHIA_PENDING });
      expect((await client.call('cancel_pending_order', { order_id: SOPHIA_PENDING, reason: 'no longer needed' })).isError).toBe(false);
      await client.close();
    } finally {
      await gateway.close();
    }
    const json = runCli(['runs', 'report', '--store', `sqlite:${path}`, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      calls: number;
      rows: { node: string | null; rule: string; count: number }[];
      never_moved: { runs: number; clean: number; rows: { node: string; rule: string; policy?: string; count: number; runs: number }[] };
    };
    // Three calls (the change is audited twice, forwarding and answered: counted once), each refused for want of a position.
    expect(report.calls).toBe(3);
    expect(report.rows.map((row) => [row.node, row.rule, row.count])).toEqual([[null, 'no-position', 3]]);
    // Along the walk its calls imply (START, AUTH, ROUTE, CHK_CANCEL, …, DO_CANCEL), the cancellation had no yes.
    expect(report.never_moved).toMatchObject({ runs: 1, clean: 0 });
    expect(report.never_moved.rows.map((row) => [row.node, row.rule, row.policy, row.count, row.runs])).toEqual([
      ['DO_CANCEL', 'unconfirmed_call', 'confirm_before_changes', 1, 1],
    ]);
    const text = runCli(['runs', 'report', '--store', `sqlite:${path}`]).stdout;
    expect(text).toContain('1 run never moved (the agent calls its tools and never goto_node)');
    expect(text).toContain(`${RETAIL}  DO_CANCEL  unconfirmed_call (confirm_before_changes): 1 time in 1 run`);
  });
});

describe('only the SOPs’ tools', () => {
  it('lists and forwards only the tools the served SOPs name', async () => {
    const gateway = await startGateway();
    try {
      const listed = gateway.service.tools().map((tool) => tool.name);
      expect(listed.slice(4)).toEqual(retail.tools.filter((tool) => listed.includes(tool)));
      expect(new Set(listed.slice(4))).toEqual(new Set(retail.tools));
    } finally {
      await gateway.close();
    }
  });
});

/** A loopback port nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitFor(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('never down for one server', () => {
  it('starts without a server that is down, answers its tools with what happened, and serves them once it is up', async () => {
    const port = await freePort();
    // Two agents: the retail one on its stdio server (up), and one whose memory server is not listening yet.
    const keeper = compiledFixture('test/fixtures/gateway/knowledge_keeper.md').agents.knowledge_keeper!;
    const remote: CompiledSop = {
      ...keeper,
      meta: { ...keeper.meta, mcpServers: [{ name: 'memory-remote', url: `http://127.0.0.1:${port}/mcp` }] },
    };
    const bundle: SopBundle = { format: BUNDLE_FORMAT, agents: { [RETAIL]: retail, knowledge_keeper: remote } };
    const gateway = await startGateway({ bundle, agents: [RETAIL, 'knowledge_keeper'], backoff: { initialMs: 200, maxMs: 400 } });
    let memory: ScriptedServer | undefined;
    try {
      // The retail agent works.
      const local = await legacyClient(gateway);
      await local.call('load_graph', { agent: RETAIL });
      await authenticated(local);
      await local.close();
      // The other agent's tools are listed, and a call says which server cannot be reached and that nothing was sent.
      expect(gateway.service.tools().map((tool) => tool.name)).toEqual(expect.arrayContaining([...keeper.tools]));
      const client = await legacyClient(gateway);
      await client.call('load_graph', { agent: 'knowledge_keeper' });
      for (const node_id of ['START', 'LOOKUP']) await client.call('goto_node', { node_id });
      const down = await client.call('read_graph', { call: 'c1' });
      expect(down.isError).toBe(true);
      expect(down.answer).toMatchObject({ server: 'memory-remote', reached: 'no' });
      expect(down.answer.error).toMatch(/^The domain server memory-remote could not answer read_graph: memory-remote is down/);
      // Up: it is reconnected to, its tools are listed as it offers them, and the call goes through.
      memory = await startScriptedServer(keeper.tools, port);
      memory.answers.set('c2', { text: '{"entities":[],"relations":[]}', structuredContent: { entities: [], relations: [] } });
      const upstream = gateway.domain.upstreams.find((u) => u.spec.name === 'memory-remote')!;
      await waitFor(() => upstream.status().state === 'up', 'the gateway to reach the server');
      await waitFor(
        () =>
          gateway.service.tools().find((tool) => tool.name === 'read_graph')?.description === "read_graph, answered from the test's script",
        'the listed tool to be the server’s',
      );
      const read = await client.call('read_graph', { call: 'c2' });
      expect(read.isError, read.text).toBe(false);
      await client.close();
    } finally {
      await memory?.close();
      await gateway.close();
    }
  });

  it("starts for sop init's example SOP (tools, no mcp_servers): its tools say that no server offers them", async () => {
    const sop = compiledFromText(EXAMPLE_SOP, `sops/${EXAMPLE_SOP_FILE}`);
    const gateway = await startGateway({ bundle: { format: BUNDLE_FORMAT, agents: { [sop.meta.agent]: sop } } });
    try {
      expect(gateway.service.tools().map((tool) => tool.name)).toEqual([
        'load_graph',
        'goto_node',
        'todo',
        'inspect',
        'lookup_order',
        'create_ticket',
      ]);
      const client = await legacyClient(gateway);
      await client.call('load_graph', { agent: sop.meta.agent });
      for (const node_id of ['START', 'GREET', 'ROUTE', 'ORDER']) await client.call('goto_node', { node_id });
      const call = await client.call('lookup_order', { order_id: '1042' });
      expect(call.isError).toBe(true);
      expect(call.answer.error).toMatch(
        /^no domain server offers lookup_order: sops\/example_support\.md \(example_support\) names the tool lookup_order and no mcp_servers/,
      );
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});
