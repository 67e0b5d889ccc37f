import { describe, expect, it } from 'vitest';
import { catalogFor } from '../../../runtime/agents/agent-catalog.js';
import { createSopServer } from '../../../runtime/index.js';
import { indexEntry, SUPPORT_DESK, TINY_FLOW } from '../../fixtures/runtime/agents.js';
import { connectInMemory, FIXTURE_ROOT } from '../helpers/mcp-client.js';

describe('agent catalog', () => {
  it('loads no agent module at start-up, nor to list prompts and resources', async () => {
    const loads = { count: 0 };
    const agents = [indexEntry(SUPPORT_DESK, loads), indexEntry(TINY_FLOW, loads)];
    createSopServer({ agents, projectRoot: FIXTURE_ROOT });
    const session = await connectInMemory({ agents });
    await session.client.listPrompts();
    await session.client.listResources();
    expect(loads.count).toBe(0);
    await session.close();
  });

  it('loads an agent once per process, however many sessions select it', async () => {
    const loads = { count: 0 };
    const agents = [indexEntry(SUPPORT_DESK, loads)];
    const first = await connectInMemory({ agents });
    const second = await connectInMemory({ agents });
    await first.call('load_graph', { agent: 'support_desk' });
    await second.call('load_graph', { agent: 'support_desk' });
    await first.call('goto_node', { node_id: 'START' });
    expect(loads.count).toBe(1);
    await first.close();
    await second.close();
  });

  it('hands out a loaded agent without waiting, and only once it is loaded', async () => {
    const entry = indexEntry(SUPPORT_DESK);
    const catalog = catalogFor([entry]);
    expect(catalog.loaded(entry)).toBeUndefined();
    const loading = catalog.load(entry);
    expect(catalog.loaded(entry)).toBeUndefined();
    const agent = await loading;
    expect(catalog.loaded(entry)).toBe(agent);
  });

  it('retries a load that failed', async () => {
    let attempts = 0;
    const flaky = {
      ...indexEntry(SUPPORT_DESK),
      load: async () => (++attempts === 1 ? Promise.reject(new Error('disk hiccup')) : SUPPORT_DESK),
    };
    const catalog = catalogFor([flaky]);
    await expect(catalog.load(flaky)).rejects.toThrow('disk hiccup');
    await expect(catalog.load(flaky)).resolves.toMatchObject({ name: 'support_desk' });
  });

  it('refuses a registry that lists an agent twice', () => {
    expect(() => catalogFor([indexEntry(SUPPORT_DESK), { ...indexEntry(TINY_FLOW), agent: 'support_desk' }])).toThrow(
      'Agent registry lists support_desk twice.',
    );
  });

  it('sorts entries by agent name', () => {
    expect(catalogFor([indexEntry(TINY_FLOW), indexEntry(SUPPORT_DESK)]).entries.map((entry) => entry.agent)).toEqual([
      'support_desk',
      'tiny_flow',
    ]);
  });
});
