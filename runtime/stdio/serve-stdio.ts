/**
 * stdio transport: one conversation per connection, speaking MCP on stdin/stdout (one JSON-RPC message per line,
 * `line-transport.ts`). The connection is a session of the session service, so its current run (its last
 * `load_graph`) is implied when a call names no `run_id`. The conversation ends when stdin ends or `close()` is
 * called; `closed` settles then. Runs outlive the connection in a durable store; the session does not.
 *
 * Both protocol eras on one pipe: the SDK's `serveStdio` entry reads the opening message (a 2025-era
 * `initialize`, or a 2026-07-28 request carrying its `_meta` envelope, `server/discover` included) and pins the
 * connection to a server shell of that era; everything after passes straight through. The connection is a
 * long-lived channel in both eras, so the server can ask the user mid-call (elicitation) in both. Once a 2025-era
 * client has finished its handshake, its plain tool calls skip the SDK's per-request serving (`plain-calls.ts`).
 */
import type { Readable, Writable } from 'node:stream';
import { serveStdio as serveStdioEntry } from '@modelcontextprotocol/server/stdio';
import { guardTransport } from '../mcp/message-guard.js';
import { createServerFactory, type ServerFactory } from '../mcp/server-factory.js';
import type { SessionService } from '../service/session-service.js';
import { createLineTransport } from './line-transport.js';
import { answerPlainCalls } from './plain-calls.js';

export interface StdioServeOptions {
  readonly service: SessionService;
  /**
   * Defaults to one made for this connection. A factory of the app's own serves every message, tool calls included
   * (the direct path below is for the toolkit's own shell, whose answers it gives).
   */
  readonly serverFactory?: ServerFactory;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Who the local user is to the run store (default `local`: the same principal as unauthenticated loopback HTTP). */
  readonly principal?: string;
  /** Largest accepted message in bytes (default 4 MiB). */
  readonly maxMessageBytes?: number;
  /**
   * Answer a handshaken 2025-era client's plain `tools/call` from the service directly (`plain-calls.ts`; default
   * true unless `serverFactory` is given). False: every message goes through the SDK (the tests compare both ways).
   */
  readonly answerPlainCalls?: boolean;
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
  const serverFor = options.serverFactory ?? createServerFactory(service);
  const lines = createLineTransport({
    input: options.stdin ?? process.stdin,
    output: options.stdout ?? process.stdout,
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
  });
  // The session ends with the connection: when stdin ends, or when `close()` tears the connection down.
  const closed = lines.closed.then(async () => {
    try {
      await service.closeSession(sessionId, principal);
    } catch (error) {
      service.logger.error('closing the stdio session failed', error);
    }
  });
  // The factory runs once for the connection (and once more for a `server/discover` probe, which a 2026-07-28
  // client sends first): every shell it makes serves the same caller. The entry owns and starts the transport.
  const shells: ReturnType<ServerFactory>[] = [];
  const guarded = guardTransport(lines, service.logger);
  const transport =
    options.answerPlainCalls === false || options.serverFactory !== undefined
      ? guarded
      : answerPlainCalls(guarded, { service, caller: { principal, sessionId, channel: 'connection' } });
  const handle = serveStdioEntry(
    () => {
      const shell = serverFor({ principal, sessionId, channel: 'connection' });
      shells.push(shell);
      return shell;
    },
    { transport, onerror: (error) => service.logger.error('stdio transport', error) },
  );
  // A gateway's tool list follows its domain servers: tell the client (a 2025-era connection directly, a 2026-07-28
  // one on its subscriptions/listen stream, which the entry routes). The discarded probe shell just fails.
  const stopTelling = service.onToolsChanged(() => {
    for (const shell of shells) shell.sendToolListChanged().catch(() => {});
  });
  void closed.then(stopTelling);
  return {
    closed,
    async close() {
      await handle.close();
      await lines.close();
      await closed;
    },
  };
}
