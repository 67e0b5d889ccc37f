/**
 * Streamable HTTP transport at `POST|GET|DELETE /mcp`, a thin adapter over the session service.
 *
 * Both protocol eras on one endpoint (the SDK's v2 line): a request that carries the 2026-07-28 `_meta` envelope
 * goes to the SDK's modern handler; a 2025-era request (no envelope: `initialize`, then calls with or without
 * `Mcp-Session-Id`) to its per-request legacy serving. Either way every request is served on its own: a fresh
 * `Server` shell (`server-factory.ts`) dropped when the response ends; except the hot path, a plain 2025-era
 * `tools/call`, which `plain-tool-call.ts` answers from the session service directly. Nothing about a conversation
 * stays in the process:
 *   - 2025-era `Mcp-Session-Id` sessions live in the run store: `initialize` opens one (the id is sent back in the
 *     header), later requests name it (unknown or ended: 404), DELETE ends it. Any instance sharing the store
 *     serves any session: no sticky sessions behind a load balancer. An idle process holds no per-session objects.
 *   - Clients without a session (stateless 2025 deployments, and every 2026-07-28 client: that revision has no
 *     session header and no handshake) pass the `run_id` that `load_graph` returned.
 * There is no standalone 2025-era server-to-client stream (GET is 405); 2026-07-28 clients may open
 * `subscriptions/listen`. A gateway asks a 2025-era client that declared elicitation on the event stream of the
 * call's own POST (`asking-tool-call.ts`).
 *
 * Where the SDK's defaults fall short, this does better (see /shared/design/mcp-testing.md):
 *   - Host *and* Origin are checked (`request-guard.ts`): a foreign Origin is 403 even with a good Host;
 *   - a body that is not JSON is -32700 as JSON, a batch or malformed message -32600, bad params -32602
 *     (`message-guard.ts`, the same answers as on stdio), never an HTML page or a zod dump;
 *   - header and body timeouts, a body size limit, and a cap on live sessions (503 beyond it);
 *   - on any address other than loopback the server refuses to start without authentication (`auth.ts`), and a
 *     run is only ever visible to the principal that started it.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isJSONRPCRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  METHOD_NOT_FOUND,
  type McpHandlerRequestOptions,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { screenIncoming } from '../mcp/message-guard.js';
import { createServerFactory, type ServerFactory } from '../mcp/server-factory.js';
import type { Caller, SessionService } from '../service/session-service.js';
import { type HttpAuth, principalOf, principalOfAuth } from './auth.js';
import { type AskingCalls, type AskingOptions, createAskingCalls } from './asking-tool-call.js';
import { answerPlainToolCall, plainToolCall } from './plain-tool-call.js';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, SERVER_ERROR, sendJsonRpcError } from './json-rpc-error.js';
import { isLoopback, LOOPBACK_HOSTNAMES, requestGuard } from './request-guard.js';

export const MCP_PATH = '/mcp';
const MAX_BODY = '1mb';
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpServeOptions {
  readonly service: SessionService;
  /**
   * Defaults to the toolkit's own shell. A factory of the app's own serves every message, tool calls included: the
   * direct paths (`plain-tool-call.ts`, `asking-tool-call.ts`) give the toolkit's shell's answers only.
   */
  readonly serverFactory?: ServerFactory;
  /** Interface to bind; default 127.0.0.1. Any other than loopback needs `auth`. */
  readonly host?: string;
  /** Port; default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Hostnames accepted in Host/Origin; default: the loopback names plus `host` (unless a wildcard). */
  readonly allowedHosts?: readonly string[];
  /** Extra browser origins accepted verbatim. */
  readonly allowedOrigins?: readonly string[];
  readonly auth?: HttpAuth;
  /** Time to receive a request's headers, and the whole request (defaults 5 s and 10 s: a 1 MB body arrives well within). */
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** More routes on the same server (the live page), installed after the guards and authentication. */
  readonly routes?: (app: Express) => void;
  /** Asking the user of a 2025-era client mid-call (gateway confirmations): how long an answer may take. */
  readonly asking?: AskingOptions;
}

export interface SopHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends open connections. The service and its store stay open (their owner closes them). */
  close(): Promise<void>;
}

export async function serveHttp(options: HttpServeOptions): Promise<SopHttpServer> {
  const { service } = options;
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && options.auth === undefined) {
    throw new Error(
      `refusing to serve on ${host} without authentication: runs would be open to anyone who can reach it. ` +
        'Give bearer tokens (--tokens FILE) or an OAuth authorization server, or bind to 127.0.0.1.',
    );
  }
  const serverFor = options.serverFactory ?? createServerFactory(service);

  const app = express();
  app.disable('x-powered-by');
  app.use(requestGuard({ hostnames: options.allowedHosts ?? defaultHostnames(host), origins: options.allowedOrigins ?? [] }));
  for (const [path, handler] of options.auth?.publicRoutes ?? []) app.get(path, handler);
  if (options.auth !== undefined) app.use(options.auth.middleware);

  const asking = createAskingCalls(service, options.asking);
  const { answer, stop } = answerMcp(service, serverFor, asking);
  app.post(MCP_PATH, refuseUnreadable, express.json({ limit: MAX_BODY }), async (req: Request, res: Response) => {
    const removed = modernInitialize(req.body);
    if (removed !== undefined) {
      res.status(404).json(removed);
      return;
    }
    const screened = screenIncoming(req.body);
    if (!screened.ok) {
      res.status(screened.response.error.code === INVALID_REQUEST ? 400 : 200).json(screened.response);
      return;
    }
    const sessionId = req.header('mcp-session-id');
    if (sessionId !== undefined && asking.receive(sessionId, principalOf(req), screened.message)) {
      res.status(202).end();
      return;
    }
    const call = options.serverFactory === undefined ? plainToolCall(req, screened.message) : undefined;
    if (call === undefined) return answer(req, res, screened.message);
    if (sessionId !== undefined && !(await service.hasSession(sessionId, principalOf(req)))) return unknownSession(res);
    if (sessionId !== undefined && asking.canAsk(sessionId)) return asking.answer(req, res, call, sessionId);
    await answerPlainToolCall(service, req, res, call, sessionId);
  });

  app.get(MCP_PATH, (_req: Request, res: Response) => {
    res.setHeader('Allow', 'POST, DELETE');
    sendJsonRpcError(res, 405, SERVER_ERROR, 'Method not allowed: this server sends no notifications, so it opens no event stream');
  });
  app.delete(MCP_PATH, async (req: Request, res: Response) => {
    const sessionId = req.header('mcp-session-id');
    if (sessionId === undefined) return sendJsonRpcError(res, 400, SERVER_ERROR, 'Bad Request: Mcp-Session-Id header is required');
    if (!(await service.closeSession(sessionId, principalOf(req)))) return unknownSession(res);
    res.status(200).end();
  });
  app.all(MCP_PATH, (_req: Request, res: Response) => {
    res.setHeader('Allow', 'GET, POST, DELETE');
    sendJsonRpcError(res, 405, SERVER_ERROR, 'Method not allowed');
  });
  options.routes?.(app);
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
      return sendJsonRpcError(res, status, INVALID_REQUEST, `Invalid request: ${oneLine(error)}`);
    }
    service.logger.error('HTTP request failed', error);
    return sendJsonRpcError(res, 500, INTERNAL_ERROR, `Internal error: ${oneLine(error)}`);
  });

  const httpServer = await listen(app, host, options.port ?? 3000, options.headersTimeoutMs ?? 5_000, options.requestTimeoutMs ?? 10_000);
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        stop();
        asking.close();
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}

/**
 * The MCP exchange of one POST, already screened: routed by era, the 2025-era session (if any) checked or opened,
 * then answered by the SDK's per-request serving over a fresh server shell for this caller.
 */
function answerMcp(service: SessionService, serverFor: ServerFactory, asking: AskingCalls) {
  const modern = createMcpHandler(({ authInfo }) => serverFor(callerOf(authInfo, undefined)), {
    legacy: 'reject',
    onerror: (error) => service.logger.error('MCP request (2026-07-28)', error),
  });
  const route = async (request: globalThis.Request, options?: McpHandlerRequestOptions): Promise<globalThis.Response> => {
    const body = options?.parsedBody;
    if (!(await isLegacyRequest(request, body))) return modern.fetch(request, options);
    const principal = principalOfAuth(options?.authInfo);
    let sessionId = request.headers.get('mcp-session-id') ?? undefined;
    let opened = false;
    if (sessionId !== undefined) {
      if (!(await service.hasSession(sessionId, principal))) return jsonRpcErrorResponse(404, SERVER_ERROR, UNKNOWN_SESSION);
    } else if (isInitializeRequest(body)) {
      const opening = await service.openSession(principal);
      if (!opening.ok) return jsonRpcErrorResponse(503, SERVER_ERROR, opening.error);
      sessionId = opening.sessionId;
      opened = true;
      asking.declare(sessionId, body.params.capabilities);
    }
    const caller = callerOf(options?.authInfo, sessionId);
    const response = await legacyStatelessFallback(() => serverFor(caller))(request, options);
    if (!opened || sessionId === undefined) return response;
    const headers = new Headers(response.headers);
    headers.set('Mcp-Session-Id', sessionId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  // A gateway's tool list follows its domain servers: 2026-07-28 clients hear of it on their subscriptions/listen
  // streams. 2025-era clients over HTTP have no stream to hear it on here (GET is 405); they list again.
  const stop = service.onToolsChanged(() => modern.notify.toolsChanged());
  return { answer: toNodeHandler({ fetch: route }, { onerror: (error) => service.logger.error('MCP request', error) }), stop };
}

/**
 * `initialize` inside a 2026-07-28 request envelope: that revision removed the method, so a modern client calling
 * it gets what any removed method gets there (404, -32601), not the 2025-era handshake the SDK would route it to
 * for its name alone. A 2025-era client's `initialize` carries no envelope and is served as ever.
 */
function modernInitialize(body: unknown): object | undefined {
  if (!isJSONRPCRequest(body) || body.method !== 'initialize') return undefined;
  const meta = (body.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string') return undefined;
  return {
    jsonrpc: '2.0',
    id: body.id,
    error: {
      code: METHOD_NOT_FOUND,
      message: `Method not found: initialize is not part of MCP ${version}; start with server/discover (2025-era clients send initialize without the request envelope)`,
    },
  };
}

function callerOf(authInfo: AuthInfo | undefined, sessionId: string | undefined): Caller {
  return { principal: principalOfAuth(authInfo), sessionId, channel: 'request' };
}

function jsonRpcErrorResponse(status: number, code: number, message: string): globalThis.Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

const UNKNOWN_SESSION = 'Session not found: it ended, expired or never existed; start a new one with initialize';

/**
 * What can be refused before the body is read: a body that is not JSON (415, not the 400 of an empty parse), and a
 * declared length over the limit (413 at once, and the connection closed: the client is not left to send 100 MB
 * that would be thrown away).
 */
function refuseUnreadable(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    closeAfter(req, res);
    sendJsonRpcError(
      res,
      415,
      INVALID_REQUEST,
      `Unsupported Media Type: send the JSON-RPC message as application/json (got ${req.headers['content-type'] ?? 'no Content-Type'})`,
    );
    return;
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    closeAfter(req, res);
    sendJsonRpcError(res, 413, INVALID_REQUEST, `Request body larger than ${MAX_BODY} (${declared} bytes declared): send smaller messages`);
    return;
  }
  next();
}

/** Ends the connection once the answer is out, the unread body with it. */
function closeAfter(req: Request, res: Response): void {
  res.setHeader('Connection', 'close');
  res.on('finish', () => req.socket.destroy());
}

function unknownSession(res: Response): void {
  sendJsonRpcError(res, 404, SERVER_ERROR, UNKNOWN_SESSION);
}

function defaultHostnames(host: string): string[] {
  const names = [...LOOPBACK_HOSTNAMES];
  const wildcard = host === '0.0.0.0' || host === '::';
  const name = host.includes(':') ? `[${host}]` : host.toLowerCase();
  if (!wildcard && !names.includes(name)) names.push(name);
  return names;
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n', 1)[0]?.slice(0, 200) ?? '';
}

/**
 * Listens with the slow-client limits set where Node reads them: at creation. Node checks the header and request
 * timeouts on an interval (30 s by default), so the interval follows the shorter timeout.
 */
function listen(app: express.Express, host: string, port: number, headersTimeout: number, requestTimeout: number): Promise<HttpServer> {
  const server = createServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 2))) },
    app,
  );
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.listen(port, host);
  });
}
