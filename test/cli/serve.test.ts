import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, vi } from 'vitest';
import { parseServeArgs, runServe } from '../../cli/commands/serve.js';
import { findProjectRoot } from '../../cli/project-root.js';
import { PROJECT_ROOT } from '../runtime/helpers/fixture-process.js';
import { conversation, jsonRpcLines, runStdio } from '../runtime/helpers/stdio-process.js';
import { servedApp } from '../support/served-app.js';

const CLI = join(PROJECT_ROOT, 'dist/cli/main.js');

describe('sop serve arguments', () => {
  it.each([
    [[], { mode: 'stdio', watch: true }],
    [['--stdio', '--no-watch'], { mode: 'stdio', watch: false }],
    [['--http'], { mode: 'http', host: '127.0.0.1', port: 3000, watch: true }],
    [['--http', '--port', '0', '--host', 'localhost'], { mode: 'http', host: 'localhost', port: 0, watch: true }],
    [['--port=8080'], { mode: 'http', host: '127.0.0.1', port: 8080, watch: true }],
    [
      ['--http', '--run-ttl', '30m', '--max-sessions', '5'],
      { mode: 'http', host: '127.0.0.1', port: 3000, watch: true, runIdleMs: 1_800_000, maxLiveSessions: 5 },
    ],
    [
      ['--http', '--host', '0.0.0.0', '--tokens', 'tokens.txt'],
      { mode: 'http', host: '0.0.0.0', port: 3000, watch: true, tokens: 'tokens.txt' },
    ],
    [
      [
        '--http',
        '--oauth-issuer',
        'https://as.example',
        '--oauth-introspection',
        'https://as.example/introspect',
        '--oauth-client-id',
        'mcp',
      ],
      {
        mode: 'http',
        host: '127.0.0.1',
        port: 3000,
        watch: true,
        oauth: { issuer: 'https://as.example', introspectionUrl: 'https://as.example/introspect', clientId: 'mcp' },
      },
    ],
    [
      ['--http', '--oauth-issuer', 'https://as.example'],
      { mode: 'error', message: 'OAuth needs --oauth-issuer, --oauth-introspection and --oauth-client-id' },
    ],
    [['--run-ttl', 'soon'], { mode: 'error', message: '--run-ttl needs a duration such as 90s, 30m, 24h or 7d, got soon' }],
    [['--help'], { mode: 'help' }],
    [['--stdio', '--port', '1'], { mode: 'error', message: '--host, --port, --tokens and --oauth-* apply to --http only' }],
    [['--stdio', '--http'], { mode: 'error', message: 'choose one of --stdio and --http' }],
    [['--port', '70000'], { mode: 'error', message: '--port needs a number from 0 to 65535, got 70000' }],
    [['--port'], { mode: 'error', message: '--port needs a number from 0 to 65535, got nothing' }],
    [['--host'], { mode: 'error', message: '--host needs a value' }],
    [['--verbose'], { mode: 'error', message: 'unknown option --verbose' }],
  ])('%j → %j', (args, expected) => {
    expect(parseServeArgs(args)).toEqual(expected);
  });

  it('exits 0 for --help and 2 for bad usage, before touching the registry, writing to stderr', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(await runServe(['--help'])).toBe(0);
      expect(await runServe(['--nope'])).toBe(2);
    } finally {
      stderr.mockRestore();
    }
    expect(written.join('')).toMatch(/^Usage: sop serve[\s\S]*sop serve: unknown option --nope\n\nUsage: sop serve/);
  });

  it('finds the app root from any folder inside it, never from where the toolkit is', () => {
    expect(findProjectRoot(join(PROJECT_ROOT, 'sops'))).toBe(PROJECT_ROOT.replace(/\/$/, ''));
    expect(findProjectRoot(join(PROJECT_ROOT, 'test/fixtures/runtime/project/sops'))).toBe(PROJECT_ROOT.replace(/\/$/, ''));
    expect(findProjectRoot('/')).toBe('/');
  });
});

describe('sop serve with the generated bundle', () => {
  it('on stdio, writes nothing but JSON-RPC lines on stdout and exits 0 when input ends', async () => {
    const bundle = JSON.parse(readFileSync(join(PROJECT_ROOT, 'generated/sop-bundle.json'), 'utf8')) as { agents: object };
    const agent = Object.keys(bundle.agents)[0] ?? 'none';
    const run = await runStdio(
      process.execPath,
      [CLI, 'serve'],
      conversation([
        { name: 'load_graph', arguments: { agent } },
        { name: 'goto_node', arguments: { node_id: 'NOT_A_NODE' } },
        { name: 'no_such_tool', arguments: {} },
      ]),
      { cwd: PROJECT_ROOT },
    );
    expect(run.exitCode).toBe(0);
    const messages = jsonRpcLines(run.stdout).sort((a, b) => Number(a.id) - Number(b.id));
    expect(messages.map((message) => message.id)).toEqual([0, 1, 2, 3, 4]);
    expect(messages[2]?.result?.structuredContent).toMatchObject({ agent });
    expect(messages[3]?.result).toMatchObject({ isError: true });
    expect(messages[4]?.error).toMatchObject({ code: -32602 });
  });

  it('over HTTP, serves on a free port with its durable default store under the app root, and stops cleanly on SIGTERM', async () => {
    // An app of its own: the default store (.sop/runs.db) goes there, never into this checkout's data folder.
    const app = servedApp();
    const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], {
      cwd: app.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        const timer = setTimeout(() => reject(new Error(`no URL announced:\n${stderr}`)), 15_000);
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
          if (found?.[1]) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
      });
      const client = new Client({ name: 'cli-http-test', version: '0.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['load_graph', 'goto_node', 'todo', 'inspect']);
      await transport.terminateSession();
      await client.close();
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(app.dir, '.sop', 'runs.db'))).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      app.remove();
    }
  });
});
