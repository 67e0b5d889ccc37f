/**
 * Streamable HTTP for the retail server at `/mcp` on 127.0.0.1, both protocol eras on one endpoint:
 *   - 2026-07-28 requests (they carry the `_meta` envelope) go to the SDK's `createMcpHandler`, one server per
 *     request; `subscriptions/listen` streams get `notifications/tools/list_changed` through `handler.notify`.
 *   - 2025-era requests (`initialize`, then `Mcp-Session-Id`) are served by sessions: one SDK server and one
 *     sessionful transport per session, so a client's GET event stream receives `tools/list_changed` too (the
 *     SDK's stateless legacy fallback has no such stream). DELETE ends a session; their number is capped.
 * Host and Origin must be loopback names (DNS rebinding), checked before either era is served.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpServer,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { RetailServerFactory } from './retail-server.js';

export const MCP_PATH = '/mcp';
const MAX_SESSIONS = 256;

export interface RetailHttpOptions {
  readonly factory: RetailServerFactory;
  /** 0 picks a free port. */
  readonly port: number;
  readonly log: (line: string) => void;
  /** Serve the 2025 era only: every request goes to the sessions, as on a server of the SDK's v1 line. */
  readonly legacyOnly?: boolean;
}

export interface RetailHttpServer {
  readonly port: number;
  readonly url: string;
  /** Tells the 2026-07-28 listen streams that the tool list changed (2025-era sessions hear it from their server). */
  toolsChanged(): void;
  close(): Promise<void>;
}

interface LegacySession {
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

export async function serveRetailHttp(options: RetailHttpOptions): Promise<RetailHttpServer> {
  const { factory, log } = options;
  const onerror = (error: Error) => log(`HTTP: ${error.message}`);
  const modern = createMcpHandler(() => factory(false), { legacy: 'reject', onerror });
  const sessions = new Map<string, LegacySession>();

  const legacy = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined) return jsonRpcError(404, 'Session not found: it ended or never existed; start a new one with initialize');
      const response = await session.transport.handleRequest(request);
      // Tests wait for this line before changing the tool list: from here on, the session hears about it.
      if (request.method === 'GET' && response.ok) log(`session ${sessionId}: notification stream open`);
      return response;
    }
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (body === NOT_JSON) return jsonRpcError(400, 'Parse error: the request body is not JSON', -32700);
    if (!isInitializeRequest(body)) {
      return jsonRpcError(400, 'Bad Request: send initialize first, then the Mcp-Session-Id it answers on every request');
    }
    if (sessions.size >= MAX_SESSIONS) return jsonRpcError(503, `Too many open sessions (${MAX_SESSIONS}): end one with DELETE first`);
    const server = factory(true);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        server.close().catch(onerror);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };

  const route = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path !== MCP_PATH) return jsonRpcError(404, `Not found: ${path}; the MCP endpoint is ${MCP_PATH}`);
    const rejected =
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? originValidationResponse(request, localhostAllowedOrigins());
    if (rejected !== undefined) return rejected;
    return options.legacyOnly === true || (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
  };

  const httpServer = createServer({ headersTimeout: 10_000 }, toNodeHandler({ fetch: route }, { onerror }));
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    toolsChanged: () => modern.notify.toolsChanged(),
    async close() {
      await modern.close();
      await Promise.all([...sessions.values()].map((session) => session.server.close().catch(onerror)));
      sessions.clear();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

const NOT_JSON = Symbol('not JSON');

async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.clone().json();
  } catch {
    return NOT_JSON;
  }
}

function jsonRpcError(status: number, message: string, code = -32000): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
