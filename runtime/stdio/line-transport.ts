/**
 * MCP over stdio, one JSON-RPC message per line, with the limits the SDK's stdio transport lacks: a line longer
 * than `maxMessageBytes` is dropped (read to its end, never buffered whole) and answered with a -32600 error that
 * carries its request id when the id can be read from the line's first or last bytes (`salvage-id.ts`); a
 * line that is not JSON gets -32700; a batch or a malformed message gets the same answer as over HTTP
 * (`message-guard.ts`). The server stays up through all of them. Blank lines are ignored. stdout carries
 * protocol messages only.
 */
import type { Readable, Writable } from 'node:stream';
import { type JSONRPCMessage, ProtocolErrorCode, type Transport } from '@modelcontextprotocol/server';
import { type ErrorReply, parseError, screenIncoming } from '../mcp/message-guard.js';
import { salvageRequestId } from '../mcp/salvage-id.js';

export interface LineTransportOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Largest accepted message in bytes (default 4 MiB). */
  readonly maxMessageBytes?: number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** How much of an over-limit line's start and end is kept to read its id from. */
const KEPT_BYTES = 64 * 1024;

/** A line transport, and when it closed (its input ended, or `close()` was called). */
export interface LineTransport extends Transport {
  readonly closed: Promise<void>;
}

export function createLineTransport(options: LineTransportOptions): LineTransport {
  const { input, output } = options;
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  let pieces: Buffer[] = [];
  let size = 0;
  let oversized = false;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  let closed = false;
  let markClosed = () => {};
  const closedPromise = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  const write = (message: JSONRPCMessage | ErrorReply): Promise<void> =>
    new Promise((resolve, reject) => {
      if (closed) return resolve();
      const ok = output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : undefined));
      if (ok) resolve();
      else output.once('drain', resolve);
    });

  const line = (bytes: Buffer): void => {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      void write(parseError('the line is not JSON')).catch((error: unknown) => transport.onerror?.(asError(error)));
      return;
    }
    const screened = screenIncoming(value);
    if (screened.ok) transport.onmessage?.(screened.message);
    else void write(screened.response).catch((error: unknown) => transport.onerror?.(asError(error)));
  };

  const onData = (chunk: Buffer): void => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, newline);
      if (!oversized && size + part.length > max) beginOversized(part);
      else if (oversized) keepTail(part);
      if (oversized) tooLarge();
      else line(pieces.length === 0 ? part : Buffer.concat([...pieces, part]));
      pieces = [];
      size = 0;
      oversized = false;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (oversized) keepTail(rest);
    else if (size + rest.length > max) beginOversized(rest);
    else {
      pieces.push(Buffer.from(rest));
      size += rest.length;
    }
  };

  // Keep reading to the line's end, but never hold it: only its first and last bytes stay, memory stays bounded
  // whatever the client sends.
  const beginOversized = (part: Buffer): void => {
    const sofar = Buffer.concat([...pieces, part]);
    head = Buffer.from(sofar.subarray(0, KEPT_BYTES));
    tail = Buffer.from(sofar.subarray(Math.max(0, sofar.length - KEPT_BYTES)));
    pieces = [];
    size = 0;
    oversized = true;
  };

  const keepTail = (part: Buffer): void => {
    const joined = part.length >= KEPT_BYTES ? part : Buffer.concat([tail, part]);
    tail = Buffer.from(joined.subarray(Math.max(0, joined.length - KEPT_BYTES)));
  };

  const tooLarge = (): void => {
    const id = salvageRequestId(head.toString('utf8'), tail.toString('utf8').replace(/\r$/, ''));
    head = Buffer.alloc(0);
    tail = Buffer.alloc(0);
    const reply: ErrorReply = {
      jsonrpc: '2.0',
      id: id ?? null,
      error: { code: ProtocolErrorCode.InvalidRequest, message: `Message larger than ${max} bytes: dropped. Send smaller messages.` },
    };
    void write(reply).catch((error: unknown) => transport.onerror?.(asError(error)));
  };

  const onEnd = (): void => void transport.close();
  const onError = (error: Error): void => transport.onerror?.(error);

  const transport: LineTransport = {
    closed: closedPromise,
    async start() {
      input.on('data', onData);
      input.on('end', onEnd);
      input.on('error', onError);
    },
    send: (message) => write(message),
    async close() {
      if (closed) return;
      closed = true;
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      // Stop reading too: a stdin still flowing keeps the process alive after SIGTERM (a client that ends the
      // server by signal without closing its stdin, as the Vercel AI SDK's stdio transport does, waits forever).
      input.pause();
      transport.onclose?.();
      markClosed();
    },
  };
  return transport;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
