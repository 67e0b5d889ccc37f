/**
 * The Vercel AI SDK (`ai`, `@ai-sdk/mcp`) drives `sop serve` and the gateway through its own MCP client
 * (`createMCPClient` with `StdioMCPTransport` or `{ type: 'http' }`) and the AI SDK tools `client.tools()` makes of
 * the listed tools. No model: the test plays the model's calls by running each tool's `execute`, as `generateText`
 * does, and reads what the model would get through the tool's own `toModelOutput`.
 *
 * How this SDK takes a server's answers:
 *   - `execute` returns the whole CallToolResult; the model gets its content parts (our compact JSON text), not
 *     `structuredContent`;
 *   - with `schemas: 'automatic'` (the default) the listed `outputSchema` is not used; given a tool's schemas, the
 *     client validates `structuredContent` against the output schema and `execute` returns it, typed;
 *   - an `isError` result is returned, not thrown: the model reads the error in it; a protocol error (an unknown
 *     tool) rejects `execute` with an MCPClientError carrying the JSON-RPC code;
 *   - it answers the gateway's questions (elicitation: `onElicitationRequest`), on a connection (2025 era) or as
 *     the 2026-07-28 input_required round trip;
 *   - over stdio it waits 1 s for `server/discover` and then falls back to `initialize`: a gateway that is still
 *     starting its domain servers may be spoken to in either era, and serves both;
 *   - `close()` ends the stdio server with SIGTERM without closing its stdin first.
 */
import { createMCPClient, ElicitationRequestSchema, type MCPClient, MCPClientError } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { RUN_TOOLS } from '../../runtime/tools/tool-definitions.js';
import { type PlayCall, playSeedWalkthrough } from '../support/gateway-walkthrough.js';
import {
  auditOf,
  confirmationsOf,
  expectWalkthroughChanges,
  gatewayStdio,
  plainStdio,
  playSeedMoves,
  RETAIL,
  RETAIL_TOOLS,
  SOP_TOOLS,
  scratchFolder,
  startHttpGateway,
} from './framework-servers.js';

const scratch = scratchFolder();
afterAll(() => scratch.remove());

type Tools = Awaited<ReturnType<MCPClient['tools']>>;

/** What the model gets for a tool result: the tool's own `toModelOutput`, its text parts joined. */
async function modelText(tools: Tools, name: string, input: object, output: unknown): Promise<string> {
  const seen = await tools[name]!.toModelOutput!({ toolCallId: 'call', input, output: output as never });
  expect(seen.type).toBe('content');
  return (seen as { value: { type: string; text?: string }[] }).value.map((part) => part.text ?? '').join('');
}

/** The model's calls, played through the AI SDK tools: `execute`, then what `toModelOutput` hands the model. */
function playThrough(tools: Tools): PlayCall {
  return async (name, args) => {
    const tool = tools[name];
    if (tool?.execute === undefined) throw new Error(`the tool set has no ${name}: ${Object.keys(tools).join(', ')}`);
    const result = (await tool.execute(args, { toolCallId: `call-${name}`, messages: [], context: {} })) as {
      isError?: boolean;
      structuredContent?: unknown;
    };
    const text = await modelText(tools, name, args, result);
    const answer = JSON.parse(text);
    // The model reads the same answer the client holds as structured content (a gateway's refusal has none: the
    // domain tool's output schema is not the gateway's to fill).
    if (result.structuredContent !== undefined || result.isError !== true) expect(answer).toEqual(result.structuredContent);
    return { isError: result.isError === true, answer, text };
  };
}

/** The process ids of this process's children (Linux /proc): the stdio servers a client started. */
function children(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function gone(pids: readonly number[]): Promise<boolean> {
  for (let waited = 0; waited < 10_000; waited += 25) {
    const alive = new Set(children());
    if (pids.every((pid) => !alive.has(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('Vercel AI SDK: createMCPClient over stdio on sop serve', () => {
  it('lists the tools, plays the seed moves through the AI SDK tools, and close() ends the server', async () => {
    const before = new Set(children());
    const client = await createMCPClient({ transport: new StdioMCPTransport({ ...plainStdio(), stderr: 'pipe' }) });
    const started = children().filter((pid) => !before.has(pid));
    try {
      expect(started).toHaveLength(1);
      const tools = await client.tools();
      expect(Object.keys(tools)).toEqual(SOP_TOOLS);
      expect(tools.goto_node).toMatchObject({ type: 'dynamic', title: 'Go to an SOP node' });
      const { path } = await playSeedMoves(playThrough(tools), { passRunId: false });
      expect(path.at(-1)).toBe('END_EXCH');
    } finally {
      await client.close();
    }
    // The SDK ends the server with SIGTERM while its stdin is still open: the server must still go.
    expect(await gone(started)).toBe(true);
  });

  it('returns refusals to the model as they are: valid: false, an isError result, and a rejected call for an unknown tool', async () => {
    const client = await createMCPClient({ transport: new StdioMCPTransport({ ...plainStdio(), stderr: 'pipe' }) });
    try {
      const tools = await client.tools();
      const play = playThrough(tools);
      await play('load_graph', { agent: RETAIL });
      await play('goto_node', { node_id: 'START' });
      const illegal = await play('goto_node', { node_id: 'END_EXCH' });
      expect(illegal).toMatchObject({ isError: false, answer: { valid: false, current_node: 'START', valid_next: ['AUTH', 'START'] } });
      const wrong = await play('todo', { todos: [{ content: 'x', status: 'pending', completion_node: 'START' }] });
      expect(wrong.isError).toBe(true);
      expect(wrong.answer.error).toMatch(/START is not a terminal node of retail_customer_support/);
      // A tool the server does not have (a stale listing): `execute` rejects with the JSON-RPC error.
      const stale = client.toolsFromDefinitions({ tools: [{ name: 'no_such_tool', inputSchema: { type: 'object' } }] });
      const rejected = await Promise.resolve(stale.no_such_tool!.execute!({}, { toolCallId: 'call', messages: [], context: {} })).then(
        () => undefined,
        (error: unknown) => error as MCPClientError,
      );
      expect(MCPClientError.isInstance(rejected)).toBe(true);
      expect(rejected?.code).toBe(-32602);
      expect(rejected?.message).toContain('Unknown tool: no_such_tool. Available tools: load_graph, goto_node, todo, inspect');
      // The run is unchanged by the refusals.
      expect((await play('goto_node', { node_id: 'AUTH' })).answer).toMatchObject({ valid: true, path: ['START', 'AUTH'] });
    } finally {
      await client.close();
    }
  });

  it('validates structured content against the output schemas it is given, and hands back the parsed answer', async () => {
    const client = await createMCPClient({ transport: new StdioMCPTransport({ ...plainStdio(), stderr: 'pipe' }) });
    try {
      const [goto, todo] = ['goto_node', 'todo'].map((name) => RUN_TOOLS.find((tool) => tool.name === name)!);
      const tools = await client.tools({
        schemas: {
          goto_node: { inputSchema: goto!.inputSchema, outputSchema: goto!.outputSchema },
          todo: { inputSchema: todo!.inputSchema, outputSchema: todo!.outputSchema },
        },
      });
      expect(Object.keys(tools)).toEqual(['goto_node', 'todo']);
      const all = await client.tools();
      await all.load_graph!.execute!({ agent: RETAIL }, { toolCallId: 'call', messages: [], context: {} });
      const options = { toolCallId: 'call', messages: [], context: {} };
      expect(await tools.goto_node.execute!({ node_id: 'START' }, options)).toMatchObject({ valid: true, path: ['START'] });
      expect(await tools.goto_node.execute!({ node_id: 'ROUTE' }, options)).toMatchObject({ valid: false, valid_next: ['AUTH', 'START'] });
      const written = await tools.todo.execute!(
        { todos: [{ content: 'Exchange the tablet', status: 'pending', completion_node: 'END_EXCH' }] },
        options,
      );
      expect(written).toMatchObject({ summary: { pending: 1, in_progress: 0, completed: 0 } });
    } finally {
      await client.close();
    }
  });
});

describe('Vercel AI SDK on sop serve --gateway', () => {
  it('stdio: lists the domain tools and plays the seed walkthrough, its user asked before each change', async () => {
    const database = scratch.database('stdio');
    const client = await createMCPClient({
      transport: new StdioMCPTransport({ ...gatewayStdio(database), stderr: 'pipe' }),
      capabilities: { elicitation: {} },
    });
    const asked: string[] = [];
    client.onElicitationRequest(ElicitationRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const tools = await client.tools();
      expect(Object.keys(tools)).toEqual([...SOP_TOOLS, ...RETAIL_TOOLS]);
      const result = await playSeedWalkthrough(playThrough(tools), { passRunId: false });
      expect(asked.map((message) => message.match(/asks to call (\w+)/)?.[1])).toEqual([
        'modify_pending_order_address',
        'modify_user_address',
        'exchange_delivered_order_items',
      ]);
      expectWalkthroughChanges(database, result);
    } finally {
      await client.close();
    }
  });

  it('HTTP: the walkthrough with the run id on every call, each change confirmed by the user; a no refuses the call', async () => {
    const gateway = await startHttpGateway(scratch, 'http');
    let answer = true;
    const client = await createMCPClient({ transport: { type: 'http', url: gateway.url }, capabilities: { elicitation: {} } });
    client.onElicitationRequest(ElicitationRequestSchema, () => ({ action: 'accept', content: { confirm: answer } }));
    try {
      const tools = await client.tools();
      const play = playThrough(tools);
      const result = await playSeedWalkthrough(play, { passRunId: true });
      expectWalkthroughChanges(gateway.database, result);
      expect(confirmationsOf(auditOf(gateway.store, result.runId))).toEqual(['yes', 'yes', 'yes']);
      // The user says no to a change: the gateway refuses the call (isError), and the run stays where it was.
      const run = { run_id: result.runId };
      for (const node_id of ['ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR']) await play('goto_node', { node_id, ...run });
      answer = false;
      const declined = await play('modify_user_address', { user_id: 'sophia_martin_4832', ...result.address, city: 'Elsewhere', ...run });
      expect(declined.isError).toBe(true);
      expect(declined.answer).toMatchObject({ refused_by: 'confirmation', policy: 'confirm_before_changes' });
      expectWalkthroughChanges(gateway.database, result);
    } finally {
      await client.close();
      await gateway.stop();
    }
  });
});
