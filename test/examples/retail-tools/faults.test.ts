/**
 * The fault switches the gateway's fault tests use, on the real server process:
 *   - RETAIL_TOOLS_DELAY_MS: every call waits at least that long (a lower bound: load only adds to it);
 *   - RETAIL_TOOLS_HANG_ON: that tool never answers and changes nothing, while other calls are still served;
 *   - RETAIL_TOOLS_CRASH_ON: the change is applied and saved, then the process exits with code 1 and no answer;
 *   - SIGUSR2: `get_store_hours` comes and goes, and every client hears `notifications/tools/list_changed`:
 *     2025-era clients (v1 and v2) directly, 2026-07-28 clients on their `subscriptions/listen` stream, over
 *     stdio and over HTTP (several clients of every kind on one HTTP server at once).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLIENT_KINDS,
  type ClientKind,
  connectHttp,
  connectStdio,
  type RetailClient,
  type RetailHttpProcess,
  runRawStdio,
  startRetailHttp,
} from './retail-process.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'retail-faults-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'db.json');
};
const stdioClient = async (kind: ClientKind, options: Parameters<typeof connectStdio>[1]) => {
  const client = await connectStdio(kind, options);
  cleanups.push(() => client.close());
  return client;
};
const httpServer = async (options: Parameters<typeof startRetailHttp>[0]) => {
  const server = await startRetailHttp(options);
  cleanups.push(() => server.stop());
  return server;
};
const httpClient = async (kind: ClientKind, server: RetailHttpProcess) => {
  const client = await connectHttp(kind, server);
  cleanups.push(() => client.close().catch(() => undefined));
  return client;
};
const orderIn = (file: string, id: string) => JSON.parse(readFileSync(file, 'utf8')).orders[id];
const CANCEL = { order_id: '#W6619432', reason: 'no longer needed' };

describe('RETAIL_TOOLS_DELAY_MS', () => {
  it('makes every call wait at least that long, and is announced on stderr', async () => {
    const client = await stdioClient('v1', { env: { RETAIL_TOOLS_DELAY_MS: '400' } });
    for (const [name, args] of [
      ['calculate', { expression: '1 + 1' }],
      ['get_order_details', { order_id: '#W4817420' }],
    ] as const) {
      const started = performance.now();
      expect((await client.call(name, args)).isError).toBe(false);
      expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    }
    expect(client.stderr()).toMatch(/faults: every call waits 400 ms/);
  });
});

describe('RETAIL_TOOLS_HANG_ON', () => {
  it('over stdio: that tool never answers and changes nothing; the others still answer meanwhile', async () => {
    const db = tempDb();
    const client = await stdioClient('v1', { db, env: { RETAIL_TOOLS_HANG_ON: 'cancel_pending_order' } });
    const hung = client.call('cancel_pending_order', CANCEL, 1_500);
    expect((await client.call('get_order_details', { order_id: '#W6619432' })).structured.status).toBe('pending');
    await expect(hung).rejects.toThrow(/timed out/i);
    expect(orderIn(db, '#W6619432').status).toBe('pending');
    expect(client.stderr()).toMatch(/cancel_pending_order: received, never answering \(RETAIL_TOOLS_HANG_ON\)/);
  });

  it('over HTTP: the hung request stays open while other requests are served', async () => {
    const db = tempDb();
    const server = await httpServer({ db, env: { RETAIL_TOOLS_HANG_ON: 'modify_user_address' } });
    const client = await httpClient('v2-modern', server);
    const other = await httpClient('v1', server);
    const hung = client.call(
      'modify_user_address',
      { user_id: 'mei_chen_2719', address1: 'x', address2: '', city: 'y', state: 'z', country: 'c', zip: '1' },
      1_500,
    );
    expect((await other.call('cancel_pending_order', CANCEL)).structured.status).toBe('cancelled');
    await expect(hung).rejects.toThrow(/timed out/i);
    expect(JSON.parse(readFileSync(db, 'utf8')).users.mei_chen_2719.address.address1).toBe('88 Harbor Road');
  });
});

describe('RETAIL_TOOLS_CRASH_ON', () => {
  it('over stdio, at the byte level: the change is saved, no answer is written, and the process exits with 1', async () => {
    const call = { name: 'cancel_pending_order', arguments: CANCEL };
    // Control: without the switch the call is answered, and the server ends with its input.
    const control = await runRawStdio([call], { db: tempDb() });
    expect(control.exitCode).toBe(0);
    expect(control.messages.map((message) => message.id)).toEqual([0, 1]);

    const db = tempDb();
    const crashed = await runRawStdio([call], { db, env: { RETAIL_TOOLS_CRASH_ON: 'cancel_pending_order' } });
    expect(crashed.exitCode).toBe(1);
    expect(crashed.messages.map((message) => message.id)).toEqual([0]);
    expect(crashed.stderr).toMatch(/cancel_pending_order: applied, exiting before answering \(RETAIL_TOOLS_CRASH_ON\)/);
    expect(orderIn(db, '#W6619432')).toMatchObject({ status: 'cancelled', cancel_reason: 'no longer needed' });
  });

  it('with an SDK client over stdio: the call fails, yet the order is cancelled in the file', async () => {
    const db = tempDb();
    const client = await stdioClient('v1', { db, env: { RETAIL_TOOLS_CRASH_ON: 'cancel_pending_order' } });
    expect((await client.call('get_order_details', { order_id: '#W6619432' })).structured.status).toBe('pending');
    await expect(client.call('cancel_pending_order', CANCEL)).rejects.toThrow();
    expect(orderIn(db, '#W6619432').status).toBe('cancelled');
    expect(client.stderr()).toMatch(/cancel_pending_order: applied, exiting before answering/);
  });

  it('over HTTP: the request fails, the process exits with 1, and a refused call crashes it with the file unchanged', async () => {
    const db = tempDb();
    const server = await httpServer({ db, env: { RETAIL_TOOLS_CRASH_ON: 'cancel_pending_order' } });
    const client = await httpClient('v2-modern', server);
    await expect(client.call('cancel_pending_order', CANCEL)).rejects.toThrow();
    expect(await server.stop()).toEqual({ code: 1, signal: null });
    expect(orderIn(db, '#W6619432').status).toBe('cancelled');

    const refusedDb = tempDb();
    const again = await httpServer({ db: refusedDb, env: { RETAIL_TOOLS_CRASH_ON: 'cancel_pending_order' } });
    const before = readFileSync(refusedDb, 'utf8');
    const caller = await httpClient('v1', again);
    await expect(caller.call('cancel_pending_order', { ...CANCEL, order_id: '#W3172905' })).rejects.toThrow();
    expect(await again.stop()).toEqual({ code: 1, signal: null });
    expect(again.stderr()).toMatch(/cancel_pending_order: refused, exiting before answering/);
    expect(readFileSync(refusedDb, 'utf8')).toBe(before);
  });
});

describe('SIGUSR2: the tool list changes while clients are connected', () => {
  /** Two toggles: the tool appears (and works), then disappears (and is refused as unknown). */
  async function toggleTwice(clients: readonly RetailClient[], signal: () => void): Promise<void> {
    const watches = await Promise.all(clients.map((client) => client.watchToolsChanged()));
    for (const client of clients) expect(await client.toolNames()).not.toContain('get_store_hours');
    signal();
    await Promise.all(watches.map((watch) => watch.nth(1)));
    for (const client of clients) {
      expect(await client.toolNames(), client.kind).toContain('get_store_hours');
      expect((await client.call('get_store_hours')).structured).toMatchObject({
        timezone: 'America/New_York',
        hours: { sunday: 'closed' },
      });
    }
    signal();
    await Promise.all(watches.map((watch) => watch.nth(2)));
    for (const client of clients) {
      expect(await client.toolNames(), client.kind).not.toContain('get_store_hours');
      await expect(client.call('get_store_hours')).rejects.toMatchObject({ code: -32602 });
      expect(await client.toolNames()).toHaveLength(15);
    }
    for (const watch of watches) expect(watch.count()).toBe(2);
  }

  it.each(CLIENT_KINDS)('over stdio, a %s client is notified both ways', async (kind) => {
    const client = await stdioClient(kind, {});
    await toggleTwice([client], () => process.kill(client.pid, 'SIGUSR2'));
    expect(client.stderr()).toMatch(/get_store_hours added to the tool list \(SIGUSR2\)[\s\S]*get_store_hours removed from the tool list/);
  });

  it('over HTTP, clients of every kind on one server are all notified both ways', async () => {
    const server = await httpServer({});
    const clients: RetailClient[] = [];
    for (const kind of [...CLIENT_KINDS, ...CLIENT_KINDS]) clients.push(await httpClient(kind, server));
    // A 2025-era session hears the change on the GET stream its client opens after initialize: wait until all are open.
    const legacy = clients.filter((client) => client.kind !== 'v2-modern').length;
    await server.waitForStderr(new RegExp(`(notification stream open.*?){${legacy}}`, 's'));
    await toggleTwice(clients, () => process.kill(server.pid, 'SIGUSR2'));
  });
});
