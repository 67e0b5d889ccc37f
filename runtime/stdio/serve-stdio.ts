/**
 * stdio transport: one conversation per connection, speaking MCP on stdin/stdout (one JSON-RPC message per line,
 * `line-transport.ts`). The connection is a session of the session service, so its current run (its last
 * `load_graph`) is implied when a call names no `run_id`. The conversation ends when stdin ends or `close()` is
 * called; `closed` settles then. Runs outlive the connection in a durable store; the session does not.
 */
import type { Readable, Writable } from 'node:stream';
import { guardTransport } from '../mcp/message-guard.js';
import { createServerFactory, type ServerFactory } from '../mcp/server-factory.js';
import type { SessionService } from '../service/session-service.js';
import { createLineTransport } from './line-transport.js';

export interface StdioServeOptions {
  readonly service: SessionService;
  /** Defaults to one made for this connection. */
  readonly serverFactory?: ServerFactory;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Who the local user is to the run store (default `local`: the same principal as unauthenticated loopback HTTP). */
  readonly principal?: string;
  /** Largest accepted message in bytes (default 4 MiB). */
  readonly maxMessageBytes?: number;
}

export interface SopStdioServer {
  /** Settles when the conversation is over (stdin ended, or `close()`). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(options: StdioServeOptions): Promise<SopStdioServer> {
  const { service } = options;
  const principal = options.principal ?? 'local';
  const opening = await service.openSession(principal);
  if (!opening.ok) throw new Error(opening.error);
  const { sessionId } = opening;
  const server = (options.serverFactory ?? createServerFactory(service))({ principal, sessionId });
  const transport = guardTransport(
    createLineTransport({
      input: options.stdin ?? process.stdin,
      output: options.stdout ?? process.stdout,
      ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
    }),
    service.logger,
  );
  let ended = false;
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => {
      if (ended) return;
      ended = true;
      service.closeSession(sessionId, principal).then(
        () => resolve(),
        (error: unknown) => {
          service.logger.error('closing the stdio session failed', error);
          resolve();
        },
      );
    };
  });
  transport.onerror = (error) => service.logger.error('stdio transport', error);
  await server.connect(transport);
  return {
    closed,
    async close() {
      await server.close();
      await closed;
    },
  };
}
