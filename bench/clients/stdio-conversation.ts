/**
 * One conversation with `sop serve` over stdio through the SDK client, as the latency rows drive it: connect,
 * `load_graph` the agent, record a valid tour of its flowchart from the server's own answers (`walk.ts`), then
 * replay the tour forever with `move()`. The replay's calls are the raw SDK calls (no parsing on our side), so
 * the client costs the same per call as against any other server.
 */
import type { ToolAnswer } from './sdk-stdio.js';
import { connectStdio, type StdioConnection } from './sdk-stdio.js';
import { cycle, recordWalk } from '../walk.js';

export interface StdioConversation {
  readonly connection: StdioConnection;
  /** The recorded tour, from the entry node. */
  readonly walk: readonly string[];
  /** The server's answers while recording, in order. */
  readonly answers: readonly ToolAnswer[];
  /** The next `goto_node` of the tour (wrapping around: the entry node is always a legal move). */
  move(): Promise<unknown>;
  close(): Promise<void>;
}

export async function startStdioConversation(
  args: readonly string[],
  options: { readonly cwd: string; readonly agent: string; readonly steps: number; readonly signal: AbortSignal },
): Promise<StdioConversation> {
  const connection = await connectStdio(args, options.cwd, options.signal);
  try {
    const loaded = await connection.call('load_graph', { agent: options.agent });
    if (loaded.isError) throw new Error(`load_graph(${options.agent}) failed: ${loaded.text.slice(0, 300)}`);
    const answers: ToolAnswer[] = [];
    const walk = await recordWalk(
      async (id) => {
        const answer = await connection.call('goto_node', { node_id: id });
        answers.push(answer);
        return answer;
      },
      String(loaded.data.entry_node ?? 'START'),
      options.steps,
    );
    const next = cycle(walk);
    return {
      connection,
      walk,
      answers,
      move: () => connection.client.callTool({ name: 'goto_node', arguments: { node_id: next() } }),
      close: () => connection.close(),
    };
  } catch (error) {
    await connection.close().catch(() => {});
    throw error;
  }
}
