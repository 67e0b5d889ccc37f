/**
 * A handshaken 2025-era stdio client's plain tool calls are answered from the session service directly
 * (`runtime/stdio/plain-calls.ts`), not through the SDK's per-request serving. In process, over real streams with the
 * real line transport, SDK entry and session service:
 *   - the answers are those the SDK's way gives, call for call (a move made and one refused, a node that does not exist,
 *     a tool error, arguments that do not fit, an unknown tool, a trace context in `_meta`);
 *   - which way took a call shows in what the service was told: the SDK's way says the user can be asked when the
 *     client declared elicitation, this one never does. Calls before the handshake is done go the SDK's way;
 *   - a call the client cancels before its answer is ready gets no answer, and the conversation goes on;
 *   - an app that serves through a server factory of its own has every call answered by its shell.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServerFactory, type ServerFactory } from '../../../runtime/mcp/server-factory.js';
import type { CallRequest } from '../../../runtime/service/tracing.js';
import type { SessionService } from '../../../runtime/service/session-service.js';
import { serveStdio } from '../../../runtime/stdio/serve-stdio.js';
import { fixtureService } from '../helpers/mcp-client.js';

type Message = { jsonrpc: '2.0'; id?: number; method?: string; params?: unknown; result?: any; error?: any };

/** A stdio server in this process, on the streams a test writes and reads. */
async function connect(service: SessionService, answerPlainCalls: boolean, serverFactory?: ServerFactory) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: Message[] = [];
  let partial = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    for (let end = partial.indexOf('\n'); end >= 0; end = partial.indexOf('\n')) {
      received.push(JSON.parse(partial.slice(0, end)) as Message);
      partial = partial.slice(end + 1);
    }
  });
  const server = await serveStdio({ service, stdin, stdout, answerPlainCalls, ...(serverFactory === undefined ? {} : { serverFactory }) });
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  const answerTo = async (id: number): Promise<Message> => {
    for (let waited = 0; waited < 10_000; waited += 5) {
      const found = received.find((m) => m.id === id && m.method === undefined);
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`no answer to ${id}`);
  };
  const handshake = async (capabilities: object = {}) => {
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 't', version: '0' } },
    });
    await answerTo(0);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return {
    send,
    answerTo,
    handshake,
    received,
    async call(id: number, name: string, args: object, meta?: object): Promise<Message> {
      send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) } });
      return answerTo(id);
    },
    async close() {
      stdin.end();
      await server.closed;
      await server.close();
    },
  };
}

/** The fixture service, with what each call was told (`canAsk` shows which way took it). */
function recordingService(): { service: SessionService; told: { name: string; request: CallRequest | undefined }[] } {
  const base = fixtureService();
  const told: { name: string; request: CallRequest | undefined }[] = [];
  const service: SessionService = Object.create(base);
  service.callTool = (name, args, caller, request) => {
    told.push({ name, request });
    return base.callTool(name, args, caller, request);
  };
  return { service, told };
}

/** A conversation's answers, run ids made comparable (each server starts its own runs). */
async function play(answerPlainCalls: boolean): Promise<unknown[]> {
  const { service } = recordingService();
  const conversation = await connect(service, answerPlainCalls);
  await conversation.handshake();
  const answers: unknown[] = [];
  const calls: [string, object, object?][] = [
    ['load_graph', { agent: 'support_desk' }],
    ['goto_node', { node_id: 'START' }],
    ['goto_node', { node_id: 'ROUTE' }, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }],
    ['goto_node', { node_id: 'NOPE' }],
    ['todo', { todos: [{ content: '', status: 'pending' }] }],
    ['goto_node', { node_id: 42 }],
    ['no_such_tool', {}],
  ];
  for (const [i, [name, args, meta]] of calls.entries()) answers.push(await conversation.call(i + 1, name, args, meta));
  await conversation.close();
  return JSON.parse(JSON.stringify(answers).replace(/run_[A-Za-z0-9_-]+/g, 'RUN'));
}

describe('plain tool calls over stdio', () => {
  it('are answered as the SDK answers them, call for call', async () => {
    const direct = await play(true);
    const bySdk = await play(false);
    expect(direct).toEqual(bySdk);
    // The conversation had each kind of answer in it.
    const kinds = (direct as Message[]).map((m) =>
      m.error !== undefined ? `error ${m.error.code}` : m.result?.isError ? 'tool error' : 'ok',
    );
    expect(kinds).toEqual(['ok', 'ok', 'ok', 'tool error', 'tool error', 'tool error', 'error -32602']);
    expect((direct as Message[])[2]?.result?.structuredContent).toMatchObject({ valid: false });
  });

  it('are taken here only once the handshake is done: the SDK tells the service the user can be asked, this way never', async () => {
    const { service, told } = recordingService();
    const conversation = await connect(service, true);
    conversation.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '0' } },
    });
    await conversation.answerTo(0);
    // Before `notifications/initialized`: the SDK's way.
    expect((await conversation.call(1, 'load_graph', { agent: 'support_desk' })).result?.isError).toBeFalsy();
    conversation.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await conversation.call(2, 'goto_node', { node_id: 'START' })).result?.structuredContent).toMatchObject({ valid: true });
    await conversation.close();
    expect(told.map((t) => [t.name, t.request?.canAsk])).toEqual([
      ['load_graph', true],
      ['goto_node', false],
    ]);
  });

  it('gives no answer to a call cancelled before its answer is ready, and serves the next', async () => {
    const { service } = recordingService();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gated: SessionService = Object.create(service);
    gated.callTool = async (name, args, caller, request) => {
      if (name === 'goto_node') await gate;
      return service.callTool(name, args, caller, request);
    };
    const conversation = await connect(gated, true);
    await conversation.handshake();
    await conversation.call(1, 'load_graph', { agent: 'support_desk' });
    conversation.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'goto_node', arguments: { node_id: 'START' } } });
    conversation.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user moved on' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const next = await conversation.call(3, 'load_graph', { agent: 'support_desk' });
    expect(next.result?.isError).toBeFalsy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(conversation.received.filter((m) => m.id === 2)).toEqual([]);
    await conversation.close();
  });

  it("are left to an app's own server factory: its shell answers every call", async () => {
    const { service, told } = recordingService();
    const toolkitShell = createServerFactory(service);
    const appShell: ServerFactory = (caller) => {
      const shell = toolkitShell(caller);
      shell.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text' as const, text: 'answered by the app' }] }));
      return shell;
    };
    const conversation = await connect(service, true, appShell);
    await conversation.handshake();
    const answer = await conversation.call(1, 'load_graph', { agent: 'support_desk' });
    await conversation.close();
    expect(answer.result?.content).toEqual([{ type: 'text', text: 'answered by the app' }]);
    expect(told).toEqual([]);
  });
});
