/**
 * One domain server, as the gateway's MCP client: one connection per server per process, shared by every run
 * (a stdio server per run would be a process per conversation). It connects with the SDK's v2 `Client` in `auto`
 * version negotiation, so a server of either protocol era works (a 2026-07-28 server is probed with
 * `server/discover`; a 2025 one falls back to `initialize`), over stdio, Streamable HTTP, or the legacy HTTP+SSE
 * transport (`transport: sse`, or a url ending in `/sse`).
 *
 * What it guarantees the caller:
 *   - a call gets an outcome, never an exception and never a hang: the server's answer, or a failure saying
 *     whether the call may have reached the server (`reached: 'no' | 'maybe' | 'yes'`) and why. A call is never
 *     retried here: a mutating call that may have been received must not be sent twice;
 *   - a per-call timeout (the entry's `timeout_ms`);
 *   - when the server goes away (its process exits, its connection drops, it refuses connections), the
 *     connection is down: calls fail at once without reaching it, and it reconnects in the background with
 *     exponential backoff (250 ms doubling to 30 s), listing the tools again each time;
 *   - `notifications/tools/list_changed` (or the 2026-07-28 `subscriptions/listen` stream) refreshes the tools
 *     and tells `onToolsChanged`.
 * The server's stderr goes to the gateway's log, one line at a time, prefixed with its name.
 */
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Logger } from '../support/logger.js';
import { describeSpec, type UpstreamSpec } from './upstream-spec.js';

export type Reached = 'no' | 'maybe' | 'yes';

export type UpstreamOutcome =
  | { readonly kind: 'answered'; readonly result: CallToolResult; readonly ms: number }
  | { readonly kind: 'failed'; readonly reached: Reached; readonly reason: string; readonly ms: number };

export interface UpstreamStatus {
  readonly state: 'connecting' | 'up' | 'down' | 'closed';
  /** Why it is down (the last failure). */
  readonly lastError?: string;
  /** When the next reconnection attempt is due (ms since the epoch), while down. */
  readonly nextAttemptAt?: number;
  /** The stdio server's process id, while it runs. */
  readonly pid?: number;
  /** The protocol era the connection speaks (`modern`: 2026-07-28; `legacy`: 2025 and older), while up. */
  readonly era?: 'modern' | 'legacy';
}

export interface UpstreamConnectionOptions {
  readonly spec: UpstreamSpec;
  readonly logger: Logger;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Reconnection backoff: first delay and cap (defaults 250 ms and 30 s). */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** How long connecting (spawning, the handshake, the first tools/list) may take (default 15 s). */
  readonly connectTimeoutMs?: number;
  /** Called with the new list after the server said its tools changed (or first listed them, once reconnected). */
  readonly onToolsChanged?: (tools: readonly Tool[]) => void;
  /**
   * Keep reconnecting when the first connection fails (the gateway: one server down at start must not keep the
   * others from serving). Without it a first failure is final, for a caller that only checks (`--check-tools`).
   */
  readonly keepTrying?: boolean;
  readonly now?: () => number;
}

export interface UpstreamConnection {
  readonly spec: UpstreamSpec;
  status(): UpstreamStatus;
  /** The tools of the last successful listing (empty before the first). */
  tools(): readonly Tool[];
  /** The first connection: resolves once the tools are listed, rejects with why the server could not be reached. */
  readonly started: Promise<void>;
  call(tool: string, args: Record<string, unknown>, meta: Record<string, unknown>): Promise<UpstreamOutcome>;
  close(): Promise<void>;
}

export function openUpstream(options: UpstreamConnectionOptions): UpstreamConnection {
  const { spec, logger } = options;
  const now = options.now ?? (() => Date.now());
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 30_000 };
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
  const where = `${spec.name} (${describeSpec(spec)})`;
  let state: UpstreamStatus['state'] = 'connecting';
  let lastError: string | undefined;
  let nextAttemptAt: number | undefined;
  let delay = backoff.initialMs;
  let timer: NodeJS.Timeout | undefined;
  let client: Client | undefined;
  let transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport | undefined;
  let tools: readonly Tool[] = [];
  let closed = false;
  /** Whether a listing succeeded before: the first one is read by the pool, later ones are announced. */
  let listedBefore = false;

  const goDown = (reason: string, from: Client | undefined): void => {
    if (closed || from !== client || state === 'down') return;
    state = 'down';
    lastError = reason;
    const old = client;
    client = undefined;
    void old?.close().catch(() => {});
    // Before it was ever up, a caller that only checks decides; the gateway keeps trying.
    if (!listedBefore && options.keepTrying !== true) return;
    logger.error(`domain server ${where} is ${listedBefore ? 'down' : 'unreachable'}: ${reason}; reconnecting in ${delay} ms`);
    schedule();
  };

  const schedule = (): void => {
    if (closed) return;
    nextAttemptAt = now() + delay;
    timer = setTimeout(() => {
      timer = undefined;
      void attempt().catch(() => {});
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, backoff.maxMs);
  };

  const attempt = async (): Promise<void> => {
    state = 'connecting';
    nextAttemptAt = undefined;
    const fresh = new Client(options.clientInfo ?? { name: 'sop-toolkit-gateway', version: '0.1.0' }, {
      versionNegotiation: { mode: 'auto' },
      listChanged: {
        tools: {
          onChanged: (error, listed) => {
            if (error !== null || listed === null || fresh !== client) return;
            tools = listed;
            options.onToolsChanged?.(listed);
          },
        },
      },
    });
    client = fresh;
    try {
      transport = transportFor(spec, logger);
      fresh.onclose = () => goDown('the connection closed', fresh);
      await withTimeout(fresh.connect(transport), connectTimeoutMs, `no answer to the handshake within ${connectTimeoutMs} ms`);
      const listed = await withTimeout(fresh.listTools(), connectTimeoutMs, `no tools/list answer within ${connectTimeoutMs} ms`);
      if (closed || fresh !== client) {
        await fresh.close().catch(() => {});
        return;
      }
      const changed = !sameTools(tools, listed.tools);
      tools = listed.tools;
      state = 'up';
      lastError = undefined;
      delay = backoff.initialMs;
      logger.info(`domain server ${where}: ${tools.length} tool(s), protocol era ${fresh.getProtocolEra() ?? 'unknown'}`);
      // After a reconnection the list may differ: the gateway re-checks it. The first listing is read by the pool,
      // unless the server was unreachable at start: then the pool learns of its tools only now.
      const first = !listedBefore;
      listedBefore = true;
      if ((changed && !first) || (first && startedFailed)) options.onToolsChanged?.(tools);
    } catch (error) {
      const reason = reasonOf(error);
      if (fresh === client) goDown(reason, fresh);
      else void fresh.close().catch(() => {});
      throw new Error(`domain server ${where} could not be reached: ${reason}`);
    }
  };

  let startedFailed = false;
  const started: Promise<void> = attempt();
  started.catch(() => {
    startedFailed = true;
  });

  return {
    spec,
    started,
    status: () => {
      const pid = state === 'up' && transport instanceof StdioClientTransport ? transport.pid : null;
      const era = state === 'up' ? client?.getProtocolEra() : undefined;
      return {
        state,
        ...(lastError === undefined ? {} : { lastError }),
        ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }),
        ...(pid === null ? {} : { pid }),
        ...(era === undefined ? {} : { era }),
      };
    },
    tools: () => tools,
    async call(tool, args, meta) {
      const start = now();
      const took = () => now() - start;
      const current = client;
      if (state !== 'up' || current === undefined) {
        const next = nextAttemptAt === undefined ? '' : `; the next attempt to reconnect is in ${Math.max(0, nextAttemptAt - now())} ms`;
        return {
          kind: 'failed',
          reached: 'no',
          reason: `${spec.name} is ${state === 'closed' ? 'closed' : 'down'}${lastError === undefined ? '' : ` (${lastError})`}${next}`,
          ms: took(),
        };
      }
      try {
        const result = await current.callTool({ name: tool, arguments: args, _meta: meta }, { timeout: spec.timeoutMs });
        return { kind: 'answered', result, ms: took() };
      } catch (error) {
        const failure = classify(error, spec.timeoutMs);
        if (failure.down) goDown(failure.reason, current);
        return { kind: 'failed', reached: failure.reached, reason: failure.reason, ms: took() };
      }
    },
    async close() {
      closed = true;
      state = 'closed';
      if (timer !== undefined) clearTimeout(timer);
      const old = client;
      client = undefined;
      await old?.close().catch(() => {});
    },
  };
}

function transportFor(spec: UpstreamSpec, logger: Logger): StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport {
  if (spec.kind === 'http' && spec.sse === true) {
    // The legacy HTTP+SSE transport: a GET event stream, POSTs to the endpoint it names; the 2024-11-05 era.
    const headers = { ...spec.headers };
    return new SSEClientTransport(spec.url, {
      requestInit: { headers },
      eventSourceInit: {
        fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
      },
    });
  }
  if (spec.kind === 'http') return new StreamableHTTPClientTransport(spec.url, { requestInit: { headers: { ...spec.headers } } });
  const transport = new StdioClientTransport({
    command: spec.command,
    args: [...spec.args],
    env: { ...getDefaultEnvironment(), ...spec.env },
    cwd: spec.cwd,
    stderr: 'pipe',
  });
  let pending = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline).trimEnd();
      pending = pending.slice(newline + 1);
      if (line !== '') logger.info(`[${spec.name}] ${line}`);
    }
  });
  return transport;
}

/** What a failed call tells: whether it may have reached the server, why, and whether the connection is gone. */
function classify(error: unknown, timeoutMs: number): { readonly reached: Reached; readonly reason: string; readonly down: boolean } {
  if (error instanceof ProtocolError) {
    return { reached: 'yes', reason: `it answered with JSON-RPC error ${error.code}: ${firstLine(error.message)}`, down: false };
  }
  if (error instanceof SdkHttpError) {
    const status = error.status;
    // 404 on a 2025-era session: the server restarted and forgot it; the call was not processed.
    if (status === 404) return { reached: 'no', reason: `its session ended (HTTP 404): it restarted`, down: true };
    return { reached: 'maybe', reason: `it answered HTTP ${status}`, down: status >= 500 };
  }
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) {
      return { reached: 'maybe', reason: `no answer within ${timeoutMs} ms (the call may have reached it)`, down: false };
    }
    if (error.code === SdkErrorCode.ConnectionClosed) {
      return { reached: 'maybe', reason: 'the connection closed during the call (the server may have received it)', down: true };
    }
    if (error.code === SdkErrorCode.NotConnected) return { reached: 'no', reason: 'not connected', down: true };
  }
  const code = causeCode(error);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH') {
    return { reached: 'no', reason: `connection refused (${code})`, down: true };
  }
  return { reached: 'maybe', reason: reasonOf(error), down: true };
}

function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

function reasonOf(error: unknown): string {
  const code = causeCode(error);
  const message = firstLine(error instanceof Error ? error.message : String(error));
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
}

function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? '').slice(0, 300);
}
