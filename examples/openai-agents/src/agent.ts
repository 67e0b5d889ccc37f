/**
 * An OpenAI Agents SDK agent on a compiled SOP. The SDK's MCP client starts `sop serve` (or reaches SOP_URL over
 * HTTP) and turns its tools into function tools; the agent calls them as the model decides.
 *
 *   npm start -- "Where is my order #1042?"     with OPENAI_API_KEY: runs the agent on one message
 *   npm start                                   without it: lists the tools and plays the first moves itself
 */
import { Agent, getAllMcpTools, type MCPServer, MCPServerStdio, MCPServerStreamableHttp, RunContext, run } from '@openai/agents';
import { AGENT, INSTRUCTIONS, SOP_URL, sopServeCommand } from './sop-server.js';

// useStructuredContent: the model reads the answer's structured content (the same JSON as its text).
const server: MCPServer =
  SOP_URL === undefined
    ? new MCPServerStdio({ name: 'sop', ...sopServeCommand(), useStructuredContent: true })
    : new MCPServerStreamableHttp({ name: 'sop', url: SOP_URL, useStructuredContent: true });

await server.connect();
try {
  const tools = await getAllMcpTools({ mcpServers: [server], runContext: new RunContext() });
  console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  if (process.env['OPENAI_API_KEY'] === undefined) {
    // No model: play the model's first calls through the same function tools the agent would get.
    const call = async (name: string, args: object): Promise<string> => {
      const tool = tools.find((candidate) => candidate.name === name);
      if (tool?.type !== 'function') throw new Error(`no tool ${name}`);
      const output = await tool.invoke(new RunContext(), JSON.stringify(args));
      return typeof output === 'string' ? output : JSON.stringify(output);
    };
    const loaded = JSON.parse(await call('load_graph', { agent: AGENT })) as { run_id: string; entry_node: string };
    console.log(`load_graph: run ${loaded.run_id}, entry node ${loaded.entry_node}`);
    console.log(`goto_node ${loaded.entry_node}: ${await call('goto_node', { node_id: loaded.entry_node, run_id: loaded.run_id })}`);
    console.log('Set OPENAI_API_KEY to run the agent on a message.');
  } else {
    const agent = new Agent({ name: 'SOP agent', instructions: INSTRUCTIONS, mcpServers: [server] });
    const result = await run(agent, process.argv[2] ?? 'Hi, where is my order #1042?', { maxTurns: 30 });
    console.log(result.finalOutput);
  }
} finally {
  await server.close();
}
