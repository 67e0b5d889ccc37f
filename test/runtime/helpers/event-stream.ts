/**
 * Reads a server-sent event stream with fetch, as the page does: every event parsed as it arrives, and a way to
 * wait for the next one that matches. Used by the tests of the page's `/runs/events`.
 */

export interface ServerEvent {
  readonly name: string;
  readonly data: string;
  /** performance.now() when it arrived. */
  readonly at: number;
}

export interface EventStreamReader {
  readonly status: number;
  readonly headers: Headers;
  readonly events: readonly ServerEvent[];
  /** The first event from index `from` on that matches, waiting for it (rejects after `timeoutMs`). */
  next(match: (event: ServerEvent) => boolean, from?: number, timeoutMs?: number): Promise<ServerEvent>;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: ServerEvent[] = [];
  const waiting = new Set<() => void>();
  if (response.ok && response.body !== null) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split('\n');
            const name =
              lines
                .find((line) => line.startsWith('event:'))
                ?.slice(6)
                .trim() ?? 'message';
            const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim());
            if (data.length > 0) events.push({ name, data: data.join('\n'), at: performance.now() });
            for (const wake of waiting) wake();
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // Closed by the test or the server.
      }
    })();
  }
  return {
    status: response.status,
    headers: response.headers,
    events,
    next(match, from = 0, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = events.slice(from).find(match);
          if (found === undefined) return false;
          waiting.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiting.delete(wake);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiting.add(wake);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
