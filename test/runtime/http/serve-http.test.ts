import { connect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type SessionService, type SopHttpServer } from '../../../runtime/index.js';
import { createServerFactory } from '../../../runtime/mcp/server-factory.js';
import { callTool, fixtureService } from '../helpers/mcp-client.js';
import { initializeBody, MCP_HEADERS, rawRequest } from '../helpers/raw-http.js';

let service: SessionService;
let server: SopHttpServer;
let host: string;

beforeAll(async () => {
  service = fixtureService();
  server = await serveHttp({ service, host: '127.0.0.1', port: 0 });
  host = `127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
  await service.close();
});

async function httpClient(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  const client = new Client({ name: 'http-test', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, transport };
}

function jsonRpcError(body: string, id: unknown = null): { code: number; message: string } {
  const parsed = JSON.parse(body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(parsed.jsonrpc).toBe('2.0');
  expect(parsed.id).toBe(id);
  return parsed.error;
}

/** A JSON-RPC call without a session, as a stateless client sends it; the answer's result, parsed from SSE. */
async function sessionless(method: string, params: object): Promise<{ status: number; result?: Record<string, any>; error?: object }> {
  const response = await rawRequest(server.url, {
    headers: { ...MCP_HEADERS, host, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  const data = response.body
    .split('\n')
    .find((line) => line.startsWith('data: '))
    ?.slice(6);
  const message = JSON.parse(data ?? response.body) as { result?: Record<string, any>; error?: object };
  return { status: response.status, ...message };
}

describe('Streamable HTTP', () => {
  it('binds 127.0.0.1 and serves /mcp', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
  });

  it('keeps two interleaved sessions apart', async () => {
    const a = await httpClient();
    const b = await httpClient();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    await callTool(a.client, 'load_graph', { agent: 'support_desk' });
    await callTool(b.client, 'load_graph', { agent: 'tiny_flow' });
    await callTool(a.client, 'goto_node', { node_id: 'START' });
    await callTool(b.client, 'goto_node', { node_id: 'BEGIN' });
    await callTool(a.client, 'todo', { todos: [{ content: 'Address', status: 'in_progress', completion_node: 'END_ADDR' }] });
    await callTool(a.client, 'goto_node', { node_id: 'AUTH' });
    // b sees its own agent and path, not a's.
    expect((await callTool(b.client, 'goto_node', { node_id: 'AUTH' })).answer.error).toMatch(/^Node not found: AUTH/);
    expect((await callTool(b.client, 'goto_node', { node_id: 'STEP' })).answer.path).toEqual(['BEGIN', 'STEP']);
    expect(
      (await callTool(b.client, 'todo', { todos: [{ content: 'x', status: 'pending', completion_node: 'END_ADDR' }] })).answer.error,
    ).toContain('END_ADDR is not a terminal node of tiny_flow');
    expect((await callTool(a.client, 'goto_node', { node_id: 'ROUTE' })).answer.path).toEqual(['START', 'AUTH', 'ROUTE']);
    await a.transport.terminateSession();
    await b.transport.terminateSession();
    await a.client.close();
    await b.client.close();
  });

  it('keeps sessions in the run store, so the process holds nothing per session; DELETE ends one, then 404', async () => {
    const { client, transport } = await httpClient();
    await callTool(client, 'load_graph', { agent: 'support_desk' });
    const id = transport.sessionId as string;
    expect(await service.store.getSession(id)).toMatchObject({ principal: 'local', runId: expect.stringMatching(/^run_/) });
    await transport.terminateSession();
    expect(await service.store.getSession(id)).toBeUndefined();
    const after = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    expect(jsonRpcError(after.body).message).toMatch(/^Session not found/);
    const deleteAgain = await rawRequest(server.url, { method: 'DELETE', headers: { host, 'mcp-session-id': id } });
    expect(deleteAgain.status).toBe(404);
    await client.close();
  });

  it('serves clients without a session through the run_id that load_graph returns', async () => {
    const loaded = await sessionless('tools/call', { name: 'load_graph', arguments: { agent: 'support_desk' } });
    expect(loaded.status).toBe(200);
    const runId = loaded.result?.structuredContent.run_id as string;
    expect(runId).toMatch(/^run_[A-Za-z0-9_-]{22}$/);
    const moved = await sessionless('tools/call', { name: 'goto_node', arguments: { node_id: 'START', run_id: runId } });
    expect(moved.result?.structuredContent).toMatchObject({ valid: true, path: ['START'] });
    const next = await sessionless('tools/call', { name: 'goto_node', arguments: { node_id: 'AUTH', run_id: runId } });
    expect(next.result?.structuredContent.path).toEqual(['START', 'AUTH']);
    const noRun = await sessionless('tools/call', { name: 'goto_node', arguments: { node_id: 'START' } });
    expect(noRun.result).toMatchObject({
      isError: true,
      structuredContent: { error: expect.stringMatching(/^No run: call load_graph first/) },
    });
    const listed = await sessionless('tools/list', {});
    expect(listed.result?.tools.map((tool: { name: string }) => tool.name)).toEqual(['load_graph', 'goto_node', 'todo', 'inspect']);
  });

  it('answers a plain 2025-era tools/call as one JSON response; other forms of the request go the SDK way, as before', async () => {
    const call = (headers: Record<string, string>, params: object = { name: 'load_graph', arguments: { agent: 'support_desk' } }) =>
      rawRequest(server.url, {
        headers: { ...MCP_HEADERS, host, 'mcp-protocol-version': '2025-06-18', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params }),
      });
    const plain = await call({});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const answer = JSON.parse(plain.body) as { id: number; result: { structuredContent: { run_id: string } } };
    expect(answer.id).toBe(11);
    expect(answer.result.structuredContent.run_id).toMatch(/^run_/);
    // The same call through the SDK's serving (a standard 2026 header sends it there) answers the same, as a stream.
    const viaSdk = await call({ 'mcp-name': 'load_graph' });
    expect(viaSdk.headers['content-type']).toMatch(/^text\/event-stream/);
    // An unknown tool is the same JSON-RPC error on both paths.
    const unknown = await call({}, { name: 'nope', arguments: {} });
    expect(jsonRpcError(unknown.body, 11)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown tool: nope\. Available tools: load_graph, goto_node/),
    });
    // What the SDK refuses is still refused by it: an Accept without the event stream, a protocol version it does not speak.
    expect((await call({ accept: 'application/json' })).status).toBe(406);
    expect((await call({ 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    // A session that does not exist is 404 before any tool runs.
    expect((await call({ 'mcp-session-id': 'no-such-session' })).status).toBe(404);
  });

  it("leaves every tool call to an app's own server factory: its shell answers, not the direct path", async () => {
    const appService = fixtureService();
    const toolkitShell = createServerFactory(appService);
    const appServer = await serveHttp({
      service: appService,
      host: '127.0.0.1',
      port: 0,
      serverFactory: (caller) => {
        const shell = toolkitShell(caller);
        shell.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text' as const, text: 'answered by the app' }] }));
        return shell;
      },
    });
    try {
      const plain = await rawRequest(appServer.url, {
        headers: { ...MCP_HEADERS, host: new URL(appServer.url).host, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 12,
          method: 'tools/call',
          params: { name: 'load_graph', arguments: { agent: 'support_desk' } },
        }),
      });
      expect(plain.status).toBe(200);
      expect(plain.body).toContain('answered by the app');
      expect(plain.body).not.toContain('run_id');
    } finally {
      await appServer.close();
      await appService.close();
    }
  });

  it('answers an unknown tool with JSON-RPC -32602 over HTTP too', async () => {
    const { client, transport } = await httpClient();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await transport.terminateSession();
    await client.close();
  });

  it('refuses a batch with one -32600 error, as stdio does', async () => {
    const response = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host },
      body: JSON.stringify([JSON.parse(initializeBody(1)), { jsonrpc: '2.0', id: 2, method: 'tools/list' }]),
    });
    expect(response.status).toBe(400);
    expect(jsonRpcError(response.body)).toEqual({
      code: -32600,
      message: 'Batches are not supported: send one JSON-RPC message at a time (MCP removed batching in 2025-06-18).',
    });
  });

  it('answers malformed params with a one-line -32602 naming the field, not a zod dump', async () => {
    const response = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } }),
    });
    expect(response.status).toBe(200);
    const error = jsonRpcError(response.body, 9);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid params for tools/call: params.name: Invalid input: expected string, received undefined');
  });

  it('refuses a foreign Origin with 403 even when the Host is good', async () => {
    const response = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host, origin: 'http://evil.example.com' },
      body: initializeBody(),
    });
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(jsonRpcError(response.body).message).toBe('Forbidden: Origin http://evil.example.com is not allowed');
  });

  it.each(['null', 'file://', 'http://127.0.0.1.evil.example.com', 'http://localhost.evil.example.com:8080'])(
    'refuses Origin %s',
    async (origin) => {
      const response = await rawRequest(server.url, { headers: { ...MCP_HEADERS, host, origin }, body: initializeBody() });
      expect(response.status).toBe(403);
    },
  );

  it.each([undefined, 'http://localhost:6274', 'http://127.0.0.1:5173'])('accepts a local or absent Origin (%s)', async (origin) => {
    const headers: Record<string, string> = { ...MCP_HEADERS, host };
    if (origin !== undefined) headers.origin = origin;
    const response = await rawRequest(server.url, { headers, body: initializeBody() });
    expect(response.status).toBe(200);
    const id = response.headers['mcp-session-id'] as string;
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect((await rawRequest(server.url, { method: 'DELETE', headers: { host, 'mcp-session-id': id } })).status).toBe(200);
  });

  it.each(['evil.example.com', `evil.example.com:${1234}`, '127.0.0.2'])('refuses a foreign Host (%s) with 403', async (foreign) => {
    const response = await rawRequest(server.url, { headers: { ...MCP_HEADERS, host: foreign }, body: initializeBody() });
    expect(response.status).toBe(403);
    expect(jsonRpcError(response.body).message).toMatch(/^Forbidden: Host/);
  });

  it('answers a malformed JSON body with a JSON-RPC -32700 error as JSON, not an HTML page', async () => {
    const response = await rawRequest(server.url, { headers: { ...MCP_HEADERS, host }, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(jsonRpcError(response.body)).toEqual({ code: -32700, message: 'Parse error: the request body is not valid JSON' });
  });

  it('answers a body that is not JSON 415, naming the Content-Type to send', async () => {
    const response = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host, 'content-type': 'text/plain' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(415);
    expect(jsonRpcError(response.body).message).toMatch(
      /^Unsupported Media Type: send the JSON-RPC message as application\/json \(got text\/plain\)/,
    );
  });

  it('refuses a declared 100 MB body with 413 before it is sent, and closes the connection', async () => {
    const answer = await new Promise<{ head: string }>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${100 * 1024 * 1024}\r\n\r\n{`,
        );
      });
      let head = '';
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('utf8');
      });
      // Only the headers and one byte went out: an answer now was given without waiting for the body.
      socket.on('close', () => resolve({ head }));
      socket.on('error', reject);
      setTimeout(() => reject(new Error('no answer before the body was sent')), 5_000);
    });
    expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.head).toMatch(/connection: close/i);
    expect(answer.head).toContain('Request body larger than 1mb (104857600 bytes declared)');
  });

  it('refuses a chunked body that grows past the limit with 413', async () => {
    const response = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host, 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'y'.repeat(2 * 1024 * 1024) } }),
    });
    expect(response.status).toBe(413);
    expect(jsonRpcError(response.body).message).toBe('Request body larger than 1mb');
  });

  it('answers unknown sessions 404, GET 405 (no event stream), and other paths and methods with JSON-RPC errors', async () => {
    const unknown = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host, 'mcp-session-id': 'not-a-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    const get = await rawRequest(server.url, { method: 'GET', headers: { host, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers['allow']).toBe('POST, DELETE');
    const elsewhere = await rawRequest(`http://${host}/other`, { method: 'GET', headers: { host } });
    expect(elsewhere.status).toBe(404);
    expect(jsonRpcError(elsewhere.body).message).toContain('/mcp');
    const put = await rawRequest(server.url, { method: 'PUT', headers: { host } });
    expect(put.status).toBe(405);
  });

  it('refuses to serve a network address without authentication', async () => {
    await expect(serveHttp({ service, host: '0.0.0.0', port: 0 })).rejects.toThrow(
      /refusing to serve on 0\.0\.0\.0 without authentication/,
    );
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers or body do not arrive in time, and goes on serving others', async () => {
    const slowService = fixtureService();
    const slow = await serveHttp({ service: slowService, port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const closedAfter = (send: (socket: Socket) => void): Promise<number> =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const socket = connect(slow.port, '127.0.0.1', () => send(socket));
        socket.on('data', () => {});
        socket.on('close', () => resolve(Date.now() - started));
        socket.on('error', reject);
        setTimeout(() => reject(new Error('the server kept a slow connection open')), 10_000);
      });
    // Headers that never finish, and a body that never comes.
    expect(await closedAfter((socket) => socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'))).toBeLessThan(9_000);
    expect(
      await closedAfter((socket) =>
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${slow.port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`,
        ),
      ),
    ).toBeLessThan(9_000);
    const ok = await rawRequest(slow.url, { headers: { ...MCP_HEADERS, host: `127.0.0.1:${slow.port}` }, body: initializeBody() });
    expect(ok.status).toBe(200);
    await slow.close();
    await slowService.close();
  });
});
