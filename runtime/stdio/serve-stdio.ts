/**
 * stdio transport: one conversation per process, speaking MCP on stdin/stdout. stdout carries protocol
 * messages only (all logging goes to stderr). The conversation ends when stdin ends or `close()` is called;
 * `closed` settles then, so a command can wait on it.
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { logError } from '../log.js';
import { createSopServer, type SopServerOptions } from '../mcp/create-sop-server.js';

export interface StdioServeOptions extends SopServerOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

export interface SopStdioServer {
  /** Settles when the conversation is over (stdin ended, or `close()`). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(options: StdioServeOptions): Promise<SopStdioServer> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const server = createSopServer(options);
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  transport.onerror = (error) => logError('stdio transport', error);
  await server.connect(transport);
  const end = () => void server.close();
  stdin.once('end', end);
  stdin.once('close', end);
  return {
    closed,
    close: () => server.close(),
  };
}
