/**
 * The live page's server side over real HTTP, with runs driven by a real SDK client: the shell and its assets,
 * the JSON API (rows, one run with its pinned flowchart and audit log, the entries after a step), the event
 * stream fed by the store's subscribe, and who sees what: on loopback without authentication everything is the
 * principal `local`'s; with authentication only page tokens open the page, each to its own principal's runs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticTokenAuth } from '../../../runtime/http/auth.js';
import { serveHttp, type SopHttpServer } from '../../../runtime/http/serve-http.js';
import { planRunsPage } from '../../../runtime/page/runs-page.js';
import type { SessionService } from '../../../runtime/service/session-service.js';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import type { RunStore } from '../../../runtime/store/run-store.js';
import { openEventStream } from '../helpers/event-stream.js';
import { callTool, fixtureService } from '../helpers/mcp-client.js';

async function mcpClient(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } },
  );
  const client = new Client({ name: 'page-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

async function getJson(url: string, token?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text, headers: response.headers };
}

/** A memory store that counts its live subscriptions. */
function countingStore(): RunStore & { readonly subscriptions: number } {
  const store = createMemoryRunStore();
  let subscriptions = 0;
  return {
    ...store,
    subscribe(listener) {
      subscriptions += 1;
      const unsubscribe = store.subscribe(listener);
      return () => {
        subscriptions -= 1;
        unsubscribe();
      };
    },
    get subscriptions() {
      return subscriptions;
    },
  };
}

describe('on loopback without authentication', () => {
  let store: ReturnType<typeof countingStore>;
  let service: SessionService;
  let server: SopHttpServer;
  let base: string;
  let client: Client;

  beforeAll(async () => {
    store = countingStore();
    service = fixtureService({ store });
    const page = planRunsPage({ service, maxStreams: 3 });
    if (!page.on) throw new Error(page.reason);
    server = await serveHttp({ service, host: '127.0.0.1', port: 0, routes: page.routes });
    base = `http://127.0.0.1:${server.port}`;
    client = await mcpClient(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await service.close();
  });

  it('serves the page shell with a strict content security policy, and its assets from this server', async () => {
    const shell = await fetch(`${base}/runs`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shell.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await shell.text();
    expect(html).toContain('<script src="/runs/assets/mermaid.min.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    for (const [asset, type] of [
      ['mermaid.min.js', /javascript/],
      ['page.js', /javascript/],
      ['page.css', /css/],
    ] as const) {
      const response = await fetch(`${base}/runs/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type'), asset).toMatch(type);
      await response.arrayBuffer();
    }
    expect((await fetch(`${base}/runs/assets/../../package.json`)).status).toBe(404);
    expect((await fetch(`${base}/runs/assets/nothing.js`)).status).toBe(404);
  });

  it('lists the runs with agent, step, status and last activity, and shows one run with its flowchart and audit log', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    for (const node of ['START', 'AUTH', 'ROUTE']) await callTool(client, 'goto_node', { node_id: node });
    await callTool(client, 'goto_node', { node_id: 'END_REFUND' });

    const list = await getJson(`${base}/runs/api/runs`);
    expect(list.status).toBe(200);
    expect(list.body.runs).toContainEqual({
      run_id: runId,
      agent: 'support_desk',
      source_hash: expect.stringMatching(/^sha256:/),
      step: 5,
      current_node: 'ROUTE',
      status: 'active',
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });

    const detail = await getJson(`${base}/runs/api/runs/${runId}`);
    expect(detail.body.run).toMatchObject({ run_id: runId, path: ['START', 'AUTH', 'ROUTE'], todos: [] });
    expect(detail.body.sop).toMatchObject({
      agent: 'support_desk',
      entry_node: 'START',
      flowchart: expect.stringMatching(/^flowchart TD\n/),
    });
    expect(detail.body.audit.map((entry: any) => [entry.seq, entry.tool, entry.outcome, entry.to])).toEqual([
      [1, 'load_graph', 'ok', null],
      [2, 'goto_node', 'ok', 'START'],
      [3, 'goto_node', 'ok', 'AUTH'],
      [4, 'goto_node', 'ok', 'ROUTE'],
      [5, 'goto_node', 'refused', 'ROUTE'],
    ]);
    expect(detail.body.more).toBe(false);

    const after = await getJson(`${base}/runs/api/runs/${runId}/audit?after=3`);
    expect(after.body.audit.map((entry: any) => entry.seq)).toEqual([4, 5]);
    expect(after.body.run.step).toBe(5);

    const unknown = await getJson(`${base}/runs/api/runs/nope`);
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Unknown run: nope' } });
  });

  it('reports status done at a terminal node', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    for (const node of ['START', 'AUTH', 'ESCALATE']) await callTool(client, 'goto_node', { node_id: node });
    expect((await getJson(`${base}/runs/api/runs/${runId}`)).body.run).toMatchObject({ status: 'done', current_node: 'ESCALATE' });
  });

  it('streams a row for every change of a run, and holds a store subscription only while a page follows', async () => {
    expect(store.subscriptions).toBe(0);
    const stream = await openEventStream(`${base}/runs/events`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.next((event) => event.name === 'ready');
    expect(store.subscriptions).toBe(1);

    const runId = (await callTool(client, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    const created = await stream.next((event) => event.name === 'run' && JSON.parse(event.data).run_id === runId);
    expect(JSON.parse(created.data)).toMatchObject({ step: 1, status: 'new', current_node: null });

    const from = stream.events.length;
    const sent = performance.now();
    await callTool(client, 'goto_node', { node_id: 'START' });
    const moved = await stream.next((event) => event.name === 'run' && JSON.parse(event.data).current_node === 'START', from);
    expect(JSON.parse(moved.data)).toMatchObject({ run_id: runId, step: 2, status: 'active' });
    console.info(`page event ${Math.round(moved.at - sent)} ms after the goto_node call was sent`);

    stream.close();
    await expect.poll(() => store.subscriptions).toBe(0);
  });

  it('caps the event streams a process serves', async () => {
    const streams = await Promise.all([1, 2, 3].map(() => openEventStream(`${base}/runs/events`)));
    await Promise.all(streams.map((stream) => stream.next((event) => event.name === 'ready')));
    const refused = await getJson(`${base}/runs/events`);
    expect(refused).toMatchObject({ status: 503, body: { error: expect.stringContaining('3 pages at most') } });
    for (const stream of streams) stream.close();
  });
});

describe('with authentication', () => {
  const MCP = new Map([
    ['mcp-alice', 'alice'],
    ['mcp-bob', 'bob'],
  ]);
  const PAGE = new Map([
    ['page-alice', 'alice'],
    ['page-bob', 'bob'],
  ]);
  let service: SessionService;
  let server: SopHttpServer;
  let base: string;
  let alice: Client;
  let runId: string;

  beforeAll(async () => {
    service = fixtureService();
    const page = planRunsPage({ service, auth: staticTokenAuth(MCP), pageTokens: PAGE });
    if (!page.on) throw new Error(page.reason);
    server = await serveHttp({
      service,
      host: '0.0.0.0',
      port: 0,
      routes: page.routes,
      ...(page.auth === undefined ? {} : { auth: page.auth }),
    });
    base = `http://127.0.0.1:${server.port}`;
    alice = await mcpClient(`${base}/mcp`, 'mcp-alice');
    runId = (await callTool(alice, 'load_graph', { agent: 'support_desk' })).answer.run_id as string;
    await callTool(alice, 'goto_node', { node_id: 'START' });
  });
  afterAll(async () => {
    await alice.close();
    await server.close();
    await service.close();
  });

  it('stays off without page tokens', () => {
    expect(planRunsPage({ service, auth: staticTokenAuth(MCP) })).toMatchObject({
      on: false,
      reason: expect.stringContaining('--page-tokens'),
    });
  });

  it('serves the shell to anyone, and the data only with a page token: 401 with WWW-Authenticate otherwise', async () => {
    expect((await fetch(`${base}/runs`)).status).toBe(200);
    expect((await fetch(`${base}/runs/assets/page.js`)).status).toBe(200);
    for (const path of ['/runs/api/runs', `/runs/api/runs/${runId}`, '/runs/events', '/RUNS/api/runs']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate'), path).toMatch(/^Bearer error="invalid_token"/);
      await response.text();
    }
  });

  it("shows a principal's runs to its page token only; another principal's run answers like an unknown one", async () => {
    const own = await getJson(`${base}/runs/api/runs`, 'page-alice');
    expect(own.body.runs.map((row: any) => row.run_id)).toEqual([runId]);
    expect((await getJson(`${base}/runs/api/runs/${runId}`, 'page-alice')).body.run.current_node).toBe('START');

    expect((await getJson(`${base}/runs/api/runs`, 'page-bob')).body.runs).toEqual([]);
    const stolen = await getJson(`${base}/runs/api/runs/${runId}`, 'page-bob');
    const unknown = await getJson(`${base}/runs/api/runs/r_nothing`, 'page-bob');
    expect(stolen.status).toBe(404);
    expect(stolen.body.error).toBe(unknown.body.error.replace('r_nothing', runId));
  });

  it('keeps page tokens and MCP tokens apart: neither opens the other door', async () => {
    expect((await getJson(`${base}/runs/api/runs`, 'mcp-alice')).status).toBe(401);
    const mcpWithPageToken = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer page-alice', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcpWithPageToken.status).toBe(401);
    await mcpWithPageToken.text();
  });

  it("streams a principal's changes to its own pages only", async () => {
    const alicePage = await openEventStream(`${base}/runs/events`, { authorization: 'Bearer page-alice' });
    const bobPage = await openEventStream(`${base}/runs/events`, { authorization: 'Bearer page-bob' });
    await Promise.all([alicePage, bobPage].map((stream) => stream.next((event) => event.name === 'ready')));
    await callTool(alice, 'goto_node', { node_id: 'AUTH' });
    const event = await alicePage.next((candidate) => candidate.name === 'run');
    expect(JSON.parse(event.data)).toMatchObject({ run_id: runId, current_node: 'AUTH' });
    // Then bob starts a run: events arrive in order, so had alice's change reached bob's page, it would come first.
    const bob = await mcpClient(`${base}/mcp`, 'mcp-bob');
    const bobRun = (await callTool(bob, 'load_graph', { agent: 'tiny_flow' })).answer.run_id as string;
    await bobPage.next((candidate) => candidate.name === 'run');
    expect(bobPage.events.map((candidate) => (candidate.name === 'run' ? JSON.parse(candidate.data).run_id : candidate.name))).toEqual([
      'ready',
      bobRun,
    ]);
    await bob.close();
    alicePage.close();
    bobPage.close();
  });
});
