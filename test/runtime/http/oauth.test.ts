/**
 * OAuth 2.1 resource-server mode against a real authorization server: `oidc-provider` (a certified OpenID
 * Connect / OAuth 2.0 server) on loopback issues access tokens to two agent clients (client credentials, with
 * this MCP server as the resource indicator); the MCP server checks them by token introspection. A client's
 * token gets in and its runs are its own; another client's token cannot reach them; a token for another
 * resource, or none, is 401 with the protected resource metadata's address.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectionAuth, serveHttp, type SessionService, type SopHttpServer } from '../../../runtime/index.js';
import { callTool, fixtureService } from '../helpers/mcp-client.js';
import { initializeBody, MCP_HEADERS, rawRequest } from '../helpers/raw-http.js';

const SERVER_SECRET = 'mcp-server-secret-0123456789abcdef';
const AGENT_SECRET = 'agent-secret-0123456789abcdef0123';

let issuer: string;
let authServer: Server;
let service: SessionService;
let mcp: SopHttpServer;
let resource: string;

/** Starts the MCP server on a free port, then the authorization server that issues tokens for it. */
beforeAll(async () => {
  service = fixtureService();
  // The resource URL is the MCP endpoint: learn the port first, then start for real with auth on it.
  const probe = await serveHttp({ service, port: 0 });
  const port = probe.port;
  await probe.close();
  resource = `http://127.0.0.1:${port}/mcp`;

  // The authorization server's address is its issuer: listen first, then make the provider for that address.
  authServer = createServer();
  await new Promise<void>((resolve) => authServer.listen(0, '127.0.0.1', () => resolve()));
  issuer = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    scopes: ['mcp'],
    clients: [
      { client_id: 'sop-mcp', client_secret: SERVER_SECRET, grant_types: [], redirect_uris: [], response_types: [] },
      ...['agent-a', 'agent-b'].map((client_id) => ({
        client_id,
        client_secret: AGENT_SECRET,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: 'mcp',
      })),
    ],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => ({ scope: 'mcp', audience: indicator, accessTokenFormat: 'opaque' }),
      },
    },
  });
  authServer.on('request', provider.callback());

  mcp = await serveHttp({
    service,
    port,
    auth: introspectionAuth({
      issuer,
      introspectionUrl: `${issuer}/token/introspection`,
      clientId: 'sop-mcp',
      clientSecret: SERVER_SECRET,
      resource,
    }),
  });
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await service?.close();
  await new Promise<void>((resolve) => (authServer ? authServer.close(() => resolve()) : resolve()));
});

async function tokenFor(clientId: string, audience = resource): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${AGENT_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource: audience }).toString(),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (body.access_token === undefined) throw new Error(`no token for ${clientId}: ${JSON.stringify(body)}`);
  return body.access_token;
}

async function clientWith(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'oauth-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

describe('OAuth resource-server mode (introspection at a real authorization server)', () => {
  it('publishes the protected resource metadata, and answers no token with 401 pointing at it', async () => {
    const host = `127.0.0.1:${mcp.port}`;
    const metadata = await rawRequest(`http://${host}/.well-known/oauth-protected-resource`, { method: 'GET', headers: { host } });
    expect(JSON.parse(metadata.body)).toEqual({ resource, authorization_servers: [issuer], bearer_methods_supported: ['header'] });
    const anonymous = await rawRequest(mcp.url, { headers: { ...MCP_HEADERS, host }, body: initializeBody() });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toContain(`resource_metadata="http://${host}/.well-known/oauth-protected-resource"`);
  });

  it('lets each client in with its token and keeps its runs from the other client', async () => {
    const a = await clientWith(await tokenFor('agent-a'));
    const b = await clientWith(await tokenFor('agent-b'));
    const runId = (await callTool(a, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    expect((await callTool(a, 'goto_node', { node_id: 'START' })).answer.path).toEqual(['START']);
    const stolen = await callTool(b, 'goto_node', { node_id: 'AUTH', run_id: runId });
    expect(stolen.answer.error).toBe(`Unknown run: ${runId}. Start one with load_graph; it returns the run_id to pass.`);
    expect((await callTool(a, 'goto_node', { node_id: 'AUTH' })).answer.path).toEqual(['START', 'AUTH']);
    const read = await service.store.read(runId, 0);
    expect(read.status === 'found' && read.run.principal).toBe('agent-a');
    await a.close();
    await b.close();
  });

  it('refuses a token issued for another resource', async () => {
    const elsewhere = await tokenFor('agent-a', 'http://127.0.0.1:1/other-mcp');
    const response = await rawRequest(mcp.url, {
      headers: { ...MCP_HEADERS, host: `127.0.0.1:${mcp.port}`, authorization: `Bearer ${elsewhere}` },
      body: initializeBody(),
    });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
  });
});
