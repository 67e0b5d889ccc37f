/**
 * Domain servers fail; the gateway does not. With the real retail server and its fault switches
 * (`RETAIL_TOOLS_HANG_ON`, `RETAIL_TOOLS_CRASH_ON`, SIGUSR2 for a list change) and `kill -9`:
 *   - start-up refuses, naming what to fix: a server that cannot be reached, a tool two servers offer, a SOP
 *     tool no server offers;
 *   - a call past its timeout, and a server that dies after receiving a call: the model is told which server, what
 *     happened and that the call may have reached it; the audit log says `unknown`; nothing is retried;
 *   - a killed server: calls fail at once without reaching it while it is down, the gateway reconnects with
 *     backoff, and the conversation goes on;
 *   - `tools/list_changed`: the gateway's list follows, and its own client hears of it.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { CompiledSop, McpServerRef, SopBundle } from '../../../contract/compiled-sop.js';
import { silentLogger } from '../../../runtime/support/logger.js';
import { openDomainTools } from '../../../runtime/upstream/domain-tools.js';
import {
  authenticated,
  type GatewayUnderTest,
  legacyClient,
  REPO_BUNDLE,
  RESERVED_TOOLS,
  RETAIL,
  startGateway,
} from '../../support/gateway.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const retail = REPO_BUNDLE.agents[RETAIL]!;

/** The retail agent with its `mcp_servers` (and maybe tools) changed, as a SOP saying so would compile. */
function retailWith(servers: readonly McpServerRef[], tools: readonly string[] = retail.tools): SopBundle {
  const sop: CompiledSop = { ...retail, tools, meta: { ...retail.meta, mcpServers: servers } };
  return { ...REPO_BUNDLE, agents: { [RETAIL]: sop } };
}

const RETAIL_SERVER: McpServerRef = retail.meta.mcpServers[0]!;

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
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

describe('start-up refuses what is wrong in the configuration, naming what to fix', () => {
  const open = (bundle: SopBundle) =>
    openDomainTools({
      agents: Object.values(bundle.agents),
      root: PROJECT_ROOT,
      logger: silentLogger,
      reserved: RESERVED_TOOLS,
      connectTimeoutMs: 5_000,
    });

  it('never for a server that cannot be reached: it starts without it, lists its tools and keeps trying', async () => {
    const port = await closedPort();
    const logged: string[] = [];
    const opened = await openDomainTools({
      agents: [retailWith([{ name: 'gone', url: `http://127.0.0.1:${port}/mcp` }]).agents[RETAIL]!],
      root: PROJECT_ROOT,
      logger: { ...silentLogger, error: (message: string) => logged.push(message) },
      reserved: RESERVED_TOOLS,
      connectTimeoutMs: 5_000,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    try {
      expect(logged.join('\n')).toMatch(
        new RegExp(
          `^domain server gone \\(http://127\\.0\\.0\\.1:${port}/mcp\\) could not be reached: .*ECONNREFUSED.*: the gateway starts without it`,
          'm',
        ),
      );
      expect(opened.tools.list().map((tool) => tool.name)).toEqual(retail.tools);
      const tool = opened.tools.get('find_user_id_by_email')!;
      expect(tool.upstream.spec.name).toBe('gone');
      expect(await tool.upstream.call('find_user_id_by_email', {}, {})).toMatchObject({ kind: 'failed', reached: 'no' });
    } finally {
      await opened.tools.close();
    }
  });

  it('a tool two servers offer, naming both', async () => {
    const opened = await open(retailWith([RETAIL_SERVER, { ...RETAIL_SERVER, name: 'retail-tools-2' }]));
    expect(!opened.ok && opened.errors).toContain(
      'tool find_user_id_by_email is offered by both retail-tools and retail-tools-2: a call could not say which one it means',
    );
  });

  it('never for a SOP tool that no server offers: it is listed, says so when called, and the log names the SOP, the tool and the servers', async () => {
    const logged: string[] = [];
    const opened = await openDomainTools({
      agents: [retailWith([RETAIL_SERVER], [...retail.tools, 'get_item_details']).agents[RETAIL]!],
      root: PROJECT_ROOT,
      logger: { ...silentLogger, error: (message: string) => logged.push(message) },
      reserved: RESERVED_TOOLS,
      connectTimeoutMs: 5_000,
    });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    try {
      expect(logged).toEqual([
        `${retail.sourceFile} (${RETAIL}) names the tool get_item_details, and its servers (retail-tools) do not offer it: it is listed, and a call of it answers so (sop build --check-tools finds this in CI)`,
      ]);
      expect(opened.tools.get('get_item_details')?.unavailable).toMatch(/^no domain server offers get_item_details: /);
    } finally {
      await opened.tools.close();
    }
  });

  it('an unset variable the SOP names', async () => {
    const opened = await open(retailWith([{ name: 'remote', url: '${RETAIL_URL_THAT_IS_NOT_SET}/mcp' }]));
    expect(!opened.ok && opened.errors).toEqual([
      `${retail.sourceFile} (${RETAIL}): server remote: url: the environment variable RETAIL_URL_THAT_IS_NOT_SET is not set`,
    ]);
  });
});

/** A gateway whose retail server gets `env` (the fault switches) and calls time out after `timeoutMs`. */
async function faultyGateway(env: Record<string, string>, timeoutMs = 30_000): Promise<GatewayUnderTest> {
  return startGateway({
    bundle: retailWith([{ ...RETAIL_SERVER, env: { ...RETAIL_SERVER.env, ...env }, timeout_ms: timeoutMs }]),
    backoff: { initialMs: 200, maxMs: 1_000 },
  });
}

async function atCheckStep(gateway: GatewayUnderTest) {
  const client = await legacyClient(gateway);
  const runId = (await client.call('load_graph', { agent: RETAIL })).answer.run_id as string;
  await authenticated(client);
  await client.call('goto_node', { node_id: 'CHK_CANCEL' });
  return { client, runId };
}

describe('calls that never come back', () => {
  it('a call past its timeout: the model is told it may have reached the server; the audit says unknown', async () => {
    const gateway = await faultyGateway({ RETAIL_TOOLS_HANG_ON: 'get_order_details' }, 800);
    try {
      const { client, runId } = await atCheckStep(gateway);
      const hung = await client.call('get_order_details', { order_id: '#W4817420' });
      expect(hung.isError).toBe(true);
      expect(hung.answer).toMatchObject({ server: 'retail-tools', reached: 'maybe' });
      expect(hung.answer.error).toBe(
        'The domain server retail-tools could not answer get_order_details: no answer within 800 ms (the call may have reached it). ' +
          'The call may have reached it, and whether it took effect is unknown: do not call get_order_details again before checking (read what it would have changed).',
      );
      const audit = await gateway.store.audit(runId, { limit: 100 });
      expect(audit.at(-1)).toMatchObject({
        tool: 'get_order_details',
        outcome: 'unknown',
        detail: { phase: 'answered', reached: 'maybe' },
      });
      // No evidence from a call that did not answer: the run cannot go on from the check step.
      expect((await client.call('goto_node', { node_id: 'IS_PENDING_C' })).answer.valid).toBe(false);
      // The server is still up for the calls that do answer.
      expect((await client.call('get_user_details', { user_id: 'sophia_martin_4832' })).isError).toBe(false);
      await client.close();
    } finally {
      await gateway.close();
    }
  });

  it('a server that dies after applying a change: unknown, never retried; the change is there; the gateway reconnects', async () => {
    const gateway = await faultyGateway({ RETAIL_TOOLS_CRASH_ON: 'cancel_pending_order' });
    try {
      const { client, runId } = await atCheckStep(gateway);
      await client.call('get_order_details', { order_id: '#W4817420' });
      for (const node_id of ['IS_PENDING_C', 'COLLECT_CANCEL', 'DO_CANCEL']) await client.call('goto_node', { node_id });
      const crashed = await client.call('cancel_pending_order', { order_id: '#W4817420', reason: 'no longer needed' });
      expect(crashed.isError).toBe(true);
      expect(crashed.answer).toMatchObject({ server: 'retail-tools', reached: 'maybe' });
      expect(crashed.answer.error).toContain('the connection closed during the call (the server may have received it)');
      expect(gateway.database().orders['#W4817420'].status).toBe('cancelled');
      const cancels = (await gateway.store.audit(runId, { limit: 100 })).filter((entry) => entry.tool === 'cancel_pending_order');
      expect(cancels.map((entry) => entry.outcome)).toEqual(['pending', 'unknown']);
      const upstream = gateway.domain.upstreams[0]!;
      await waitFor(() => upstream.status().state === 'up', 'the gateway to reconnect');
      expect((await client.call('calculate', { expression: '129.99 + 34.99' })).answer).toEqual({ result: 164.98 });
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

describe('a killed domain server', () => {
  it('kill -9 mid-conversation: calls fail at once without reaching it while it is down; then it is back and the run goes on', async () => {
    const gateway = await startGateway({ backoff: { initialMs: 1_500, maxMs: 1_500 } });
    try {
      const { client, runId } = await atCheckStep(gateway);
      const upstream = gateway.domain.upstreams[0]!;
      const pid = upstream.status().pid;
      expect(pid).toBeTypeOf('number');
      process.kill(pid!, 'SIGKILL');
      await waitFor(() => upstream.status().state === 'down', 'the gateway to see the server gone');
      const started = Date.now();
      const down = await client.call('get_order_details', { order_id: '#W4817420' });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(down.answer).toMatchObject({ server: 'retail-tools', reached: 'no' });
      expect(down.answer.error).toMatch(
        /^The domain server retail-tools could not answer get_order_details: retail-tools is down \(the connection closed\); the next attempt to reconnect is in \d+ ms\. The call did not reach it: nothing was done\./,
      );
      await waitFor(() => upstream.status().state === 'up', 'the gateway to reconnect');
      expect(upstream.status().pid).not.toBe(pid);
      expect((await client.call('get_order_details', { order_id: '#W4817420' })).isError).toBe(false);
      expect((await client.call('goto_node', { node_id: 'IS_PENDING_C' })).answer.valid).toBe(true);
      const outcomes = (await gateway.store.audit(runId, { limit: 100 }))
        .filter((entry) => entry.tool === 'get_order_details')
        .map((entry) => entry.outcome);
      // Reads (the server marks get_order_details readOnlyHint) are recorded once, with their outcome.
      expect(outcomes).toEqual(['error', 'ok']);
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

describe('tools/list_changed', () => {
  it("refreshes the gateway's list when the domain server's changes (its clients are told: e2e/gateway-process)", async () => {
    // The SOP names a tool the server offers only after the change: listed until then as unavailable.
    const gateway = await startGateway({ bundle: retailWith([RETAIL_SERVER], [...retail.tools, 'get_store_hours']) });
    try {
      const client = await legacyClient(gateway);
      let told = 0;
      const stop = gateway.service.onToolsChanged(() => {
        told += 1;
      });
      const hours = async () => (await client.client.listTools()).tools.find((tool) => tool.name === 'get_store_hours');
      expect((await hours())?.description).toBe(
        'No domain server offers get_store_hours (the retail_customer_support SOP names it): a call answers an error.',
      );
      process.kill(gateway.domain.upstreams[0]!.status().pid!, 'SIGUSR2');
      await waitFor(() => told > 0, 'the list change');
      stop();
      expect((await hours())?.description).not.toMatch(/^No domain server offers/);
      // Listed as the server offers it; no step of the SOP offers it, so it is never forwarded.
      await client.call('load_graph', { agent: RETAIL });
      await authenticated(client);
      const call = await client.call('get_store_hours', {});
      expect(call.answer).toMatchObject({ refused_by: 'node-tools' });
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});

describe('the database is real', () => {
  it('is the file the test gave the server (nothing else writes it)', async () => {
    const gateway = await startGateway();
    try {
      expect(JSON.parse(readFileSync(gateway.db, 'utf8')).users.sophia_martin_4832.email).toBe('sophia.martin4832@example.com');
    } finally {
      await gateway.close();
    }
  });
});
