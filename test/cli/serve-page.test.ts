/**
 * `sop serve`'s flags for the navigator and the runs page: parsing, and the real CLI process serving the page
 * on loopback, keeping it off when the server authenticates without page tokens, and opening it to page
 * tokens only when they are given.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../cli/commands/serve.js';
import { PROJECT_ROOT } from '../runtime/helpers/fixture-process.js';
import { servedApp } from '../support/served-app.js';

const CLI = join(PROJECT_ROOT, 'dist/cli/main.js');
const HTTP = { mode: 'http', host: '127.0.0.1', port: 3000, watch: true } as const;

describe('sop serve arguments for inspect and the page', () => {
  it.each([
    [['--inspect', 'all'], { mode: 'stdio', watch: true, inspectViews: ['where', 'agents', 'nodes', 'search', 'diagram', 'validate'] }],
    [['--inspect', 'where,search'], { mode: 'stdio', watch: true, inspectViews: ['where', 'search'] }],
    [['--inspect=none'], { mode: 'stdio', watch: true, inspectViews: [] }],
    [
      ['--inspect', 'all', '--no-validate'],
      { mode: 'stdio', watch: true, inspectViews: ['where', 'agents', 'nodes', 'search', 'diagram'] },
    ],
    [['--no-validate'], { mode: 'stdio', watch: true, inspectViews: ['where'] }],
    [
      ['--inspect', 'where,map'],
      { mode: 'error', message: '--inspect: unknown view map; views: where, agents, nodes, search, diagram, validate, or all, or none' },
    ],
    [['--http', '--page-tokens', 'page.txt'], { ...HTTP, pageTokens: 'page.txt' }],
    [['--http', '--no-page'], { ...HTTP, page: false }],
    [['--page-tokens', 'page.txt'], { mode: 'error', message: '--page-tokens and --no-page apply to --http only' }],
    [['--http', '--no-page', '--page-tokens', 'p'], { mode: 'error', message: 'choose one of --page-tokens and --no-page' }],
  ])('%j → %j', (args, expected) => {
    expect(parseServeArgs(args)).toEqual(expected);
  });
});

interface Served {
  readonly base: string;
  readonly announcement: string;
  stop(): Promise<number | null>;
}

/**
 * Starts `sop serve --http --port 0 …` in an app of its own (its default store, `.sop/runs.db`, starts empty
 * there: never this checkout's, where a developer's server keeps runs) and waits for its start-up line.
 */
async function serve(args: readonly string[]): Promise<Served> {
  const app = servedApp();
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], {
    cwd: app.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.on('exit', () => app.remove());
  const announcement = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no start-up line:\n${stderr}`)), 15_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('\n')) {
        clearTimeout(timer);
        resolve(stderr);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
  });
  const port = /:(\d+)\/mcp/.exec(announcement)?.[1];
  if (port === undefined) {
    child.kill('SIGKILL');
    throw new Error(announcement);
  }
  return {
    base: `http://127.0.0.1:${port}`,
    announcement,
    stop() {
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('sop serve --http and the runs page', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sop-page-tokens-'));
  const tokens = join(folder, 'tokens.txt');
  const pageTokens = join(folder, 'page-tokens.txt');
  writeFileSync(tokens, 'alice mcp-token-alice\n');
  writeFileSync(pageTokens, 'alice page-token-alice\n');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('serves the page on loopback with no token, and lists inspect with the views asked for', async () => {
    const served = await serve(['--inspect', 'all']);
    try {
      expect(served.announcement).toContain(`the runs page at ${served.base}/runs`);
      expect((await fetch(`${served.base}/runs`)).status).toBe(200);
      const mermaid = await fetch(`${served.base}/runs/assets/mermaid.min.js`);
      expect(mermaid.status).toBe(200);
      expect((await mermaid.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
      expect(await (await fetch(`${served.base}/runs/api/runs`)).json()).toEqual({ runs: [], next_before: null });

      const client = new Client({ name: 'cli-page-test', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${served.base}/mcp`)));
      const inspect = (await client.listTools()).tools.find((tool) => tool.name === 'inspect');
      expect(inspect?.inputSchema.properties?.['view']).toMatchObject({
        enum: ['where', 'agents', 'nodes', 'search', 'diagram', 'validate'],
      });
      await client.close();
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('keeps the page off when the server authenticates and no page token is given', async () => {
    const served = await serve(['--host', '0.0.0.0', '--tokens', tokens]);
    try {
      expect(served.announcement).toContain('the runs page is off: the server authenticates and no page token is configured');
      expect((await fetch(`${served.base}/runs`)).status).toBe(401);
      expect((await fetch(`${served.base}/runs/api/runs`, { headers: { authorization: 'Bearer mcp-token-alice' } })).status).toBe(404);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('opens the page to page tokens only, on a network address', async () => {
    const served = await serve(['--host', '0.0.0.0', '--tokens', tokens, '--page-tokens', pageTokens]);
    try {
      expect(served.announcement).toContain('the runs page with 1 page token(s)');
      expect((await fetch(`${served.base}/runs`)).status).toBe(200);
      expect((await fetch(`${served.base}/runs/api/runs`)).status).toBe(401);
      expect((await fetch(`${served.base}/runs/api/runs`, { headers: { authorization: 'Bearer mcp-token-alice' } })).status).toBe(401);
      expect((await fetch(`${served.base}/runs/api/runs`, { headers: { authorization: 'Bearer page-token-alice' } })).status).toBe(200);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
