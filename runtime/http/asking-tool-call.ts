/**
 * Asking the user of a 2025-era client over Streamable HTTP (gateway confirmations). That era has no
 * `input_required`: the server asks on the event stream of the call's own POST. When the session declared
 * elicitation at `initialize`, a tool call is answered as an event stream if the service has a question: the
 * stream carries `elicitation/create`, the client POSTs its answer (a JSON-RPC response, answered 202 here), and
 * the call is decided again with that answer, its result the stream's last event. A call with no question is
 * answered as plain JSON, as on the hot path.
 *
 * The question waits in the run (any instance can check an answer to it), but the open stream is this process's:
 * the client's answer must reach the instance that asked (route by `Mcp-Session-Id` behind a load balancer), and
 * a session is known to ask only on the instance that took its `initialize`. Elsewhere the client is not asked,
 * and the SOP's confirmation step stands in, as for any client that cannot be asked.
 */
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, JSONRPCResponse } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { QUESTION_LIFETIME_MS } from '../../contract/run/call.js';
import { createLruMap } from '../support/lru-map.js';
import type { CallQuestion, Caller, SessionService } from '../service/session-service.js';
import { principalOf } from './auth.js';
import { type PlainToolCall, toolCallReply } from '../mcp/tool-call-reply.js';

export interface AskingOptions {
  /** How long the user may take to answer (default: as long as the question is good for, 10 minutes). */
  readonly answerTimeoutMs?: number;
  /** A comment on the open stream this often, so proxies do not close it while the user thinks (default 15 s). */
  readonly keepAliveMs?: number;
  /** Sessions remembered as able to ask, at most (the least recently used are forgotten first). */
  readonly maxSessions?: number;
}

export interface AskingCalls {
  /** Remembers a session that declared elicitation at `initialize`. */
  declare(sessionId: string, capabilities: unknown): void;
  canAsk(sessionId: string): boolean;
  /** Takes a client's answer to a question this process asked; false when it is no answer awaited here. */
  receive(sessionId: string, principal: string, message: JSONRPCMessage): boolean;
  answer(req: Request, res: Response, call: PlainToolCall, sessionId: string): Promise<void>;
  /** Ends every wait (the server is closing): the calls answer that nothing was sent. */
  close(): void;
}

type Reply = { readonly kind: 'answer'; readonly yes: boolean } | { readonly kind: 'no-answer'; readonly why: string };

interface Waiting {
  readonly principal: string;
  settle(reply: Reply): void;
}

export function createAskingCalls(service: SessionService, options: AskingOptions = {}): AskingCalls {
  const timeoutMs = options.answerTimeoutMs ?? QUESTION_LIFETIME_MS;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const askers = createLruMap<string, true>(options.maxSessions ?? 10_000);
  const waiting = new Map<string, Waiting>();
  const key = (sessionId: string, id: string | number) => `${sessionId}\n${typeof id}:${id}`;

  const waitFor = (sessionId: string, id: string, principal: string, res: Response): Promise<Reply> =>
    new Promise((resolve) => {
      const k = key(sessionId, id);
      const settle = (reply: Reply) => {
        if (waiting.get(k)?.settle !== settle) return;
        waiting.delete(k);
        clearTimeout(timer);
        clearInterval(keepAlive);
        res.off('close', gone);
        resolve(reply);
      };
      const timer = setTimeout(
        () => settle({ kind: 'no-answer', why: `the user did not answer within ${Number((timeoutMs / 1000).toFixed(1))} s` }),
        timeoutMs,
      );
      const keepAlive = setInterval(() => res.write(': waiting for the user\n\n'), keepAliveMs);
      const gone = () => settle({ kind: 'no-answer', why: 'the client closed the call' });
      res.on('close', gone);
      waiting.set(k, { principal, settle });
    });

  return {
    declare(sessionId, capabilities) {
      const elicitation = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
      if (elicitation !== undefined && elicitation !== null) askers.set(sessionId, true);
    },
    canAsk: (sessionId) => askers.get(sessionId) === true,
    receive(sessionId, principal, message) {
      if ('method' in message || !('id' in message) || message.id === null || message.id === undefined) return false;
      const entry = waiting.get(key(sessionId, message.id));
      if (entry === undefined || entry.principal !== principal) return false;
      const result = 'result' in message ? (message.result as { action?: unknown; content?: { confirm?: unknown } }) : undefined;
      entry.settle(
        result === undefined
          ? { kind: 'no-answer', why: 'the client could not ask the user' }
          : { kind: 'answer', yes: result.action === 'accept' && result.content?.confirm === true },
      );
      return true;
    },
    async answer(req, res, call, sessionId) {
      const principal = principalOf(req);
      const caller: Caller = { principal, sessionId, channel: 'request' };
      const first = await toolCallReply(service, call, caller, { canAsk: true });
      if (!('question' in first)) {
        res.status(200).json(first);
        return;
      }
      const asking = `ask-${randomUUID()}`;
      res.status(200).set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
      res.flushHeaders();
      const reply = waitFor(sessionId, asking, principal, res);
      writeEvent(res, elicitation(asking, first));
      const answered = await reply;
      if (res.destroyed) return;
      const last: JSONRPCResponse =
        answered.kind === 'answer'
          ? await finalReply(service, call, caller, first, answered.yes)
          : notSent(call, `${answered.why}: nothing was sent. Call again to ask the user again.`);
      writeEvent(res, last);
      res.end();
    },
    close() {
      for (const entry of [...waiting.values()]) entry.settle({ kind: 'no-answer', why: 'the server is shutting down' });
    },
  };
}

/** The call decided again with the user's answer: sent on a yes, refused on a no or a stale answer. */
async function finalReply(
  service: SessionService,
  call: PlainToolCall,
  caller: Caller,
  asked: CallQuestion,
  yes: boolean,
): Promise<JSONRPCResponse> {
  const reply = await toolCallReply(service, call, caller, { canAsk: true, answer: { id: asked.question.id, yes } });
  // With an answer the service decides: a question again would mean it kept none of the first.
  return 'question' in reply ? notSent(call, 'the answer was not taken: nothing was sent. Call again.') : reply;
}

function elicitation(id: string, asked: CallQuestion): JSONRPCMessage {
  const { message, requestedSchema } = asked.question;
  return { jsonrpc: '2.0', id, method: 'elicitation/create', params: { message, requestedSchema } };
}

function notSent(call: PlainToolCall, text: string): JSONRPCResponse {
  const body = { error: `${call.name}: ${text}`, refused_by: 'confirmation' };
  return {
    jsonrpc: '2.0',
    id: call.id,
    result: { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true },
  };
}

function writeEvent(res: Response, message: JSONRPCMessage): void {
  res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}
