/**
 * What the end-to-end tests need to act as a user in a shell: run a command in a folder (npm, npx, node) with
 * an environment free of the outer `npm test` run's `npm_*` variables, and talk to an MCP server the way a
 * client does, with the official SDK `Client` over stdio or Streamable HTTP.
 */
import { spawn, spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment a user's shell would have: npm's per-run variables of the outer test run removed. */
export function shellEnv(): Record<string, string> {
  const env: Record<string, string> = {
    NO_COLOR: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^npm_/i.test(key)) env[key] = value;
  return env;
}

export function run(command: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Ran {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: shellEnv(), timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Failure messages that show what the command printed. */
export function explain(ran: Ran): string {
  return `exit ${ran.code}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`;
}

/** Connects an SDK client to a server started as `command args` in `cwd` (how .mcp.json entries run), runs `use`. */
export async function withStdioServer<T>(
  server: { readonly command: string; readonly args: readonly string[]; readonly cwd: string },
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...server.args],
    cwd: server.cwd,
    env: shellEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'e2e-app', version: '0.0.0' });
  try {
    await client.connect(transport);
    return await use(client);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- server stderr\n${stderr}`);
  } finally {
    await client.close();
  }
}

/** Starts `node file --http --port 0` in `cwd`, connects an SDK client to the URL it announces, runs `use`, stops it. */
export async function withHttpServer<T>(
  command: string,
  args: readonly string[],
  cwd: string,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const child = spawn(command, [...args, '--http', '--port', '0'], { cwd, env: shellEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`no URL announced:\n${stderr}`)), 20_000);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (found?.[1]) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
    });
    const client = new Client({ name: 'e2e-app-http', version: '0.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    try {
      return await use(client);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/** A tool's structured answer (every tool of the server answers with structuredContent). */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await client.callTool({ name, arguments: args });
  return result.structuredContent as Record<string, any>;
}
