/**
 * The real retail server (`dist/examples/retail-tools/main.js`, built by the global setup) for tests, with real
 * SDK clients of both lines: v1 (`@modelcontextprotocol/sdk`, 2025-era), v2 in its default mode (2025-era,
 * `initialize`) and v2 pinned to 2026-07-28 (server/discover, per-request envelopes). Over stdio the client's
 * transport spawns the server; over HTTP a test starts the process (`startRetailHttp`) and connects to its URL.
 *
 * Every `call` also checks the server's promise that a tool's text content is the same JSON as its structured
 * content, so no test can forget to.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

export const RETAIL_MAIN = fileURLToPath(new URL('../../../dist/examples/retail-tools/main.js', import.meta.url));
export const SEED_FILE = fileURLToPath(new URL('../../../examples/retail-tools/seed.json', import.meta.url));
export const MODERN = '2026-07-28';

export type ClientKind = 'v1' | 'v2-legacy' | 'v2-modern';
export const CLIENT_KINDS: readonly ClientKind[] = ['v1', 'v2-legacy', 'v2-modern'];

export interface ServerOptions {
  /** `--db FILE`. */
  readonly db?: string;
  /** Extra environment (the fault switches). */
  readonly env?: Record<string, string>;
  /** Over HTTP, `--legacy-only`: the 2025 era only, as a server of the SDK's v1 line. */
  readonly legacyOnly?: boolean;
}

export interface ToolAnswer {
  readonly isError: boolean;
  readonly structured: any;
}

export interface RetailClient {
  readonly kind: ClientKind;
  /** The server process (over HTTP: the process serving this client). */
  readonly pid: number;
  /** `timeoutMs`: the client gives up after that long (default: the SDK's 60 s). */
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ToolAnswer>;
  toolNames(): Promise<string[]>;
  tools(): Promise<ListedTool[]>;
  /** Starts counting `notifications/tools/list_changed` (for a 2026-07-28 client: opens a listen stream first). */
  watchToolsChanged(): Promise<ToolsChangedWatch>;
  close(): Promise<void>;
}

export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { type: string; [keyword: string]: unknown };
  readonly outputSchema?: { type: string; [keyword: string]: unknown };
  readonly annotations?: { readOnlyHint?: boolean; [hint: string]: unknown };
}

export interface ToolsChangedWatch {
  /** Resolves on the n-th notification since the watch began (the test's own timeout bounds the wait). */
  nth(n: number): Promise<void>;
  count(): number;
}

function makeClient(kind: ClientKind): ClientV1 | ClientV2 {
  const info = { name: `retail-test-${kind}`, version: '0.0.0' };
  if (kind === 'v1') return new ClientV1(info);
  if (kind === 'v2-legacy') return new ClientV2(info);
  return new ClientV2(info, { versionNegotiation: { mode: { pin: MODERN } } });
}

function serverArgs(options: ServerOptions, extra: readonly string[] = []): string[] {
  return [
    RETAIL_MAIN,
    ...extra,
    ...(options.legacyOnly === true ? ['--legacy-only'] : []),
    ...(options.db === undefined ? [] : ['--db', options.db]),
  ];
}

/** A client whose transport spawns the server over stdio. `stderr()` is what the server logged so far. */
export async function connectStdio(kind: ClientKind, options: ServerOptions = {}): Promise<RetailClient & { stderr(): string }> {
  const client = makeClient(kind);
  const params = {
    command: process.execPath,
    args: serverArgs(options),
    env: { ...getDefaultEnvironment(), ...options.env },
    stderr: 'pipe' as const,
  };
  const transport = client instanceof ClientV2 ? new StdioV2(params) : new StdioV1(params);
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport as never);
  const pid = transport.pid;
  if (pid === null) throw new Error('the stdio transport started no process');
  return { ...wrap(kind, client, pid), stderr: () => stderr };
}

export async function connectHttp(kind: ClientKind, server: RetailHttpProcess): Promise<RetailClient> {
  const client = makeClient(kind);
  const url = new URL(server.url);
  await client.connect(client instanceof ClientV2 ? new HttpV2(url) : (new HttpV1(url) as never));
  return wrap(kind, client, server.pid);
}

function wrap(kind: ClientKind, client: ClientV1 | ClientV2, pid: number): RetailClient {
  if (client instanceof ClientV2) expect(client.getProtocolEra()).toBe(kind === 'v2-modern' ? 'modern' : 'legacy');
  return {
    kind,
    pid,
    async call(name, args = {}, timeoutMs) {
      const options = timeoutMs === undefined ? undefined : { timeout: timeoutMs };
      const params = { name, arguments: args };
      const result =
        client instanceof ClientV2 ? await client.callTool(params, options) : await client.callTool(params, undefined, options);
      const content = result.content as { type: string; text?: string }[];
      expect(content).toHaveLength(1);
      expect(JSON.parse(content[0]?.text ?? 'null')).toEqual(result.structuredContent);
      return { isError: result.isError === true, structured: result.structuredContent };
    },
    async toolNames() {
      const { tools } = await client.listTools();
      return tools.map((tool) => tool.name);
    },
    async tools() {
      return (await client.listTools()).tools as ListedTool[];
    },
    async watchToolsChanged() {
      let count = 0;
      const waiters: { n: number; resolve: () => void }[] = [];
      const onChanged = () => {
        count++;
        for (const waiter of waiters.filter((w) => w.n <= count)) waiter.resolve();
      };
      if (client instanceof ClientV2) {
        client.setNotificationHandler('notifications/tools/list_changed', onChanged);
        if (kind === 'v2-modern') await client.listen({ toolsListChanged: true });
      } else {
        client.setNotificationHandler(ToolListChangedNotificationSchema, onChanged);
      }
      return {
        count: () => count,
        nth: (n) => (count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
      };
    },
    close: () => client.close(),
  };
}

export interface RetailHttpProcess {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves once the server has logged a line matching `pattern` (the test's timeout bounds the wait). */
  waitForStderr(pattern: RegExp): Promise<void>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node main.js --http --port 0`, ready once it printed `listening <port>` on stdout. */
export async function startRetailHttp(options: ServerOptions = {}): Promise<RetailHttpProcess> {
  const child = spawn(process.execPath, serverArgs(options, ['--http', '--port', '0']), {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const stderrWaiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of stderrWaiters.filter((w) => w.pattern.test(stderr))) waiter.resolve();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^listening (\d+)$/m.exec(stdout);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the retail server exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid as number,
    child,
    stderr: () => stderr,
    waitForStderr: (pattern) =>
      pattern.test(stderr) ? Promise.resolve() : new Promise<void>((resolve) => stderrWaiters.push({ pattern, resolve })),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface RawRun {
  readonly exitCode: number | null;
  /** Every stdout line, parsed: a line that is not JSON fails the test (stdout carries protocol only). */
  readonly messages: { id?: unknown; result?: any; error?: any; method?: string }[];
  readonly stderr: string;
}

/**
 * A stdio server driven at the byte level: `initialize`, `notifications/initialized`, then one `tools/call` per
 * call (ids 1, 2, …), written at once; stdin is closed when every request is answered or the process has exited.
 */
export function runRawStdio(calls: readonly { name: string; arguments: object }[], options: ServerOptions = {}): Promise<RawRun> {
  const child = spawn(process.execPath, serverArgs(options), { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const ids = [0, ...calls.map((_call, index) => index + 1)];
  const answered = () =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { id?: unknown });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const seen = answered().map((message) => message.id);
    if (ids.every((id) => seen.includes(id))) child.stdin.end();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on('error', () => {}); // the server may be gone before we close our end
  const lines = [
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map((call, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: call })),
  ];
  child.stdin.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return new Promise((resolve) => {
    child.once('exit', (exitCode) => {
      setImmediate(() => resolve({ exitCode, messages: answered() as RawRun['messages'], stderr }));
    });
  });
}

/** The seed database as the tests read it: straight from the committed file. */
export function seed(): any {
  return JSON.parse(readFileSync(SEED_FILE, 'utf8'));
}
