/**
 * A real MCP server over Streamable HTTP (the SDK's v1 `Server`, stateless: a server and a transport per request), or
 * over the legacy HTTP+SSE transport (`sse`: a GET event stream at `/sse`, POSTs to `/messages`, as 2024-era servers
 * still serve), whose
 * tools answer what the test scripts: each call's answer is looked up by the `call` argument the test gives every
 * domain call (`answers.set('c7', …)`), so the answers do not depend on which calls the gateway let through. An answer
 * is a tool result (found, empty, an error) or `hang` (no answer ever: the gateway's timeout decides). It offers the
 * tools it is told, each with a loose object schema; `received` keeps every call that reached it.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export type ScriptedAnswer =
  | { readonly structuredContent?: Record<string, unknown>; readonly text: string; readonly isError?: boolean }
  | 'hang';

export interface ScriptedServer {
  readonly url: string;
  /** Answers by the `call` argument; a call with no answer here gets an error saying so. */
  readonly answers: Map<string, ScriptedAnswer>;
  /** Every call that reached the server, in order: its tool and arguments. */
  readonly received: { readonly tool: string; readonly args: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startScriptedServer(
  tools: readonly string[],
  port = 0,
  kind: 'streamable-http' | 'sse' = 'streamable-http',
): Promise<ScriptedServer> {
  const answers = new Map<string, ScriptedAnswer>();
  const received: { tool: string; args: Record<string, unknown> }[] = [];
  const hanging = new Set<() => void>();
  const serverFor = (): Server => {
    const server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools.map((name) => ({
        name,
        description: `${name}, answered from the test's script`,
        inputSchema: { type: 'object' as const, properties: { call: { type: 'string' } }, additionalProperties: true },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      received.push({ tool: request.params.name, args });
      const answer = answers.get(String(args.call));
      if (answer === undefined) return { content: [{ type: 'text', text: `no scripted answer for ${String(args.call)}` }], isError: true };
      if (answer === 'hang') return new Promise<never>((resolve) => hanging.add(() => resolve(undefined as never)));
      return {
        content: [{ type: 'text', text: answer.text }],
        ...(answer.structuredContent === undefined ? {} : { structuredContent: answer.structuredContent }),
        ...(answer.isError === true ? { isError: true } : {}),
      };
    });
    return server;
  };
  const streams = new Map<string, SSEServerTransport>();
  const http: HttpServer = createServer(async (req, res) => {
    if (kind === 'sse' && req.method === 'GET' && req.url?.startsWith('/sse') === true) {
      const stream = new SSEServerTransport('/messages', res);
      streams.set(stream.sessionId, stream);
      res.on('close', () => streams.delete(stream.sessionId));
      await serverFor().connect(stream);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
    if (kind === 'sse') {
      const stream = streams.get(new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '');
      if (stream === undefined) {
        res.writeHead(404).end('no such session');
        return;
      }
      await stream.handlePostMessage(req, res, body);
      return;
    }
    const server = serverFor();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const listening = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${listening}/${kind === 'sse' ? 'sse' : 'mcp'}`,
    answers,
    received,
    async close() {
      for (const release of hanging) release();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
