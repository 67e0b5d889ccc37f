import { describe, expect, it } from 'vitest';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE } from '../../../runtime/store/run-store.js';
import { loadGraph } from '../../../runtime/tools/load-graph.js';
import { SUPPORT_DESK, TINY_FLOW } from '../../fixtures/runtime/agents.js';

describe('load_graph answers', () => {
  it('describe the agent once per prepared agent, and put each run id in front of it', () => {
    const agent = prepareAgent(SUPPORT_DESK);
    const first = loadGraph(agent, 'run_a');
    const second = loadGraph(agent, 'run_b');
    expect(first.answer).toMatchObject({ run_id: 'run_a', agent: 'support_desk', entry_node: 'START' });
    expect(second.answer).toMatchObject({ run_id: 'run_b', agent: 'support_desk' });
    expect(first.text).toBe(JSON.stringify(first.answer));
    expect(second.text).toBe(JSON.stringify(second.answer));
    expect(first.state).toBe(EMPTY_RUN_STATE);
    expect(Object.isFrozen(agent.description.answer)).toBe(true);
    expect(Object.isFrozen((agent.description.answer as { graph: object }).graph)).toBe(true);
  });

  it('never freeze the compiled data they copy from', () => {
    const model = { name: 'm', extra: { nested: true } };
    const server = { name: 's', command: 'node', args: ['a'], env: { TOKEN: '${TOKEN}' } };
    const sop = { ...TINY_FLOW, meta: { ...TINY_FLOW.meta, model, mcpServers: [server] } };
    const { answer } = loadGraph(prepareAgent(sop), 'run_x');
    // How a server is reached is the gateway's business: the model sees its name and address only.
    expect(answer).toMatchObject({ model: { extra: { nested: true } }, mcp_servers: [{ name: 's', command: 'node' }] });
    expect(answer.mcp_servers[0]).not.toHaveProperty('env');
    for (const part of [sop.meta, model, model.extra, server, server.args, sop.meta.mcpServers]) expect(Object.isFrozen(part)).toBe(false);
  });
});
