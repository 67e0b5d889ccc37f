/**
 * The hot path of a 2025-era HTTP conversation: a `tools/call`, answered straight from the session service as one
 * JSON response, without the SDK's per-request serving (a `Server` shell and transport made and torn down, the Node
 * request turned into a web `Request` and the answer into an event stream and back). On the bench's HTTP row that
 * serving was most of what a call cost beyond the tool itself.
 *
 * Only the plainest form of the request takes this path; anything else goes the SDK's way and is answered as ever:
 * another method, a 2026-07-28 request envelope or standard header (`Mcp-Method`, `Mcp-Name`), an `Accept` or an
 * `MCP-Protocol-Version` the SDK would refuse. The answer is what the SDK's handler would send, as
 * `application/json` rather than a one-event stream: a 2025-era client accepts both (it must send an `Accept` with
 * both to get here), and a tool call here never streams (the server sends no progress; a gateway session that can be
 * asked mid-call goes to `asking-tool-call.ts`).
 */
import { type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { type PlainToolCall, plainToolCallOf, toolCallReply } from '../mcp/tool-call-reply.js';
import type { Caller, SessionService } from '../service/session-service.js';
import { principalOf } from './auth.js';

const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/** The call, when this request is a plain 2025-era `tools/call` (already screened: its params fit the method). */
export function plainToolCall(req: Request, message: JSONRPCMessage): PlainToolCall | undefined {
  const call = plainToolCallOf(message);
  if (call === undefined) return undefined;
  const headers = req.headers;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !LEGACY_VERSIONS.has(version))) return undefined;
  const accept = headers.accept;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  return call;
}

/**
 * Answers the call for the session the request names (none: a stateless client, which passes `run_id`). The
 * service commits before it answers, so the response is written only after the call's state change is stored.
 */
export async function answerPlainToolCall(
  service: SessionService,
  req: Request,
  res: Response,
  call: PlainToolCall,
  sessionId: string | undefined,
): Promise<void> {
  const caller: Caller = { principal: principalOf(req), sessionId, channel: 'request' };
  const reply = await toolCallReply(service, call, caller, { canAsk: false });
  // canAsk is false, so the service never asks a question here.
  if ('question' in reply) throw new Error('a tool call that cannot ask was answered with a question');
  res.status(200).json(reply);
}
