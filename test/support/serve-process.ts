/**
 * A real `sop serve --http` process for tests: spawned from `dist/cli/main.js` (built by the global setup) in a
 * project folder, on a free port, ready once it has announced its URL on stderr. `kill('SIGKILL')` is the
 * `kill -9` of the durability tests; `stop()` ends it gracefully (SIGTERM) and waits for the exit.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI } from './run-cli.js';

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export async function startServe(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sop serve announced no URL within 30 s:\n${stderr}`)), 30_000);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sop serve exited with ${code} before serving:\n${stderr}`));
    });
  });
  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, child, stderr: () => stderr, kill, stop: () => kill('SIGTERM') };
}

/** An SDK client connected over Streamable HTTP; with `sessionId`, it continues that session instead of opening one. */
export async function httpClient(url: string, sessionId?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), sessionId === undefined ? {} : { sessionId });
  const client = new Client({ name: 'durability-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}
