/**
 * A domain server over Streamable HTTP (the retail server with `--http`), its `Authorization` header taken from
 * the gateway's environment (`${RETAIL_TOKEN}`), and what crosses the wire checked on a recording proxy between
 * the two: the server gets the SOP's header and never the credentials of the gateway's own client (no token
 * passthrough). The gateway here serves HTTP with a bearer token of its own, which its client sends. And a domain
 * server of the 2025 era only over HTTP (sessions after `initialize`, as servers on the SDK's v1 line are): the
 * gateway's client finds no 2026-07-28 there and speaks the older protocol.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { readTokenFile, staticTokenAuth } from '../../../runtime/http/auth.js';
import { serveHttp, type SopHttpServer } from '../../../runtime/http/serve-http.js';
import { type RetailHttpProcess, startRetailHttp } from '../../examples/retail-tools/retail-process.js';
import {
  authenticated,
  callOn,
  type GatewayClient,
  type GatewayUnderTest,
  legacyClient,
  REPO_BUNDLE,
  RETAIL,
  startGateway,
} from '../../support/gateway.js';

const dir = mkdtempSync(join(tmpdir(), 'sop-http-upstream-'));
let retail: RetailHttpProcess;
let proxy: Server;
let gateway: GatewayUnderTest;
let front: SopHttpServer;
const seen: IncomingHttpHeaders[] = [];

/** Forwards every request to `target`, keeping what it saw. */
function recordingProxy(target: URL): Promise<Server> {
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  retail = await startRetailHttp({ db: join(dir, 'retail.json') });
  proxy = await recordingProxy(new URL(retail.url));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  const sop: CompiledSop = {
    ...REPO_BUNDLE.agents[RETAIL]!,
    meta: {
      ...REPO_BUNDLE.agents[RETAIL]!.meta,
      mcpServers: [{ name: 'retail-tools', url, headers: { Authorization: 'Bearer ${RETAIL_TOKEN}' } }],
    },
  };
  const bundle: SopBundle = { ...REPO_BUNDLE, agents: { [RETAIL]: sop } };
  gateway = await startGateway({ bundle, environment: { RETAIL_TOKEN: 'upstream-secret' } });
  const tokens = join(dir, 'tokens');
  writeFileSync(tokens, 'alice client-secret\n');
  front = await serveHttp({ service: gateway.service, host: '127.0.0.1', port: 0, auth: staticTokenAuth(readTokenFile(tokens)) });
});
afterAll(async () => {
  await front?.close();
  await gateway?.close();
  proxy?.close();
  await retail?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('reaches a Streamable HTTP server with the header the SOP names, from the environment, and never passes the client credentials on', async () => {
  expect(gateway.domain.upstreams[0]!.status().state).toBe('up');
  const client = new Client({ name: 'alice', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(front.url), { requestInit: { headers: { Authorization: 'Bearer client-secret' } } }),
  );
  const call: GatewayClient['call'] = (name, args) => callOn(client, name, args);
  const runId = (await call('load_graph', { agent: RETAIL })).answer.run_id as string;
  await authenticated({ call } as GatewayClient, { run_id: runId });
  await call('goto_node', { node_id: 'CHK_CANCEL', run_id: runId });
  const order = await call('get_order_details', { order_id: '#W4817420', run_id: runId });
  expect(order.answer.status).toBe('pending');
  const authorizations = seen.map((headers) => headers.authorization);
  expect(authorizations.length).toBeGreaterThan(2);
  expect(new Set(authorizations)).toEqual(new Set(['Bearer upstream-secret']));
  expect(JSON.stringify(seen)).not.toContain('client-secret');
  await client.close();
});

it('reaches a domain server that speaks only the 2025 era over HTTP, with a session, and forwards through it', async () => {
  const old = await startRetailHttp({ db: join(dir, 'retail-2025.json'), legacyOnly: true });
  const sop: CompiledSop = {
    ...REPO_BUNDLE.agents[RETAIL]!,
    meta: { ...REPO_BUNDLE.agents[RETAIL]!.meta, mcpServers: [{ name: 'retail-tools', url: old.url }] },
  };
  const legacyGateway = await startGateway({ bundle: { ...REPO_BUNDLE, agents: { [RETAIL]: sop } } });
  try {
    expect(legacyGateway.domain.upstreams[0]!.status()).toMatchObject({ state: 'up', era: 'legacy' });
    expect(gateway.domain.upstreams[0]!.status()).toMatchObject({ state: 'up', era: 'modern' });
    const client = await legacyClient(legacyGateway);
    await client.call('load_graph', { agent: RETAIL });
    await authenticated(client);
    await client.call('goto_node', { node_id: 'CHK_CANCEL' });
    expect((await client.call('get_order_details', { order_id: '#W4817420' })).answer.status).toBe('pending');
    await client.close();
  } finally {
    await legacyGateway.close();
    await old.stop();
  }
});
