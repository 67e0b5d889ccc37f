/**
 * A third-party MCP server from npm upstream of the gateway: the reference knowledge-graph server
 * (`@modelcontextprotocol/server-memory`, built on the SDK's v1 line: a 2025-era server, which the gateway's
 * client reaches by falling back from its `server/discover` probe), started from node_modules as the fixture SOP
 * (`test/fixtures/gateway/knowledge_keeper.md`) names it. Reads at LOOKUP; writes only at RECORD, after the
 * confirmation step CONFIRM, one write per entry into it for a client that cannot be asked; the graph file shows
 * what was written.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiledFixture, type GatewayUnderTest, legacyClient, startGateway } from '../../support/gateway.js';

const dir = mkdtempSync(join(tmpdir(), 'sop-memory-'));
const graph = join(dir, 'graph.jsonl');
let gateway: GatewayUnderTest;
beforeAll(async () => {
  gateway = await startGateway({
    bundle: compiledFixture('test/fixtures/gateway/knowledge_keeper.md'),
    environment: { MEMORY_FILE_PATH: graph },
  });
});
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('offers the npm server tools, reached over its 2025-era protocol', () => {
  const upstream = gateway.domain.upstreams[0]!;
  expect(upstream.spec.name).toBe('memory');
  expect(upstream.status().state).toBe('up');
  expect(gateway.service.tools().map((tool) => tool.name)).toEqual(
    expect.arrayContaining(['read_graph', 'create_entities', 'add_observations']),
  );
});

it('reads at LOOKUP, refuses a write there, and writes once per pass of the confirmation step', async () => {
  const client = await legacyClient(gateway);
  await client.call('load_graph', { agent: 'knowledge_keeper' });
  await client.call('goto_node', { node_id: 'START' });
  await client.call('goto_node', { node_id: 'LOOKUP' });
  expect((await client.call('read_graph', {})).isError).toBe(false);
  const entity = { name: 'Sophia Martin', entityType: 'customer', observations: ['prefers email'] };
  const early = await client.call('create_entities', { entities: [entity] });
  expect(early.answer).toMatchObject({ refused_by: 'node-tools', offered_at: ['RECORD'] });
  expect(existsSync(graph) ? readFileSync(graph, 'utf8') : '').not.toContain('Sophia Martin');
  for (const node_id of ['DECIDE', 'CONFIRM', 'RECORD']) expect((await client.call('goto_node', { node_id })).answer.valid).toBe(true);
  const written = await client.call('create_entities', { entities: [entity] });
  expect(written.isError, written.text).toBe(false);
  expect(readFileSync(graph, 'utf8')).toContain('"name":"Sophia Martin"');
  const second = await client.call('add_observations', { observations: [{ entityName: 'Sophia Martin', contents: ['owns a tablet'] }] });
  expect(second.answer).toMatchObject({ refused_by: 'confirmation', policy: 'confirm_before_writing' });
  expect(readFileSync(graph, 'utf8')).not.toContain('owns a tablet');
  await client.close();
});
