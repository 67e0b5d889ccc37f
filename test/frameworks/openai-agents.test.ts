/**
 * The OpenAI Agents SDK (`@openai/agents`) drives `sop serve` and the gateway through its own MCP client
 * (`MCPServerStdio`, `MCPServerStreamableHttp`) and the function tools it makes of the listed tools
 * (`getAllMcpTools`). No model: the test plays the model's calls by invoking those function tools, as the runner
 * does, and reads what the runner would hand the model.
 *
 * How this SDK takes a server's answers:
 *   - the model sees the result's `content` (one text part), or with `useStructuredContent: true` the JSON of
 *     `structuredContent`; ours are the same JSON either way;
 *   - an `isError` result reaches the model as its content and nothing more: the flag itself is dropped, so our
 *     error answers carry `error` in the JSON they send;
 *   - its client (the official v2 SDK) validates `structuredContent` against each tool's `outputSchema`;
 *   - with `convertSchemasToStrict: true` every tool becomes strict: all properties required, the optional ones
 *     nullable, so the model sends `null` for what it leaves out, which the server takes as absent;
 *   - it cannot be asked mid-call (no elicitation): the gateway's confirmation steps stand in for the user's yes;
 *   - a protocol error (an unknown tool) rejects the client's call; inside a function tool the SDK's default error
 *     function turns it into "An error occurred while running the tool. Please try again.", without the server's
 *     message (which names the available tools) unless the app gives the server an `errorFunction`.
 */
import {
  type FunctionTool,
  getAllMcpTools,
  type MCPServer,
  MCPServerStdio,
  MCPServerStreamableHttp,
  mcpToFunctionTool,
  RunContext,
  type Tool,
} from '@openai/agents';
import { afterAll, describe, expect, it } from 'vitest';
import { type PlayCall, playSeedWalkthrough } from '../support/gateway-walkthrough.js';
import {
  auditOf,
  confirmationsOf,
  expectUnchanged,
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

async function functionTools(server: MCPServer): Promise<Map<string, FunctionTool>> {
  const tools: Tool[] = await getAllMcpTools({ mcpServers: [server], runContext: new RunContext() });
  return new Map(tools.flatMap((tool) => (tool.type === 'function' ? [[tool.name, tool as FunctionTool]] : [])));
}

/**
 * The model's calls, played through the function tools of a server with `useStructuredContent: true`: a success
 * comes back as the JSON of `structuredContent` (a string), an `isError` result as its content part.
 */
function playThrough(tools: Map<string, FunctionTool>): PlayCall {
  const context = new RunContext();
  return async (name, args) => {
    const tool = tools.get(name);
    if (tool === undefined) throw new Error(`the agent has no function tool ${name}: ${[...tools.keys()].join(', ')}`);
    const output = (await tool.invoke(context, JSON.stringify(args))) as unknown;
    if (typeof output === 'string') return { isError: false, answer: JSON.parse(output), text: output };
    const text = (output as { type: string; text: string }).text;
    expect((output as { type: string }).type).toBe('text');
    return { isError: true, answer: JSON.parse(text), text };
  };
}

describe('OpenAI Agents SDK: MCPServerStdio on sop serve', () => {
  it('lists the tools with their schemas and plays the seed moves through the function tools', async () => {
    const server = new MCPServerStdio({ name: 'sop', ...plainStdio(), useStructuredContent: true });
    await server.connect();
    try {
      const listed = await server.listTools();
      expect(listed.map((tool) => tool.name)).toEqual(SOP_TOOLS);
      for (const tool of listed) expect((tool as { outputSchema?: unknown }).outputSchema, tool.name).toMatchObject({ type: 'object' });
      const tools = await functionTools(server);
      expect([...tools.keys()]).toEqual(SOP_TOOLS);
      // The SDK keeps the tools non-strict by default: run_id stays optional, as the server declares it.
      expect(tools.get('goto_node')).toMatchObject({ strict: false, parameters: { required: ['node_id'] } });
      const { path } = await playSeedMoves(playThrough(tools), { passRunId: false });
      expect(path.at(-1)).toBe('END_EXCH');
    } finally {
      await server.close();
    }
  });

  it('converts every tool to strict mode, and takes the nulls a strict model sends for optional arguments as absent', async () => {
    const server = new MCPServerStdio({ name: 'sop', ...plainStdio(), useStructuredContent: true });
    await server.connect();
    try {
      const tools: Tool[] = await getAllMcpTools({ mcpServers: [server], runContext: new RunContext(), convertSchemasToStrict: true });
      const strict = new Map(tools.flatMap((tool) => (tool.type === 'function' ? [[tool.name, tool as FunctionTool]] : [])));
      // Strict mode requires every property; the optional ones become nullable.
      expect([...strict.values()].map((tool) => [tool.name, tool.strict, tool.parameters.required])).toEqual([
        ['load_graph', true, ['agent', 'sop_file']],
        ['goto_node', true, ['node_id', 'outcome', 'run_id']],
        ['todo', true, ['todos', 'run_id']],
        ['inspect', true, ['view', 'run_id']],
      ]);
      const play = playThrough(strict);
      const loaded = await play('load_graph', { agent: RETAIL, sop_file: null });
      expect(loaded.answer).toMatchObject({ agent: RETAIL, entry_node: 'START' });
      expect((await play('goto_node', { node_id: 'START', outcome: null, run_id: null })).answer).toMatchObject({
        valid: true,
        path: ['START'],
      });
      const written = await play('todo', {
        todos: [{ content: 'Exchange the tablet', status: 'pending', note: null, completion_node: null }],
        run_id: null,
      });
      expect(written.answer.summary).toEqual({ pending: 1, in_progress: 0, completed: 0 });
      expect((await play('inspect', { view: 'where', run_id: loaded.answer.run_id })).answer).toMatchObject({
        valid_next: ['AUTH', 'START'],
      });
    } finally {
      await server.close();
    }
  });

  it('hands the model refusals as JSON: valid: false for an illegal move, an error answer (its isError dropped) for a bad call', async () => {
    // The SDK's defaults: the model sees the content part.
    const server = new MCPServerStdio({ name: 'sop', ...plainStdio() });
    await server.connect();
    try {
      const tools = await functionTools(server);
      const context = new RunContext();
      const modelSees = async (name: string, args: object) => {
        const output = (await tools.get(name)!.invoke(context, JSON.stringify(args))) as { type: string; text: string };
        expect(output.type).toBe('text');
        return JSON.parse(output.text);
      };
      await modelSees('load_graph', { agent: RETAIL });
      expect(await modelSees('goto_node', { node_id: 'START' })).toMatchObject({ valid: true, path: ['START'] });
      expect(await modelSees('goto_node', { node_id: 'END_EXCH' })).toEqual({
        valid: false,
        error: 'Cannot reach END_EXCH from START',
        current_node: 'START',
        valid_next: ['AUTH', 'START'],
      });
      expect(await modelSees('goto_node', { node_id: 'NOPE' })).toMatchObject({
        valid: false,
        error: expect.stringMatching(/^Node not found: NOPE/),
      });
      // isError: true on the wire (the client call shows it); the model gets the same JSON without the flag.
      const wrongTodo = { todos: [{ content: 'x', status: 'pending', completion_node: 'START' }] };
      const raw = await server.callToolResult!('todo', wrongTodo);
      expect(raw.isError).toBe(true);
      const seen = await modelSees('todo', wrongTodo);
      expect(seen).toEqual(raw.structuredContent);
      expect(seen.error).toMatch(/START is not a terminal node of retail_customer_support/);
      // The run is unchanged by the refusals.
      expect(await modelSees('goto_node', { node_id: 'AUTH' })).toMatchObject({ valid: true, path: ['START', 'AUTH'] });
    } finally {
      await server.close();
    }
  });

  it('an unknown tool is a protocol error: the client call rejects with -32602, a function tool hands the model its text', async () => {
    const server = new MCPServerStdio({ name: 'sop', ...plainStdio() });
    await server.connect();
    try {
      const rejected = await server.callTool('no_such_tool', {}).then(
        () => undefined,
        (error: unknown) => error as { code?: number; message: string },
      );
      expect(rejected?.code).toBe(-32602);
      expect(rejected?.message).toContain('Unknown tool: no_such_tool. Available tools: load_graph, goto_node, todo, inspect');
      // A function tool for a tool the server does not have (one a stale listing still offers): the SDK's default
      // error function hides the server's message from the model; an error function of the app's passes it on.
      const stale = {
        name: 'no_such_tool',
        description: '',
        inputSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false },
      };
      expect(await mcpToFunctionTool(stale, server, false).invoke(new RunContext(), '{}')).toBe(
        'An error occurred while running the tool. Please try again.',
      );
      const told = mcpToFunctionTool(stale, server, false, {
        errorFunction: ({ error }) => (error instanceof Error ? error.message : String(error)),
      });
      expect(await told.invoke(new RunContext(), '{}')).toMatch(
        /Unknown tool: no_such_tool. Available tools: load_graph, goto_node, todo, inspect/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('OpenAI Agents SDK on sop serve --gateway', () => {
  it('MCPServerStdio: lists the domain tools and plays the seed walkthrough; the confirmation steps stand in for the user', async () => {
    const database = scratch.database('stdio');
    const server = new MCPServerStdio({ name: 'sop', ...gatewayStdio(database), useStructuredContent: true });
    await server.connect();
    try {
      const tools = await functionTools(server);
      expect([...tools.keys()]).toEqual([...SOP_TOOLS, ...RETAIL_TOOLS]);
      const play = playThrough(tools);
      // A domain call where the run's node does not offer it is refused by the gateway: an isError result.
      await play('load_graph', { agent: RETAIL });
      const refused = await play('cancel_pending_order', { order_id: '#W2575533', reason: 'no longer needed' });
      expect(refused.isError).toBe(true);
      expect(refused.answer).toMatchObject({ refused_by: 'no-position', offered_at: ['DO_CANCEL'] });
      expectUnchanged(database);
      const result = await playSeedWalkthrough(play, { passRunId: false });
      expectWalkthroughChanges(database, result);
    } finally {
      await server.close();
    }
  });

  it('MCPServerStreamableHttp: the walkthrough with the run id on every call; sop runs show says the confirmation steps decided', async () => {
    const gateway = await startHttpGateway(scratch, 'http');
    const server = new MCPServerStreamableHttp({ name: 'sop', url: gateway.url, useStructuredContent: true });
    try {
      await server.connect();
      const play = playThrough(await functionTools(server));
      const result = await playSeedWalkthrough(play, { passRunId: true });
      expectWalkthroughChanges(gateway.database, result);
      expect(confirmationsOf(auditOf(gateway.store, result.runId))).toEqual(['step', 'step', 'step']);
      // The SDK's client keeps no session over HTTP (it speaks the stateless 2026-07-28 revision): without the run id
      // a call has no run.
      const sessionless = await play('goto_node', { node_id: 'ROUTE' });
      expect(sessionless.isError).toBe(true);
      expect(sessionless.answer.error).toMatch(/^No run: call load_graph first/);
    } finally {
      await server.close();
      await gateway.stop();
    }
  });
});
