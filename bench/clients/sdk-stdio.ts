/**
 * The SDK's own client over stdio, as an MCP host would run it: spawns `node <args>` and connects. Used for the
 * `goto_node` latency row (against our server and the no-op floor alike) and for the token row.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface StdioConnection {
  readonly client: Client;
  /** Calls a tool and returns its answer object (structuredContent, else the JSON text). */
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

export interface ToolAnswer {
  /** The answer as data. */
  readonly data: Record<string, unknown>;
  /** The text content the model reads, joined. */
  readonly text: string;
  readonly isError: boolean;
}

/** A `tools/call` result as it comes over the wire. */
export interface RawToolResult {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** The answer of a raw `tools/call` result. */
export function toAnswer(result: RawToolResult): ToolAnswer {
  const text = (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
  let data = result.structuredContent;
  if (data === undefined) {
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      data = {};
    }
  }
  return { data, text, isError: result.isError === true };
}

/** Connects to `node <args>`; aborting `signal` closes the connection, which ends the server. */
export async function connectStdio(args: readonly string[], cwd: string, signal?: AbortSignal): Promise<StdioConnection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...args], cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => {});
    throw new Error(`could not connect to node ${args.join(' ')}: ${(error as Error).message}; stderr: ${stderr}`);
  }
  signal?.addEventListener('abort', () => void client.close().catch(() => {}), { once: true });
  return {
    client,
    async call(name, callArgs) {
      return toAnswer((await client.callTool({ name, arguments: callArgs })) as RawToolResult);
    },
    close: () => client.close(),
  };
}
