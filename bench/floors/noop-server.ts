/**
 * The floor the runtime is compared with: the smallest honest MCP server the SDK allows, with one no-op tool
 * taking the same input shape as `goto_node` (one string), answering a constant text. Whatever the runtime
 * costs above this is ours; what this costs is the SDK's and Node's.
 *
 *   node dist/bench/floors/noop-server.js                  stdio
 *   node dist/bench/floors/noop-server.js --http --port N  Streamable HTTP on 127.0.0.1 (N = 0: any free port)
 *   node dist/bench/floors/noop-server.js --update URL     stdio; before it answers, the tool makes the writes
 *                                                          a commit makes (run row, audit row), raw, in one round
 *                                                          trip on the PostgreSQL database at URL: the least a
 *                                                          call that commits there can cost
 *
 *   node dist/bench/floors/noop-server.js --sdk v1         stdio, on the SDK's v1 line (@modelcontextprotocol/sdk)
 *                                                          instead of the v2 line the runtime is built on
 *
 * Over HTTP it follows the SDK's documented stateful pattern: one McpServer and one transport per session,
 * default SSE answers, DELETE ends a session. It prints `listening <port>` on stdout once it accepts requests.
 * (The HTTP floor stays on v1's sessionful transport: v2 serves 2025-era clients per request only, and a
 * per-session server is the cheapest a 2025 client can be served.)
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { serveStdio as serveStdioV2 } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const NOOP_TOOL = 'noop';

/** The tool's only work besides answering: the writes of a commit with `--update` (checked, as `openFloor`), else none. */
type Work = () => Promise<unknown>;

function noopServer(work?: Work): McpServer {
  const server = new McpServer({ name: 'bench-noop-floor', version: '1.0.0' });
  const answer = { content: [{ type: 'text' as const, text: 'ok' }] };
  server.registerTool(
    NOOP_TOOL,
    { description: 'Does nothing.', inputSchema: { node_id: z.string() } },
    work === undefined
      ? () => answer
      : async () => {
          await work();
          return answer;
        },
  );
  return server;
}

/** The same tool on the SDK's v2 line, served as a v2 user would: `serveStdio` over a factory, both eras. */
function noopServerV2(work?: Work): McpServerV2 {
  const server = new McpServerV2({ name: 'bench-noop-floor', version: '1.0.0' });
  const answer = { content: [{ type: 'text' as const, text: 'ok' }] };
  server.registerTool(
    NOOP_TOOL,
    { description: 'Does nothing.', inputSchema: z.object({ node_id: z.string() }) },
    work === undefined
      ? () => answer
      : async () => {
          await work();
          return answer;
        },
  );
  return server;
}

async function serveStdio(sdk: 'v1' | 'v2', work?: Work): Promise<void> {
  if (sdk === 'v2') serveStdioV2(() => noopServerV2(work));
  else await noopServer(work).connect(new StdioServerTransport());
}

function serveHttp(port: number): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (req.method !== 'POST' || id !== undefined) {
      res.writeHead(404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await noopServer().connect(transport);
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  http.keepAliveTimeout = 60_000;
  http.listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening ${(http.address() as AddressInfo).port}\n`);
  });
}

const args = process.argv.slice(2);
const sdk = args.includes('--sdk') && args[args.indexOf('--sdk') + 1] === 'v1' ? 'v1' : 'v2';
const updateUrl = args.includes('--update') ? args[args.indexOf('--update') + 1] : undefined;
if (args.includes('--http')) {
  const i = args.indexOf('--port');
  serveHttp(i >= 0 ? Number(args[i + 1]) : 0);
} else if (updateUrl !== undefined) {
  // Loaded only here: the plain floor's start-up (the cold-start row's floor) must not pay for the driver.
  const { openFloor } = await import('../../test/support/store-latency.js');
  const floor = await openFloor(updateUrl);
  await serveStdio(sdk, () => floor.timeChecked());
} else {
  await serveStdio(sdk);
}
