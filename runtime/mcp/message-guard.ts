/**
 * Protocol hygiene, the same on every transport. Incoming values are screened before the SDK sees them:
 *   - a batch (a JSON array) is refused with one -32600 error: MCP 2025-06-18 removed batching, and the SDK
 *     would accept it on HTTP while its stdio transport drops it; here both refuse it alike;
 *   - anything that is not a JSON-RPC 2.0 message is -32600;
 *   - a request to a method we serve whose params do not fit the method is -32602, naming the field (the SDK
 *     would answer -32603 with a raw zod dump).
 * Outgoing errors are made one line (`guardTransport`): an internal error answers a short reason, the detail
 * goes to the log. Parse errors (-32700) are the transports' business: only they see the raw bytes.
 */
import {
  CallToolRequestSchema,
  DiscoverRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/core';
import { type JSONRPCMessage, ProtocolErrorCode as ErrorCode, type Transport } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Logger } from '../support/logger.js';
import { relayTransport } from './relay-transport.js';
import { describeIssues } from '../tools/tool-schemas.js';

/** A JSON-RPC error the transport writes itself (`id` null when the message had none it could read). */
export interface ErrorReply {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string };
}

export type Screened = { readonly ok: true; readonly message: JSONRPCMessage } | { readonly ok: false; readonly response: ErrorReply };

const REQUEST_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  [
    InitializeRequestSchema,
    DiscoverRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema] as const),
);

const MAX_ERROR_MESSAGE = 500;

export function screenIncoming(value: unknown): Screened {
  if (Array.isArray(value)) {
    return refuse(
      null,
      ErrorCode.InvalidRequest,
      'Batches are not supported: send one JSON-RPC message at a time (MCP removed batching in 2025-06-18).',
    );
  }
  if (isPlainToolCall(value)) return { ok: true, message: value };
  const id = idOf(value);
  const envelope = JSONRPCMessageSchema.safeParse(value);
  if (!envelope.success) {
    return refuse(id, ErrorCode.InvalidRequest, `Invalid request: not a JSON-RPC 2.0 message (${describeIssues(envelope.error.issues)})`);
  }
  const message = envelope.data;
  if ('method' in message && 'id' in message) {
    const schema = REQUEST_SCHEMAS.get(message.method);
    const checked = schema?.safeParse(message);
    if (checked !== undefined && !checked.success) {
      return refuse(message.id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: ${describeIssues(checked.error.issues)}`);
    }
  }
  return { ok: true, message };
}

/**
 * The message of most of a conversation, a `tools/call` in its plainest form, checked by hand: the schemas would find
 * it fine, at a cost the hot path notices (a gateway's every domain call). Anything else, or anything more (another
 * key, a `_meta` beyond a progress token), goes through the schemas, which name what is wrong.
 */
function isPlainToolCall(value: unknown): value is JSONRPCMessage {
  if (!isPlainObject(value)) return false;
  const message = value as Record<string, unknown>;
  if (message['jsonrpc'] !== '2.0' || message['method'] !== 'tools/call' || !isRequestId(message['id'])) return false;
  if (!onlyKeys(message, MESSAGE_KEYS)) return false;
  const params = message['params'];
  if (!isPlainObject(params) || !onlyKeys(params, PARAMS_KEYS) || typeof params['name'] !== 'string') return false;
  if (params['arguments'] !== undefined && !isPlainObject(params['arguments'])) return false;
  const meta = params['_meta'];
  if (meta === undefined) return true;
  if (!isPlainObject(meta) || !onlyKeys(meta, META_KEYS)) return false;
  const token = meta['progressToken'];
  return token === undefined || typeof token === 'string' || Number.isInteger(token);
}

const MESSAGE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
const META_KEYS: ReadonlySet<string> = new Set(['progressToken']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(id: unknown): boolean {
  return typeof id === 'string' || Number.isInteger(id);
}

function onlyKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}

/** The JSON-RPC error a transport answers for bytes that are not JSON. */
export function parseError(detail: string): ErrorReply {
  return { jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: `Parse error: ${detail}` } };
}

/** `inner` with every outgoing error made one line; internal errors logged in full and answered briefly. */
export function guardTransport(inner: Transport, logger: Logger): Transport {
  return relayTransport(inner, { send: (message, options) => inner.send(oneLineErrors(message, logger), options) });
}

function oneLineErrors(message: JSONRPCMessage, logger: Logger): JSONRPCMessage {
  if (!('error' in message)) return message;
  const { code, message: text } = message.error;
  const firstLine = text.split('\n', 1)[0] ?? '';
  if (code === ErrorCode.InternalError) {
    logger.error(`internal error answered to request ${String(message.id)}: ${text}`);
    return { ...message, error: { code, message: `Internal error: ${firstLine.slice(0, 200)}` } };
  }
  if (firstLine === text && text.length <= MAX_ERROR_MESSAGE) return message;
  return { ...message, error: { ...message.error, message: firstLine.slice(0, MAX_ERROR_MESSAGE) } };
}

function refuse(id: string | number | null, code: number, message: string): Screened {
  return { ok: false, response: { jsonrpc: '2.0', id, error: { code, message } } };
}

function idOf(value: unknown): string | number | null {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
