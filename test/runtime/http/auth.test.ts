/**
 * Runs belong to someone. With bearer tokens configured: no token is 401 with `WWW-Authenticate`; principal B
 * using A's `run_id` (or A's session) is answered exactly like an unknown one, and A's run is unchanged.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type SessionService, type SopHttpServer, staticTokenAuth } from '../../../runtime/index.js';
import { callTool, fixtureService } from '../helpers/mcp-client.js';
import { initializeBody, MCP_HEADERS, rawRequest } from '../helpers/raw-http.js';

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-9876543210';

let service: SessionService;
let server: SopHttpServer;

beforeAll(async () => {
  service = fixtureService();
  const tokens = new Map([
    [ALICE, 'alice'],
    [BOB, 'bob'],
  ]);
  server = await serveHttp({ service, host: '127.0.0.1', port: 0, auth: staticTokenAuth(tokens) });
});
afterAll(async () => {
  await server.close();
  await service.close();
});

async function clientAs(token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'auth-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('bearer-token authentication', () => {
  it('answers a request without a token, or with an unknown one, 401 with WWW-Authenticate', async () => {
    const host = `127.0.0.1:${server.port}`;
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: 'Basic abc' }] as Record<string, string>[]) {
      const response = await rawRequest(server.url, { headers: { ...MCP_HEADERS, host, ...headers }, body: initializeBody() });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it("answers B using A's run exactly like an unknown run, and leaves A's run as it was", async () => {
    const alice = await clientAs(ALICE);
    const bob = await clientAs(BOB);
    const runId = (await callTool(alice.client, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    await callTool(alice.client, 'goto_node', { node_id: 'START' });
    await callTool(alice.client, 'goto_node', { node_id: 'AUTH' });
    const before = await service.store.audit(runId);
    expect(before).toHaveLength(3);

    await callTool(bob.client, 'load_graph', { agent: 'tiny_flow' });
    const stolen = await callTool(bob.client, 'goto_node', { node_id: 'ROUTE', run_id: runId });
    const madeUp = 'run_AAAAAAAAAAAAAAAAAAAAAA';
    const unknown = await callTool(bob.client, 'goto_node', { node_id: 'ROUTE', run_id: madeUp });
    expect(stolen.isError).toBe(true);
    expect(stolen).toEqual({ ...unknown, answer: { error: unknown.answer.error.replace(madeUp, runId) } });
    expect(stolen.answer.error).toBe(`Unknown run: ${runId}. Start one with load_graph; it returns the run_id to pass.`);
    const todo = await callTool(bob.client, 'todo', { todos: [], run_id: runId });
    expect(todo.answer.error).toBe(stolen.answer.error);

    expect(await service.store.audit(runId)).toEqual(before);
    expect((await callTool(alice.client, 'goto_node', { node_id: 'ROUTE' })).answer.path).toEqual(['START', 'AUTH', 'ROUTE']);
    await alice.client.close();
    await bob.client.close();
  });

  it("refuses B's requests in A's session as an unknown session (404)", async () => {
    const alice = await clientAs(ALICE);
    await callTool(alice.client, 'load_graph', { agent: 'support_desk' });
    const response = await rawRequest(server.url, {
      headers: {
        ...MCP_HEADERS,
        host: `127.0.0.1:${server.port}`,
        authorization: `Bearer ${BOB}`,
        'mcp-session-id': alice.transport.sessionId as string,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'goto_node', arguments: { node_id: 'START' } } }),
    });
    expect(response.status).toBe(404);
    await alice.client.close();
  });
});
