/**
 * The hot path of a 2025-era stdio conversation, as `http/plain-tool-call.ts` is of HTTP: once the client has
 * finished the `initialize` handshake, a `tools/call` is answered straight from the session service, without the
 * SDK's per-request serving (its schemas run again over a message the line transport already screened, a context
 * and an abort signal made per request, the result checked against the protocol's schema before it is sent). On
 * the bench that serving was about 40 µs of every call: more than the session service's own work on a move.
 *
 * Everything else goes the SDK's way, as ever: the handshake itself, every other method, a call before the
 * handshake is done, a call carrying the 2026-07-28 envelope in its `_meta`, and, on a gateway, every call of a
 * client that declared elicitation (the SDK asks the user for us mid-call; here nothing could). The answer is the one
 * the SDK's handler would send (`mcp/tool-call-reply.ts`), made after the call's state change is committed, and
 * written through the same guarded transport. A call the client cancels (`notifications/cancelled`) before its answer
 * is ready gets none, as from the SDK.
 */
import type { Transport } from '@modelcontextprotocol/server';
import { relayTransport } from '../mcp/relay-transport.js';
import { type PlainToolCall, plainToolCallOf, toolCallReply } from '../mcp/tool-call-reply.js';
import type { Caller, SessionService } from '../service/session-service.js';

export interface PlainCallsOptions {
  readonly service: SessionService;
  /** Who this connection is to the service. */
  readonly caller: Caller;
}

/** `inner` with the plain tool calls of a handshaken 2025-era connection answered here, the rest passed on. */
export function answerPlainCalls(inner: Transport, { service, caller }: PlainCallsOptions): Transport {
  let handshaken = false;
  let clientElicits = false;
  /** Calls answered here and not yet sent: a cancellation drops the answer. */
  const inFlight = new Map<string | number, { cancelled: boolean }>();

  const answer = (call: PlainToolCall): void => {
    const flight = { cancelled: false };
    inFlight.set(call.id, flight);
    void toolCallReply(service, call, caller, { canAsk: false })
      .then(async (reply) => {
        if (flight.cancelled) return;
        // canAsk is false: the service never asks a question here.
        if ('question' in reply) throw new Error('a tool call that cannot ask was answered with a question');
        await inner.send(reply);
      })
      .catch((error: unknown) => outer.onerror?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => inFlight.delete(call.id));
  };

  const outer = relayTransport(inner, {
    receive(message, extra, pass) {
      if ('method' in message) {
        if (message.method === 'initialize') {
          const capabilities = (message.params as { capabilities?: { elicitation?: unknown } } | undefined)?.capabilities;
          clientElicits = capabilities?.elicitation !== undefined && capabilities.elicitation !== null;
        } else if (message.method === 'notifications/initialized') handshaken = true;
        else if (message.method === 'notifications/cancelled') {
          const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
          const flight = id === undefined ? undefined : inFlight.get(id);
          if (flight !== undefined) flight.cancelled = true;
        }
      }
      const call = !handshaken || (service.gateway && clientElicits) ? undefined : plainToolCallOf(message);
      if (call !== undefined) answer(call);
      else pass(message, extra);
    },
  });
  return outer;
}
