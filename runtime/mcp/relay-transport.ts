/**
 * A transport in front of another: what goes out and what comes in may be changed or taken on the way (the message
 * guard makes errors one line, the stdio hot path answers plain tool calls itself); starting, closing, the session
 * id and the protocol version are the inner transport's.
 */
import type { Transport } from '@modelcontextprotocol/server';

type Receive = NonNullable<Transport['onmessage']>;

export interface Relay {
  /** Sends a message out (default: the inner transport's `send`, as it is). */
  readonly send?: Transport['send'];
  /** A message came in: `pass` hands it on to the relay's reader (default: every message is handed on). */
  readonly receive?: (message: Parameters<Receive>[0], extra: Parameters<Receive>[1], pass: Receive) => void;
}

export function relayTransport(inner: Transport, relay: Relay): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: relay.send ?? ((message, options) => inner.send(message, options)),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  const pass: Receive = (message, extra) => outer.onmessage?.(message, extra);
  inner.onmessage = relay.receive === undefined ? pass : (message, extra) => relay.receive!(message, extra, pass);
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  return outer;
}
