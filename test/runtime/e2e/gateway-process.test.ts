/**
 * `sop serve --gateway` as users run it: a real process, the retail SOP's own `mcp_servers` entry starting the
 * example retail server (its database in a temp file through `RETAIL_TOOLS_DB`), and official SDK clients:
 *   - stdio, a 2026-07-28 client (v2) whose user answers yes: the seed walkthrough with every domain call at its
 *     step succeeds, asking the user before each of the three changes, and the database shows exactly them;
 *   - stdio, a 2025-era client (v1) that declared elicitation: the same, asked through the SDK's elicitation
 *     request (its tool calls skip the direct path plain calls take, which cannot ask);
 *   - stdio, a 2025-era client (v1): a domain server's tools/list_changed reaches it;
 *   - Streamable HTTP, a 2025-era client (v1, which cannot be asked mid-call over HTTP): the same walkthrough with
 *     the confirmation steps standing in; `sop runs show` lists every domain call with the rule that decided it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { callOn, SEED_DB } from '../../support/gateway.js';
import { playSeedWalkthrough } from '../../support/gateway-walkthrough.js';
import { CLI, PROJECT_ROOT, runCli } from '../../support/run-cli.js';
import { startServe } from '../../support/serve-process.js';

const dir = mkdtempSync(join(tmpdir(), 'sop-gateway-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GATEWAY_ARGS = ['serve', '--gateway', '--agents', 'retail_customer_support'];
const seed = JSON.parse(readFileSync(SEED_DB, 'utf8'));

function databaseAt(file: string): any {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The changes the walkthrough makes, checked on the database the retail server wrote, and nothing else. */
function expectWalkthroughChanges(file: string, result: Awaited<ReturnType<typeof playSeedWalkthrough>>): void {
  const db = databaseAt(file);
  expect(db.orders[result.pendingOrder].address).toEqual(result.address);
  expect(db.users.sophia_martin_4832.address).toEqual(result.address);
  expect(db.orders[result.tabletOrder]).toMatchObject({ status: 'exchange requested' });
  const changedOrders = Object.keys(db.orders).filter((id) => JSON.stringify(db.orders[id]) !== JSON.stringify(seed.orders[id]));
  expect(changedOrders.sort()).toEqual([result.pendingOrder, result.tabletOrder].sort());
}

/** `sop serve --gateway` over stdio, as a client spawns it, the retail server's database in `db`. */
function gatewayOverStdio(db: string) {
  return {
    command: process.execPath,
    args: [CLI, ...GATEWAY_ARGS],
    cwd: PROJECT_ROOT,
    env: { ...getDefaultEnvironment(), RETAIL_TOOLS_DB: db },
    stderr: 'pipe' as const,
  };
}

/**
 * The seed walkthrough through `client`, whose user answers yes (the questions land in `asked`): asked before each of
 * the three changes, and the database shows exactly them. Closes the client.
 */
async function expectAskedBeforeEachChange(
  client: { callTool: Parameters<typeof callOn>[0]['callTool']; close(): Promise<void> },
  asked: readonly string[],
  db: string,
): Promise<void> {
  try {
    const result = await playSeedWalkthrough((name, args) => callOn(client, name, args), { passRunId: false });
    expect(asked.map((message) => message.match(/asks to call (\w+)/)?.[1])).toEqual([
      'modify_pending_order_address',
      'modify_user_address',
      'exchange_delivered_order_items',
    ]);
    expectWalkthroughChanges(db, result);
  } finally {
    await client.close();
  }
}

/** The process ids of `pid`'s children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('sop serve --gateway over stdio', () => {
  it('plays the seed walkthrough for a 2026-07-28 client, asking its user before each change', async () => {
    const db = join(dir, 'stdio.json');
    const asked: string[] = [];
    const client = new ClientV2(
      { name: 'e2e', version: '0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StdioV2(gatewayOverStdio(db)));
    await expectAskedBeforeEachChange(client, asked, db);
  });

  it('plays it for a 2025-era client that declared elicitation, asking its user before each change (its calls go the SDK way)', async () => {
    const db = join(dir, 'stdio-v1.json');
    const asked: string[] = [];
    const client = new ClientV1({ name: 'e2e', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StdioV1(gatewayOverStdio(db)));
    await expectAskedBeforeEachChange(client, asked, db);
  });

  it("follows a domain server's tools/list_changed, and lists only what the SOP names: a new tool it does not name stays out", async () => {
    const transport = new StdioV1(gatewayOverStdio(join(dir, 'notify.json')));
    const client = new ClientV1({ name: 'e2e', version: '0' });
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      told += 1;
    });
    await client.connect(transport);
    try {
      const before = (await client.listTools()).tools.map((tool) => tool.name);
      const [retailServer] = childrenOf(transport.pid!);
      expect(retailServer).toBeTypeOf('number');
      process.kill(retailServer!, 'SIGUSR2');
      // The server now offers get_store_hours, which the SOP does not name: the gateway lists it not, nor forwards it.
      let logged = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        logged += chunk.toString('utf8');
      });
      for (let waited = 0; !logged.includes('get_store_hours added') && waited < 15_000; waited += 25)
        await new Promise((resolve) => setTimeout(resolve, 25));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(told).toBe(0);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(before);
      await expect(client.callTool({ name: 'get_store_hours', arguments: {} })).rejects.toThrow(/Unknown tool: get_store_hours/);
    } finally {
      await client.close();
    }
  });
});

describe('sop serve --gateway --http', () => {
  it('plays the walkthrough for a 2025-era client, asking its user on each change, and sop runs show explains each call', async () => {
    const db = join(dir, 'http.json');
    const store = `sqlite:${join(dir, 'runs.db')}`;
    const server = await startServe(['--gateway', '--agents', 'retail_customer_support', '--store', store], PROJECT_ROOT, {
      RETAIL_TOOLS_DB: db,
    });
    const client = new ClientV1({ name: 'e2e', version: '0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      expect(server.stderr()).toContain('gateway to 1 domain server(s) (retail-tools), 15 domain tool(s)');
      await client.connect(new HttpV1(new URL(server.url)));
      const result = await playSeedWalkthrough((name, args) => callOn(client, name, args), { passRunId: true });
      expectWalkthroughChanges(db, result);
      const shown = runCli(['runs', 'show', result.runId, '--store', store, '--format', 'json'], PROJECT_ROOT);
      expect(shown.code, shown.stderr).toBe(0);
      const audit = JSON.parse(shown.stdout).audit as {
        tool: string;
        outcome: string;
        detail?: { phase: string; rule: string; confirmation?: string };
      }[];
      const exchange = audit.filter((entry) => entry.tool === 'exchange_delivered_order_items');
      expect(exchange.map((entry) => [entry.outcome, entry.detail?.phase, entry.detail?.rule, entry.detail?.confirmation])).toEqual([
        ['pending', 'decided', 'confirmation', 'asked'],
        ['pending', 'forwarding', 'confirmation', 'yes'],
        ['ok', 'answered', 'confirmation', 'yes'],
      ]);
      expect(asked.some((message) => message.includes('exchange_delivered_order_items'))).toBe(true);
      expect(audit.filter((entry) => entry.detail?.phase === 'answered' && entry.outcome !== 'ok')).toEqual([]);
      // The audit log of a gateway holds the domain calls: sop replay checks them (and how each was confirmed).
      const log = join(dir, 'run.json');
      writeFileSync(log, shown.stdout);
      const replayed = runCli(['replay', log, '--format', 'json'], PROJECT_ROOT);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      const report = JSON.parse(replayed.stdout);
      expect(report).toMatchObject({ verdict: 'pass', checked: { moves: true, domain_tools: true, confirmations: true } });
      expect(report.conformance.fitness).toBe(1);
      // The runs page's API serves the same entries, detail included (the page shows what decided each call).
      const page = (await (await fetch(new URL(`/runs/api/runs/${result.runId}`, server.url))).json()) as {
        audit: { tool: string; detail?: object }[];
      };
      expect(page.audit.find((entry) => entry.tool === 'exchange_delivered_order_items')?.detail).toMatchObject({
        server: 'retail-tools',
        rule: 'confirmation',
      });
      const text = runCli(['runs', 'show', result.runId, '--store', store], PROJECT_ROOT).stdout;
      expect(text).toMatch(
        /exchange_delivered_order_items +ok +retail-tools, confirmation \(confirm_before_changes\), confirmation: yes, [\d.]+ ms upstream +DO_EXCH → DO_EXCH/,
      );
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
