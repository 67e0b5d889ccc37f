/**
 * A `tools/call` answered from the session service as the JSON-RPC response the SDK's handler would send: the tool's
 * result, or the error a `ProtocolError` carries (an unknown tool: -32602), or a brief internal error (logged in
 * full). The transports' hot paths use it (`http/plain-tool-call.ts`, `stdio/plain-calls.ts`): the plainest
 * requests skip the SDK's per-request serving and get the same answer. The service commits before it answers, so a
 * response is made only after the call's state change is stored.
 */
import { type JSONRPCMessage, type JSONRPCResponse, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { type CallQuestion, type Caller, isQuestion, type SessionService } from '../service/session-service.js';
import type { CallRequest } from '../service/tracing.js';

/** The `_meta` keys of the 2026-07-28 request envelope all start so. */
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';

/** A `tools/call` as its request names it. */
export interface PlainToolCall {
  readonly id: string | number;
  readonly name: string;
  readonly arguments: unknown;
  readonly meta: Record<string, unknown> | undefined;
}

/**
 * The call, when the message (already screened: its params fit its method) is a `tools/call` request without the
 * 2026-07-28 envelope in its `_meta` (such a request is the SDK's to serve).
 */
export function plainToolCallOf(message: JSONRPCMessage): PlainToolCall | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const params = message.params as { name: string; arguments?: unknown; _meta?: Record<string, unknown> };
  const meta = params._meta;
  if (meta !== undefined && Object.keys(meta).some((key) => key.startsWith(ENVELOPE_PREFIX))) return undefined;
  return { id: message.id, name: params.name, arguments: params.arguments, meta };
}

/** The JSON-RPC response to the call (a result or an error), or the question the service asks first. */
export async function toolCallReply(
  service: SessionService,
  call: PlainToolCall,
  caller: Caller,
  request: Pick<CallRequest, 'canAsk' | 'answer'>,
): Promise<JSONRPCResponse | CallQuestion> {
  try {
    const answer = await service.callTool(call.name, call.arguments, caller, { meta: call.meta, requestId: call.id, ...request });
    if (isQuestion(answer)) return answer;
    return { jsonrpc: '2.0', id: call.id, result: answer };
  } catch (error) {
    const known = error instanceof ProtocolError;
    if (!known) service.logger.error('MCP request', error);
    const code = known ? error.code : ProtocolErrorCode.InternalError;
    const message = known ? error.message : 'Internal error';
    const data = known && error.data !== undefined ? { data: error.data } : {};
    return { jsonrpc: '2.0', id: call.id, error: { code, message, ...data } };
  }
}
