/**
 * LangChain's MCP adapters (`@langchain/mcp-adapters`) drive `sop serve` and the gateway through
 * `MultiServerMCPClient` (the official v1 SDK client underneath: 2025 era, a session over HTTP) and the LangChain
 * tools it makes of the listed tools. No model: the test plays the model's calls through LangGraph's `ToolNode`,
 * which runs those tools for an agent, and reads the ToolMessages it would hand the model.
 *
 * How these adapters take a server's answers:
 *   - a result with `structuredContent` becomes a ToolMessage whose content is the JSON of the text part with the
 *     structured content beside it: the model reads our answer twice (in `text`, escaped, and as
 *     `structuredContent`); the structured content is also in the artifact (`mcp_structured_content`);
 *   - an `isError` result throws a ToolException; the ToolNode hands the model "Error: … returned an error: {json}";
 *   - arguments are checked against the tool's JSON schema before the call: a wrong shape never reaches the server,
 *     and the model gets LangChain's "Received tool input did not match expected schema" instead of our message;
 *   - the v1 client validates `structuredContent` against each tool's `outputSchema`;
 *   - it cannot be asked mid-call (no elicitation): the gateway's confirmation steps stand in for the user's yes;
 *   - a protocol error (an unknown tool) rejects the client's call with an McpError carrying the JSON-RPC code.
 */
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { AIMessage, type ToolMessage } from '@langchain/core/messages';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
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

/** The ToolMessage LangGraph's ToolNode hands the model for one call of the model's. */
async function runToolCall(node: ToolNode, name: string, args: Record<string, unknown>, id: string): Promise<ToolMessage> {
  const asked = new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }] });
  const { messages } = (await node.invoke({ messages: [asked] })) as { messages: ToolMessage[] };
  expect(messages).toHaveLength(1);
  return messages[0]!;
}

const ERROR_TEXT = /^Error: MCP tool '(\w+)' on server 'sop' returned an error: (.*)\n Please fix your mistakes\.$/s;

/** The model's calls, played through the ToolNode: what its ToolMessage says, and whether it is an error. */
function playThrough(tools: DynamicStructuredTool[]): PlayCall {
  const node = new ToolNode(tools);
  let count = 0;
  return async (name, args) => {
    count += 1;
    const message = await runToolCall(node, name, args, `call_${count}`);
    expect(typeof message.content).toBe('string');
    const content = message.content as string;
    if (message.status === 'error') {
      const [, tool, json] = ERROR_TEXT.exec(content) ?? [];
      expect(tool, content).toBe(name);
      return { isError: true, answer: JSON.parse(json!), text: json! };
    }
    const part = JSON.parse(content) as { type: string; text: string; structuredContent?: unknown };
    expect(part.type).toBe('text');
    const answer = JSON.parse(part.text);
    expect(part.structuredContent).toEqual(answer);
    expect(message.artifact).toContainEqual({ type: 'mcp_structured_content', data: answer });
    return { isError: false, answer, text: part.text };
  };
}

function stdioClient(server: {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: Record<string, string>;
}): MultiServerMCPClient {
  return new MultiServerMCPClient({
    useStandardContentBlocks: true,
    mcpServers: { sop: { transport: 'stdio', ...server, args: [...server.args], stderr: 'pipe' } },
  });
}

describe('LangChain MCP adapters: MultiServerMCPClient over stdio on sop serve', () => {
  it('lists the tools and plays the seed moves through a LangGraph ToolNode', async () => {
    const client = stdioClient(plainStdio());
    try {
      const tools = await client.getTools();
      expect(tools.map((tool) => tool.name)).toEqual(SOP_TOOLS);
      expect(tools.every((tool) => tool.responseFormat === 'content_and_artifact')).toBe(true);
      const { path } = await playSeedMoves(playThrough(tools), { passRunId: false });
      expect(path.at(-1)).toBe('END_EXCH');
    } finally {
      await client.close();
    }
  });

  it('hands the model valid: false as an answer, an isError result as an error message, and checks argument shapes itself', async () => {
    const client = stdioClient(plainStdio());
    try {
      const tools = await client.getTools();
      const play = playThrough(tools);
      await play('load_graph', { agent: RETAIL });
      await play('goto_node', { node_id: 'START' });
      expect(await play('goto_node', { node_id: 'END_EXCH' })).toMatchObject({
        isError: false,
        answer: { valid: false, error: 'Cannot reach END_EXCH from START', valid_next: ['AUTH', 'START'] },
      });
      const wrong = await play('todo', { todos: [{ content: 'x', status: 'pending', completion_node: 'START' }] });
      expect(wrong.isError).toBe(true);
      expect(wrong.answer.error).toMatch(/START is not a terminal node of retail_customer_support/);
      // A wrong shape is refused by LangChain before it is sent: the model never sees the server's explanation.
      const shape = await runToolCall(new ToolNode(tools), 'todo', { todos: 'x' }, 'call_shape');
      expect(shape.status).toBe('error');
      expect(shape.content).toMatch(/^Error: Received tool input did not match expected schema/);
      // A protocol error: the client's call rejects with the JSON-RPC code and the server's message.
      const mcp = await client.getClient('sop');
      const rejected = await mcp!.callTool({ name: 'no_such_tool', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error as { code?: number; message: string },
      );
      expect(rejected?.code).toBe(-32602);
      expect(rejected?.message).toContain('Unknown tool: no_such_tool. Available tools: load_graph, goto_node, todo, inspect');
      // The run is unchanged by the refusals.
      expect((await play('goto_node', { node_id: 'AUTH' })).answer).toMatchObject({ valid: true, path: ['START', 'AUTH'] });
    } finally {
      await client.close();
    }
  });
  it('an afterToolCall hook that keeps the text part hands the model each answer once (the hook gets no structured content)', async () => {
    const client = new MultiServerMCPClient({
      useStandardContentBlocks: true,
      mcpServers: { sop: { transport: 'stdio', ...plainStdio(), stderr: 'pipe' } },
      afterToolCall: ({ result: [content, artifact] }) => ({
        result: [
          typeof content === 'string' ? content : content.map((part) => ('text' in part ? String(part.text) : '')).join(''),
          artifact,
        ],
      }),
    });
    try {
      const node = new ToolNode(await client.getTools());
      const loaded = await runToolCall(node, 'load_graph', { agent: RETAIL }, 'call_1');
      const moved = await runToolCall(node, 'goto_node', { node_id: 'START' }, 'call_2');
      for (const message of [loaded, moved]) {
        expect(message.status).toBe('success');
        expect(typeof message.content).toBe('string');
      }
      const answer = JSON.parse(moved.content as string);
      expect(answer).toMatchObject({ valid: true, path: ['START'] });
      // The adapters hand the hook the artifact without the structured content.
      expect(moved.artifact).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('LangChain MCP adapters on sop serve --gateway', () => {
  it('stdio: lists the domain tools and plays the seed walkthrough; a domain call the node does not offer is an error message', async () => {
    const database = scratch.database('stdio');
    const client = stdioClient(gatewayStdio(database));
    try {
      const tools = await client.getTools();
      expect(tools.map((tool) => tool.name)).toEqual([...SOP_TOOLS, ...RETAIL_TOOLS]);
      const play = playThrough(tools);
      await play('load_graph', { agent: RETAIL });
      const refused = await play('cancel_pending_order', { order_id: '#W2575533', reason: 'no longer needed' });
      expect(refused.isError).toBe(true);
      expect(refused.answer).toMatchObject({ refused_by: 'no-position', offered_at: ['DO_CANCEL'] });
      expectUnchanged(database);
      const result = await playSeedWalkthrough(play, { passRunId: false });
      expectWalkthroughChanges(database, result);
    } finally {
      await client.close();
    }
  });

  it('HTTP: the walkthrough on the session the client keeps (no run id); sop runs show says the confirmation steps decided', async () => {
    const gateway = await startHttpGateway(scratch, 'http');
    const client = new MultiServerMCPClient({
      useStandardContentBlocks: true,
      mcpServers: { sop: { url: gateway.url, automaticSSEFallback: false } },
    });
    try {
      const result = await playSeedWalkthrough(playThrough(await client.getTools()), { passRunId: false });
      expectWalkthroughChanges(gateway.database, result);
      expect(confirmationsOf(auditOf(gateway.store, result.runId))).toEqual(['step', 'step', 'step']);
    } finally {
      await client.close();
      await gateway.stop();
    }
  });
});
