/**
 * A LangChain agent on a compiled SOP. `MultiServerMCPClient` starts `sop serve` (or reaches SOP_URL over HTTP)
 * and `getTools()` turns its tools into LangChain tools for `createAgent`.
 *
 *   npm start -- "Where is my order #1042?"     with OPENAI_API_KEY (SOP_MODEL, default gpt-5-mini)
 *   npm start                                   without it: lists the tools and plays the first moves itself
 */
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { AGENT, INSTRUCTIONS, SOP_URL, sopServeCommand } from './sop-server.js';

const client = new MultiServerMCPClient({
  useStandardContentBlocks: true,
  mcpServers: { sop: SOP_URL === undefined ? { transport: 'stdio', ...sopServeCommand() } : { url: SOP_URL } },
});

try {
  const tools = await client.getTools();
  console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  if (process.env['OPENAI_API_KEY'] === undefined) {
    // No model: play the model's first calls through the same tools the agent would get. Each answer comes back
    // as a text part with the structured content beside it.
    const call = async (name: string, args: Record<string, unknown>) => {
      const tool = tools.find((candidate) => candidate.name === name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      return (await tool.invoke(args)) as { text: string; structuredContent?: Record<string, unknown> };
    };
    const loaded = (await call('load_graph', { agent: AGENT })).structuredContent as { run_id: string; entry_node: string };
    console.log(`load_graph: run ${loaded.run_id}, entry node ${loaded.entry_node}`);
    const moved = await call('goto_node', { node_id: loaded.entry_node, run_id: loaded.run_id });
    console.log(`goto_node ${loaded.entry_node}: ${moved.text}`);
    console.log('Set OPENAI_API_KEY to run the agent on a message.');
  } else {
    const agent = createAgent({
      model: new ChatOpenAI({ model: process.env['SOP_MODEL'] ?? 'gpt-5-mini' }),
      tools,
      systemPrompt: INSTRUCTIONS,
    });
    const result = await agent.invoke({ messages: [{ role: 'user', content: process.argv[2] ?? 'Hi, where is my order #1042?' }] });
    console.log(result.messages.at(-1)?.content);
  }
} finally {
  await client.close();
}
