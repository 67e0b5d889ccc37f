import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type Connected } from '../helpers/mcp-client.js';

describe('the MCP surface', () => {
  let session: Connected;
  beforeAll(async () => {
    session = await connectInMemory();
  });
  afterAll(() => session.close());

  it('declares tools, prompts and resources, without list_changed (the lists never change)', () => {
    expect(session.client.getServerCapabilities()).toEqual({ tools: {}, prompts: {}, resources: {} });
    expect(session.client.getInstructions()).toContain('support_desk, tiny_flow');
  });

  it('lists the four tools, each with a description and object input and output schemas', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['load_graph', 'goto_node', 'todo', 'inspect']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const todo = tools.find((tool) => tool.name === 'todo');
    expect(todo?.inputSchema).toMatchObject({
      required: ['todos'],
      properties: {
        todos: {
          type: 'array',
          maxItems: 50,
          items: {
            required: ['content', 'status'],
            additionalProperties: false,
            properties: {
              content: { type: 'string', minLength: 1, maxLength: 500 },
              status: { enum: ['pending', 'in_progress', 'completed'] },
              note: { maxLength: 1000 },
            },
          },
        },
      },
    });
    expect(tools.find((tool) => tool.name === 'goto_node')?.inputSchema).toMatchObject({ required: ['node_id'] });
  });

  it('answers an unknown tool with JSON-RPC -32602, as the MCP spec says (not an isError result)', async () => {
    const call = session.client.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: no_such_tool. Available tools: load_graph, goto_node, todo, inspect'),
    });
  });

  it('answers invalid arguments with an isError result naming each field', async () => {
    expect(await session.call('goto_node', { node_id: 5 })).toEqual({
      isError: true,
      answer: { error: 'Invalid arguments for goto_node: node_id: Invalid input: expected string, received number' },
    });
    expect(await session.call('goto_node', {})).toMatchObject({
      isError: true,
      answer: { error: expect.stringContaining('node_id: Invalid input') },
    });
    expect(await session.call('goto_node', { node_id: 'START', extra: 1 })).toMatchObject({
      isError: true,
      answer: { error: expect.stringContaining('Unrecognized key: "extra"') },
    });
    expect(await session.call('load_graph', {})).toEqual({
      isError: true,
      answer: { error: 'Invalid arguments for load_graph: Give exactly one of agent or sop_file.' },
    });
    expect(await session.call('load_graph', { agent: 'support_desk', sop_file: 'sops/support_desk.md' })).toMatchObject({ isError: true });
    expect(
      await session.call('todo', {
        todos: [
          { content: '', status: 'pending' },
          { content: 'x', status: 'later' },
        ],
      }),
    ).toEqual({
      isError: true,
      answer: {
        error:
          'Invalid arguments for todo: todos[0].content: content must not be empty; todos[1].status: status must be one of pending, in_progress, completed',
      },
    });
  });
});

describe('prompts and resources', () => {
  let session: Connected;
  beforeAll(async () => {
    session = await connectInMemory();
  });
  afterAll(() => session.close());

  it('offers each agent system prompt as a prompt', async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['support_desk', 'tiny_flow']);
    const prompt = await session.client.getPrompt({ name: 'support_desk' });
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: expect.stringMatching(/^## Role\nHelp verified customers/) });
    await expect(session.client.getPrompt({ name: 'nobody' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown prompt: nobody'),
    });
  });

  it('offers each agent flowchart as a text/vnd.mermaid resource', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([
      ['sop://support_desk/flowchart', 'text/vnd.mermaid'],
      ['sop://tiny_flow/flowchart', 'text/vnd.mermaid'],
    ]);
    const { contents } = await session.client.readResource({ uri: 'sop://support_desk/flowchart' });
    expect(contents).toEqual([
      {
        uri: 'sop://support_desk/flowchart',
        mimeType: 'text/vnd.mermaid',
        text: expect.stringMatching(/^flowchart TD\n {4}START\(\[Customer writes in\]\)/),
      },
    ]);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates[0]?.uriTemplate).toBe('sop://{agent}/flowchart');
  });

  it.each(['sop://nobody/flowchart', 'sop://support_desk/prompt', 'file:///etc/passwd'])(
    'answers %s with resource-not-found (-32602 with data {uri}, as the 2026-07-28 revision says, in every era)',
    async (uri) => {
      await expect(session.client.readResource({ uri })).rejects.toMatchObject({
        code: -32602,
        data: { uri },
        message: expect.stringContaining(`Resource not found: ${uri}`),
      });
    },
  );
});
