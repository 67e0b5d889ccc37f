/**
 * A Vercel AI SDK agent on a compiled SOP. `createMCPClient` starts `sop serve` (or reaches SOP_URL over HTTP) and
 * `client.tools()` turns its tools into AI SDK tools for `generateText`. When the gateway asks before a change
 * (elicitation), the question goes to the person at the terminal.
 *
 *   npm start -- "Where is my order #1042?"     with AI_GATEWAY_API_KEY (SOP_MODEL, default openai/gpt-5-mini)
 *   npm start                                   without it: lists the tools and plays the first moves itself
 */
import { createInterface } from 'node:readline/promises';
import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { generateText, isStepCount } from 'ai';
import { AGENT, INSTRUCTIONS, SOP_URL, sopServeCommand } from './sop-server.js';

const client = await createMCPClient({
  transport: SOP_URL === undefined ? new StdioMCPTransport(sopServeCommand()) : { type: 'http', url: SOP_URL },
  capabilities: { elicitation: {} },
});
client.onElicitationRequest(ElicitationRequestSchema, async (request) => {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await terminal.question(`${request.params.message} [y/N] `);
  terminal.close();
  return { action: 'accept', content: { confirm: /^y(es)?$/i.test(answer.trim()) } };
});

try {
  const tools = await client.tools();
  console.log(`tools: ${Object.keys(tools).join(', ')}`);
  if (process.env['AI_GATEWAY_API_KEY'] === undefined) {
    // No model: play the model's first calls through the same tools generateText would run.
    const call = async (name: string, input: Record<string, unknown>) => {
      const output = await tools[name]!.execute!(input, { toolCallId: name, messages: [], context: {} });
      return output as { structuredContent?: Record<string, unknown> };
    };
    const loaded = (await call('load_graph', { agent: AGENT })).structuredContent as { run_id: string; entry_node: string };
    console.log(`load_graph: run ${loaded.run_id}, entry node ${loaded.entry_node}`);
    const moved = await call('goto_node', { node_id: loaded.entry_node, run_id: loaded.run_id });
    console.log(`goto_node ${loaded.entry_node}: ${JSON.stringify(moved.structuredContent)}`);
    console.log('Set AI_GATEWAY_API_KEY to run the agent on a message.');
  } else {
    const { text } = await generateText({
      model: process.env['SOP_MODEL'] ?? 'openai/gpt-5-mini',
      system: INSTRUCTIONS,
      tools,
      stopWhen: isStepCount(30),
      prompt: process.argv[2] ?? 'Hi, where is my order #1042?',
    });
    console.log(text);
  }
} finally {
  await client.close();
}
