/**
 * Streamable HTTP transport: `POST|GET|DELETE /mcp`, one SDK transport and one `createSopServer` per
 * `Mcp-Session-Id`, all sharing one `SessionStore` keyed by that id, so sessions never see each other's
 * state. Bound to 127.0.0.1 by default.
 *
 * Where the SDK's defaults fall short, this does better (see shared/design/mcp-testing.md):
 *   - Host *and* Origin are checked (`request-guard.ts`): a foreign Origin is 403 even with a good Host;
 *   - a body that is not JSON is a JSON-RPC -32700 error as JSON, not express's HTML page;
 *   - an unknown or ended session is 404, and DELETE ends a session (state dropped, later requests 404);
 *   - anything else under the server (wrong path, method) is a JSON-RPC error too.
 * Responses use the SDK's default SSE framing: `enableJsonResponse` leaks memory per call in SDK 1.32.2.
 */
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express, { type NextFunction, type Request, type Response } from 'express';
import { logError } from '../log.js';
import { createSopServer, type SopServerOptions } from '../mcp/create-sop-server.js';
import { createMemorySessionStore } from '../session/memory-session-store.js';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, SERVER_ERROR, sendJsonRpcError } from './json-rpc-error.js';
import { LOOPBACK_HOSTNAMES, requestGuard } from './request-guard.js';

export const MCP_PATH = '/mcp';
const MAX_BODY = '1mb';

export interface HttpServeOptions extends SopServerOptions {
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Hostnames accepted in Host/Origin; default: the loopback names plus `host` (unless a wildcard). */
  readonly allowedHosts?: readonly string[];
  /** Extra browser origins accepted verbatim. */
  readonly allowedOrigins?: readonly string[];
}

export interface SopHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly port: number;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
}

export async function serveHttp(options: HttpServeOptions): Promise<SopHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const store = options.store ?? createMemorySessionStore();
  const sessions = new Map<string, Session>();

  const drop = (id: string): void => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    void store.delete(id);
    void session.server.close().catch((error: unknown) => logError(`closing session ${id}`, error));
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(requestGuard({ hostnames: options.allowedHosts ?? defaultHostnames(host), origins: options.allowedOrigins ?? [] }));

  app.post(MCP_PATH, express.json({ limit: MAX_BODY }), async (req: Request, res: Response) => {
    const id = req.header('mcp-session-id');
    if (id !== undefined) {
      const session = sessions.get(id);
      if (session === undefined) return unknownSession(res);
      return session.transport.handleRequest(req, res, req.body);
    }
    if (!isInitializeRequest(req.body)) {
      return sendJsonRpcError(res, 400, SERVER_ERROR, 'Bad Request: no Mcp-Session-Id header; a session starts with an initialize request');
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (newId) => {
        sessions.set(newId, { transport, server });
      },
      onsessionclosed: drop,
    });
    // Set before connect(): the server chains its own close handling behind it.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) drop(transport.sessionId);
    };
    const server = createSopServer({ ...options, store });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await server.close();
  });

  const existingSession = async (req: Request, res: Response) => {
    const id = req.header('mcp-session-id');
    if (id === undefined) return sendJsonRpcError(res, 400, SERVER_ERROR, 'Bad Request: Mcp-Session-Id header is required');
    const session = sessions.get(id);
    if (session === undefined) return unknownSession(res);
    return session.transport.handleRequest(req, res);
  };
  app.get(MCP_PATH, existingSession);
  app.delete(MCP_PATH, existingSession);
  app.all(MCP_PATH, (_req: Request, res: Response) => {
    res.setHeader('Allow', 'GET, POST, DELETE');
    sendJsonRpcError(res, 405, SERVER_ERROR, 'Method not allowed');
  });
  app.use((req: Request, res: Response) =>
    sendJsonRpcError(res, 404, SERVER_ERROR, `Not found: ${req.path}; the MCP endpoint is ${MCP_PATH}`),
  );
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const type = (error as { type?: unknown }).type;
    if (type === 'entity.parse.failed') return sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: the request body is not valid JSON');
    if (type === 'entity.too.large') return sendJsonRpcError(res, 413, INVALID_REQUEST, `Request body larger than ${MAX_BODY}`);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendJsonRpcError(res, status, INVALID_REQUEST, `Invalid request: ${error instanceof Error ? error.message : String(error)}`);
    }
    logError('HTTP request failed', error);
    return sendJsonRpcError(res, 500, INTERNAL_ERROR, 'Internal error');
  });

  const httpServer = await listen(app, host, options.port ?? 3000);
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    port,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

function unknownSession(res: Response): void {
  sendJsonRpcError(res, 404, SERVER_ERROR, 'Session not found: it ended or never existed; start a new one with initialize');
}

function defaultHostnames(host: string): string[] {
  const names = [...LOOPBACK_HOSTNAMES];
  const wildcard = host === '0.0.0.0' || host === '::';
  const name = host.includes(':') ? `[${host}]` : host.toLowerCase();
  if (!wildcard && !names.includes(name)) names.push(name);
  return names;
}

function listen(app: express.Express, host: string, port: number): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}
