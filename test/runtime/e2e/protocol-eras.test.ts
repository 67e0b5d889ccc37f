/**
 * Both MCP protocol eras on one server, with the official clients of both SDK lines, over real processes:
 *   - 2025-era clients: the v1 SDK's `Client` (`@modelcontextprotocol/sdk`, what most agent frameworks embed)
 *     and the v2 `Client` in its default mode, both opening with `initialize`;
 *   - 2026-07-28 clients: the v2 `Client` pinned to that revision (no handshake: `server/discover`, then every
 *     request carries its own `_meta` envelope) and in `auto` mode (probes, finds the modern era).
 * Over stdio (`sop serve`, one conversation per process) and Streamable HTTP (`sop serve --http`, all four at
 * once on one process). Each client walks the retail agent a few moves; the tool list is the same for all.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT_ROOT } from '../../support/run-cli.js';
import { type ServeProcess, startServe } from '../../support/serve-process.js';

const AGENT = 'retail_customer_support';
const MODERN = '2026-07-28';

/** What the tests need of a client of either line. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<{ structuredContent?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

type ClientKind = 'v1' | 'v2-legacy' | 'v2-pinned' | 'v2-auto';
const KINDS: readonly ClientKind[] = ['v1', 'v2-legacy', 'v2-pinned', 'v2-auto'];

function makeClient(kind: ClientKind): ClientV1 | ClientV2 {
  const info = { name: `eras-${kind}`, version: '0.0.0' };
  if (kind === 'v1') return new ClientV1(info);
  if (kind === 'v2-legacy') return new ClientV2(info);
  return new ClientV2(info, { versionNegotiation: { mode: kind === 'v2-pinned' ? { pin: MODERN } : 'auto' } });
}

/** load_graph, then a short legal walk, passing run_id always (so it works with and without a session). */
async function walk(client: AnyClient): Promise<{ runId: string; path: unknown }> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent as Record<string, unknown>;
  };
  const runId = (await call('load_graph', { agent: AGENT })).run_id as string;
  await call('goto_node', { node_id: 'START', run_id: runId });
  await call('goto_node', { node_id: 'AUTH', run_id: runId });
  const last = await call('goto_node', { node_id: 'ROUTE', run_id: runId });
  return { runId, path: last.path };
}

describe('stdio: one process per conversation, either era', () => {
  it.each(KINDS)('%s connects, lists the same tools and walks the agent', async (kind) => {
    const client = makeClient(kind);
    const params = { command: process.execPath, args: [CLI, 'serve'], cwd: PROJECT_ROOT, stderr: 'pipe' as const };
    await client.connect(client instanceof ClientV2 ? new StdioV2(params) : new StdioV1(params));
    try {
      if (client instanceof ClientV2) {
        expect(client.getProtocolEra()).toBe(kind === 'v2-legacy' ? 'legacy' : 'modern');
        if (kind !== 'v2-legacy') expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      }
      const { tools } = await (client as AnyClient).listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['load_graph', 'goto_node', 'todo', 'inspect']);
      expect((await walk(client as AnyClient)).path).toEqual(['START', 'AUTH', 'ROUTE']);
      // Over stdio the connection is the conversation in both eras: the current run is implied.
      const implied = await (client as AnyClient).callTool({ name: 'inspect', arguments: {} });
      expect(implied.structuredContent).toMatchObject({ current_node: { id: 'ROUTE' }, path: ['START', 'AUTH', 'ROUTE'] });
    } finally {
      await client.close();
    }
  });
});

describe('Streamable HTTP: both eras at once on one server', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(['--store', 'memory'], PROJECT_ROOT);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves clients of every kind concurrently, each run its own', async () => {
    const clients = await Promise.all(
      KINDS.map(async (kind) => {
        const client = makeClient(kind);
        const url = new URL(server.url);
        await client.connect(client instanceof ClientV2 ? new HttpV2(url) : new HttpV1(url));
        return { kind, client };
      }),
    );
    try {
      for (const { kind, client } of clients) {
        if (client instanceof ClientV2) expect(client.getProtocolEra(), kind).toBe(kind === 'v2-legacy' ? 'legacy' : 'modern');
      }
      const walks = await Promise.all(clients.map(({ client }) => walk(client as AnyClient)));
      expect(new Set(walks.map((w) => w.runId)).size).toBe(KINDS.length);
      for (const w of walks) expect(w.path).toEqual(['START', 'AUTH', 'ROUTE']);
    } finally {
      await Promise.all(clients.map(({ client }) => client.close()));
    }
  });

  it('a 2026-07-28 client has no session: a call without run_id is told to pass one, and one with it acts on that run', async () => {
    const client = makeClient('v2-pinned') as ClientV2;
    await client.connect(new HttpV2(new URL(server.url)));
    try {
      const { runId } = await walk(client as AnyClient);
      const without = await client.callTool({ name: 'goto_node', arguments: { node_id: 'START' } });
      expect(without.isError).toBe(true);
      expect((without.structuredContent as { error: string }).error).toMatch(/^No run: call load_graph first/);
      const withRun = await client.callTool({ name: 'inspect', arguments: { run_id: runId } });
      expect(withRun.structuredContent).toMatchObject({ current_node: { id: 'ROUTE' }, path: ['START', 'AUTH', 'ROUTE'] });
    } finally {
      await client.close();
    }
  });

  it('answers server/discover with the 2026-07-28 revision and the same tools to both eras', async () => {
    const modern = makeClient('v2-pinned') as ClientV2;
    const legacy = makeClient('v1') as ClientV1;
    await modern.connect(new HttpV2(new URL(server.url)));
    await legacy.connect(new HttpV1(new URL(server.url)));
    try {
      expect(modern.getDiscoverResult()?.supportedVersions).toContain(MODERN);
      expect(modern.getDiscoverResult()?.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: {} });
      const [a, b] = await Promise.all([modern.listTools(), legacy.listTools()]);
      expect(a.tools).toEqual(b.tools);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('an unknown tool is a JSON-RPC -32602 error in both eras', async () => {
    for (const kind of ['v1', 'v2-pinned'] as const) {
      const client = makeClient(kind);
      const url = new URL(server.url);
      await client.connect(client instanceof ClientV2 ? new HttpV2(url) : new HttpV1(url));
      await expect((client as AnyClient).callTool({ name: 'no_such_tool', arguments: {} }), kind).rejects.toMatchObject({ code: -32602 });
      await client.close();
    }
  });

  it('answers initialize inside a 2026-07-28 envelope as a removed method (404, -32601), and without one as the 2025 handshake', async () => {
    const post = (params: object, version?: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(version === undefined ? {} : { 'mcp-protocol-version': version }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'initialize', params }),
      });
    const modern = await post({
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} },
    });
    expect(modern.status).toBe(404);
    expect(await modern.json()).toMatchObject({
      id: 9,
      error: {
        code: -32601,
        message: expect.stringMatching(/^Method not found: initialize is not part of MCP 2026-07-28; start with server\/discover/),
      },
    });
    const legacy = await post({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('mcp-session-id')).toMatch(/.+/);
  });
});
