/**
 * A lean Streamable HTTP MCP client for load generation: one keep-alive socket per session, a POST per call,
 * answers read whole (SSE `data:` lines or a JSON body). Much cheaper than the SDK client, so that on a 2-core
 * machine the client steals as little CPU as possible from the server being measured. The same client drives
 * the no-op floor and our server, so the comparison stays fair.
 */
import { Agent, request } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { RawToolResult } from './sdk-stdio.js';

interface JsonRpcAnswer {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** Headers of a request after `initialize`: the session's id, if any, and the protocol version. */
function sessionHeaders(sessionId: string | undefined): Record<string, string> {
  return { ...(sessionId ? { 'mcp-session-id': sessionId } : {}), 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
}

function post(
  agent: Agent,
  port: number,
  body: string,
  headers: Record<string, string>,
  method: 'POST' | 'DELETE' = 'POST',
): Promise<{ status: number; sessionId: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const sid = res.headers['mcp-session-id'];
          resolve({
            status: res.statusCode ?? 0,
            sessionId: typeof sid === 'string' ? sid : undefined,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC answer with `id` out of a JSON body or an SSE stream. */
function answerFrom(text: string, id: number): JsonRpcAnswer {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed) as JsonRpcAnswer | JsonRpcAnswer[];
    const found = Array.isArray(parsed) ? parsed.find((m) => m.id === id) : parsed;
    if (found) return found;
  } else {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (!data) continue;
      const message = JSON.parse(data) as JsonRpcAnswer;
      if (message.id === id) return message;
    }
  }
  throw new Error(`no answer to request ${id} in: ${text.slice(0, 200)}`);
}

export class HttpSession {
  private nextId = 1;
  private constructor(
    private readonly agent: Agent,
    private readonly port: number,
    /** Undefined for a sessionless client, which names its run (`run_id`) in every call instead. */
    readonly sessionId: string | undefined,
  ) {}

  /**
   * A client without a session (no `initialize`): the stateless form of the protocol, which any instance behind a
   * load balancer serves; calls name their run with `run_id`.
   */
  static sessionless(port: number, agent: Agent): HttpSession {
    return new HttpSession(agent, port, undefined);
  }

  /** Opens a session: `initialize` then `notifications/initialized`. */
  static async open(port: number, agent: Agent): Promise<HttpSession> {
    const init = await post(
      agent,
      port,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
      }),
      {},
    );
    if (init.status !== 200 || !init.sessionId) throw new Error(`initialize answered ${init.status}: ${init.text.slice(0, 200)}`);
    const answer = answerFrom(init.text, 0);
    if (answer.error) throw new Error(`initialize failed: ${answer.error.message}`);
    const notified = await post(
      agent,
      port,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      sessionHeaders(init.sessionId),
    );
    if (notified.status >= 300) throw new Error(`notifications/initialized answered ${notified.status}`);
    return new HttpSession(agent, port, init.sessionId);
  }

  async request(method: string, params: object): Promise<unknown> {
    const id = this.nextId++;
    const res = await post(this.agent, this.port, JSON.stringify({ jsonrpc: '2.0', id, method, params }), sessionHeaders(this.sessionId));
    if (res.status !== 200) throw new Error(`${method} answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
    const answer = answerFrom(res.text, id);
    if (answer.error) throw new Error(`${method} failed: ${answer.error.message}`);
    return answer.result;
  }

  /** Ends the session as a client does when it is done: DELETE with its id (200 when the server knew it). */
  async close(): Promise<void> {
    if (this.sessionId === undefined) return;
    const res = await post(this.agent, this.port, '', sessionHeaders(this.sessionId), 'DELETE');
    if (res.status !== 200) throw new Error(`DELETE of session ${this.sessionId} answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
  }

  callTool(name: string, args: object): Promise<RawToolResult> {
    return this.request('tools/call', { name, arguments: args }) as Promise<RawToolResult>;
  }
}

/**
 * A keep-alive agent for `sockets` concurrent sessions. A socket left idle for 2 s is closed on our side: Node's
 * HTTP server closes idle keep-alive sockets after 5 s, and a request sent on a socket the server is closing at
 * that moment fails with ECONNRESET (it happened to a server left idle while the other of two took the load).
 */
export function keepAliveAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, timeout: 2000 });
}
