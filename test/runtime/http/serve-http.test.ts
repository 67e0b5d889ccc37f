import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySessionStore, serveHttp, type MemorySessionStore, type SopHttpServer } from '../../../runtime/index.js';
import { FIXTURE_BUNDLE } from '../../fixtures/runtime/agents.js';
import { createCatalog } from '../../../runtime/agents/agent-catalog.js';
import { callTool, FIXTURE_ROOT } from '../helpers/mcp-client.js';
import { initializeBody, MCP_HEADERS, rawRequest } from '../helpers/raw-http.js';

let server: SopHttpServer;
let store: MemorySessionStore;
let host: string;

beforeAll(async () => {
  store = createMemorySessionStore();
  server = await serveHttp({ catalog: createCatalog(FIXTURE_BUNDLE), projectRoot: FIXTURE_ROOT, host: '127.0.0.1', port: 0, store });
  host = `127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

async function httpClient(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  const client = new Client({ name: 'http-test', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, transport };
}

function jsonRpcError(body: string): { code: number; message: string } {
  const parsed = JSON.parse(body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(parsed.jsonrpc).toBe('2.0');
  expect(parsed.id).toBeNull();
  return parsed.error;
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

  it('ends a session on DELETE: its state is dropped and the id then answers 404', async () => {
    const { client, transport } = await httpClient();
    await callTool(client, 'load_graph', { agent: 'support_desk' });
    const id = transport.sessionId as string;
    expect(await store.get(id)).toBeDefined();
    const sessions = server.sessionCount;
    await transport.terminateSession();
    expect(server.sessionCount).toBe(sessions - 1);
    expect(await store.get(id)).toBeUndefined();
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

  it('answers an unknown tool with JSON-RPC -32602 over HTTP too', async () => {
    const { client, transport } = await httpClient();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await transport.terminateSession();
    await client.close();
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

  it('answers requests outside a session, or elsewhere, with JSON-RPC errors', async () => {
    const noSession = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, host },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect(jsonRpcError(noSession.body).message).toContain('initialize');
    const unknown = await rawRequest(server.url, {
      method: 'GET',
      headers: { host, accept: 'text/event-stream', 'mcp-session-id': 'not-a-session' },
    });
    expect(unknown.status).toBe(404);
    const getWithout = await rawRequest(server.url, { method: 'GET', headers: { host, accept: 'text/event-stream' } });
    expect(getWithout.status).toBe(400);
    const elsewhere = await rawRequest(`http://${host}/other`, { method: 'GET', headers: { host } });
    expect(elsewhere.status).toBe(404);
    expect(jsonRpcError(elsewhere.body).message).toContain('/mcp');
    const put = await rawRequest(server.url, { method: 'PUT', headers: { host } });
    expect(put.status).toBe(405);
  });
});
