/**
 * How the retail server is served: both protocol eras on both transports with the SDK clients of both lines; stdout
 * carrying nothing but protocol on stdio; the HTTP endpoint's guards (Host, Origin, path, sessions); and the
 * command line's refusals (exit 2, with the usage or the valid values).
 */
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_KINDS,
  connectHttp,
  connectStdio,
  MODERN,
  RETAIL_MAIN,
  type RetailHttpProcess,
  runRawStdio,
  startRetailHttp,
} from './retail-process.js';

const ELM = { address1: '456 Elm Ave', address2: 'Apt 2', city: 'Springfield', state: 'IL', country: 'USA', zip: '62704' };

describe('stdio', () => {
  it.each(CLIENT_KINDS)('a %s client gets the same tools and answers', async (kind) => {
    const client = await connectStdio(kind);
    try {
      expect(await client.toolNames()).toHaveLength(15);
      expect((await client.call('find_user_id_by_email', { email: 'mei.chen2719@example.com' })).structured).toEqual({
        user_id: 'mei_chen_2719',
      });
      expect((await client.call('get_order_details', { order_id: '#W5081726' })).structured.status).toBe('cancelled');
      expect((await client.call('cancel_pending_order', { order_id: '#W5081726', reason: 'no longer needed' })).isError).toBe(true);
      expect(client.stderr()).toMatch(/retail-tools: ready \(stdio\)/);
    } finally {
      await client.close();
    }
  });

  it('writes nothing but JSON-RPC on stdout, answers bad calls without dying, and exits 0 when its input ends', async () => {
    const run = await runRawStdio([
      { name: 'get_user_details', arguments: { user_id: 'lucas_oliveira_5058' } },
      { name: 'get_user_details', arguments: {} },
      { name: 'no_such_tool', arguments: {} },
      { name: 'calculate', arguments: { expression: '2 ** 8' } },
      { name: 'get_order_details', arguments: { order_id: '#W4817420', extra: true } },
    ]);
    expect(run.exitCode).toBe(0);
    const byId = new Map(run.messages.map((message) => [message.id, message]));
    expect(byId.get(1)?.result.structuredContent).toMatchObject({ user_id: 'lucas_oliveira_5058', orders: [] });
    expect(byId.get(2)?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/user_id/) }] });
    expect(byId.get(3)?.error).toMatchObject({ code: -32602, message: expect.stringMatching(/no_such_tool/) });
    expect(byId.get(4)?.result.structuredContent.error).toMatch(/"\*\*" at position 3 is not supported/);
    expect(byId.get(5)?.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Unrecognized key: "extra"/) }] });
    expect(run.stderr).toMatch(/database: in memory, from the seed/);
  });
});

describe('Streamable HTTP: both eras at once on one server', () => {
  let server: RetailHttpProcess;
  beforeAll(async () => {
    server = await startRetailHttp();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves clients of every kind concurrently, over one shared database', async () => {
    const clients = await Promise.all(CLIENT_KINDS.map((kind) => connectHttp(kind, server)));
    try {
      const lists = await Promise.all(clients.map((client) => client.tools()));
      for (const list of lists) expect(list).toEqual(lists[0]);
      // Each client changes a different user's address; every client then sees every change.
      const users = ['sophia_martin_4832', 'mei_chen_2719', 'amara_okafor_1357'];
      await Promise.all(
        clients.map((client, i) => client.call('modify_user_address', { user_id: users[i], ...ELM, address2: client.kind })),
      );
      for (const client of clients) {
        for (const [i, user] of users.entries()) {
          expect((await client.call('get_user_details', { user_id: user })).structured.address.address2).toBe(CLIENT_KINDS[i]);
        }
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('answers server/discover with the 2026-07-28 revision and its capabilities', async () => {
    const modern = new Client({ name: 'discover', version: '0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await modern.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(modern.getDiscoverResult()?.capabilities).toMatchObject({ tools: { listChanged: true } });
      expect(modern.getServerVersion()).toMatchObject({ name: 'retail-tools' });
    } finally {
      await modern.close();
    }
  });

  /** A raw POST with exactly these headers (fetch would not let a test set Host). */
  const post = (headers: Record<string, string>, body: unknown, path = '/mcp') =>
    new Promise<{ status: number; headers: Record<string, unknown>; json: () => any }>((resolve, reject) => {
      const url = new URL(path, server.url);
      const req = request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: () => JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  };

  it('refuses a foreign Host or Origin (DNS rebinding) and any path but /mcp', async () => {
    expect((await post({ host: 'evil.example.com' }, initialize)).status).toBe(403);
    expect((await post({ origin: 'http://evil.example.com' }, initialize)).status).toBe(403);
    const elsewhere = await post({}, initialize, '/other');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json().error.message).toMatch(/the MCP endpoint is \/mcp/);
    expect((await post({ origin: `http://localhost:${new URL(server.url).port}` }, initialize)).status).toBe(200);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const answer = await post({}, '{"jsonrpc": "2.0", "id": 1,');
    expect(answer.status).toBe(400);
    expect(answer.json().error).toMatchObject({ code: -32700, message: expect.stringMatching(/not JSON/) });
  });

  it('keeps 2025-era sessions: a request needs one, DELETE ends it, an ended or unknown one is 404', async () => {
    const opened = await post({}, initialize);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers['mcp-session-id'];
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': '2025-06-18' };
    await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await post(headers, listTools)).status).toBe(200);
    const without = await post({}, listTools);
    expect(without.status).toBe(400);
    expect(without.json().error.message).toMatch(/send initialize first/);
    expect((await fetch(server.url, { method: 'DELETE', headers })).status).toBe(200);
    expect((await post(headers, listTools)).status).toBe(404);
    expect((await post({ ...headers, 'mcp-session-id': 'not-a-session' }, listTools)).status).toBe(404);
  });
});

describe('the command line', () => {
  const run = (args: readonly string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [RETAIL_MAIN, ...args], { input: '', encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });

  it.each([
    [['--bogus'], /unknown argument "--bogus"[\s\S]*usage:/],
    [['--port', '80'], /--port needs --http/],
    [['--http', '--port', 'x'], /--port needs a port number from 0 to 65535, not x/],
    [['--http', '--port', '70000'], /--port needs a port number/],
    [['--db'], /--db needs a file name/],
  ])('%j is refused with exit 2', (args, message) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it.each([
    [{ RETAIL_TOOLS_DELAY_MS: 'soon' }, /RETAIL_TOOLS_DELAY_MS must be a whole number of milliseconds/],
    [
      { RETAIL_TOOLS_HANG_ON: 'cancel_order' },
      /RETAIL_TOOLS_HANG_ON names no tool: "cancel_order"; the tools are find_user_id_by_email, .*cancel_pending_order/,
    ],
    [{ RETAIL_TOOLS_CRASH_ON: 'x' }, /RETAIL_TOOLS_CRASH_ON names no tool/],
  ])('a bad fault switch %j stops the server at start', (env, message) => {
    const result = run([], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('--help prints the usage with the fault switches and exits 0', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: node dist\/examples\/retail-tools\/main\.js[\s\S]*RETAIL_TOOLS_CRASH_ON[\s\S]*SIGUSR2/);
  });
});
