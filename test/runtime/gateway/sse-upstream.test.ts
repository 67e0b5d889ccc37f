/**
 * A domain server on the legacy HTTP+SSE transport (2024-11-05: a GET event stream, POSTs to the endpoint it names),
 * which many servers still serve: the SDK's v1 `SSEServerTransport` upstream of the gateway, named by a url ending in
 * `/sse`, and by `transport: sse` on another path. Its tools are listed and called through the run like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, type CompiledSop, type SopBundle } from '../../../contract/compiled-sop.js';
import { compiledFixture, legacyClient, startGateway } from '../../support/gateway.js';
import { type ScriptedServer, startScriptedServer } from '../../support/scripted-server.js';

const keeper = compiledFixture('test/fixtures/gateway/knowledge_keeper.md').agents.knowledge_keeper!;
let memory: ScriptedServer;
beforeAll(async () => {
  memory = await startScriptedServer(keeper.tools, 0, 'sse');
  memory.answers.set('read-1', { text: '{"entities":[],"relations":[]}', structuredContent: { entities: [], relations: [] } });
});
afterAll(async () => {
  await memory?.close();
});

describe('a legacy HTTP+SSE domain server', () => {
  it.each([
    ['a url ending in /sse', (url: string) => ({ name: 'memory-sse', url })],
    ['transport: sse on another path', (url: string) => ({ name: 'memory-sse', url: `${url}?via=events`, transport: 'sse' as const })],
  ])('is reached by %s: its tools listed, a read sent through the run', async (_, server) => {
    const sop: CompiledSop = { ...keeper, meta: { ...keeper.meta, mcpServers: [server(memory.url)] } };
    const bundle: SopBundle = { format: BUNDLE_FORMAT, agents: { knowledge_keeper: sop } };
    const gateway = await startGateway({ bundle });
    try {
      const upstream = gateway.domain.upstreams[0]!;
      expect(upstream.status().state).toBe('up');
      expect(gateway.service.tools().find((tool) => tool.name === 'read_graph')?.description).toBe(
        "read_graph, answered from the test's script",
      );
      const client = await legacyClient(gateway);
      await client.call('load_graph', { agent: 'knowledge_keeper' });
      for (const node_id of ['START', 'LOOKUP']) await client.call('goto_node', { node_id });
      const read = await client.call('read_graph', { call: 'read-1' });
      expect(read.isError, read.text).toBe(false);
      expect(read.answer).toEqual({ entities: [], relations: [] });
      expect(memory.received.at(-1)).toEqual({ tool: 'read_graph', args: { call: 'read-1' } });
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});
