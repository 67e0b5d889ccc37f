/**
 * The page's requests to its server: JSON from `/runs/api`, and the event stream from `/runs/events` read with
 * `fetch` (not EventSource, which cannot send the `Authorization` header a page token needs). The stream is
 * plain server-sent events: `event:`/`data:` lines, a blank line per event, comments ignored. A dropped stream
 * is opened again after a short wait; a 401 asks for a token instead.
 */
import { API_PATH, EVENTS_PATH } from '../page-paths.js';

export class Unauthorized extends Error {}

export interface PageApi {
  get<T>(path: string): Promise<T>;
  /** Follows the event stream until the returned function is called. */
  follow(handlers: StreamHandlers): () => void;
}

export interface StreamHandlers {
  event(name: string, data: string): void;
  state(state: 'connecting' | 'live' | 'reconnecting'): void;
  unauthorized(): void;
}

const RETRY_MS = 1000;

export function pageApi(token: () => string | null): PageApi {
  const headers = (): Record<string, string> => {
    const value = token();
    return value === null ? {} : { authorization: `Bearer ${value}` };
  };

  return {
    async get<T>(path: string): Promise<T> {
      const response = await fetch(`${API_PATH}${path}`, { headers: headers(), cache: 'no-store' });
      if (response.status === 401) throw new Unauthorized();
      if (!response.ok)
        throw new Error(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
      return (await response.json()) as T;
    },
    follow(handlers) {
      const stop = new AbortController();
      const run = async (): Promise<void> => {
        while (!stop.signal.aborted) {
          try {
            const response = await fetch(EVENTS_PATH, { headers: headers(), cache: 'no-store', signal: stop.signal });
            if (response.status === 401) return handlers.unauthorized();
            if (response.ok && response.body !== null) await readEvents(response.body, handlers);
          } catch {
            // A dropped connection or a server restart: try again below.
          }
          if (stop.signal.aborted) return;
          handlers.state('reconnecting');
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      };
      handlers.state('connecting');
      void run();
      return () => stop.abort();
    },
  };
}

async function readEvents(body: ReadableStream<Uint8Array>, handlers: StreamHandlers): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) {
        if (name === 'ready') handlers.state('live');
        handlers.event(name, data.join('\n'));
      }
      end = buffer.indexOf('\n\n');
    }
  }
}
