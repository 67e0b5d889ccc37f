import { describe, expect, it } from 'vitest';
import { prepareAgent } from '../../../runtime/agents/prepared-agent.js';
import { EMPTY_SESSION } from '../../../runtime/session/session-state.js';
import { loadGraph } from '../../../runtime/tools/load-graph.js';
import { SUPPORT_DESK, TINY_FLOW } from '../../fixtures/runtime/agents.js';

describe('load_graph answers', () => {
  it('are made once per agent: one frozen answer, its JSON text, and one fresh session, shared by every conversation', () => {
    const agent = prepareAgent(SUPPORT_DESK);
    const first = loadGraph(agent, EMPTY_SESSION, { agent: 'support_desk' });
    const second = loadGraph(agent, { ...EMPTY_SESSION, agent: 'tiny_flow', path: ['BEGIN'] }, { sop_file: 'sops/support_desk.md' });
    expect(second.answer).toBe(first.answer);
    expect(second.session).toBe(first.session);
    expect(first.session).toEqual({ ...EMPTY_SESSION, agent: 'support_desk' });
    expect(first.text).toBe(JSON.stringify(first.answer));
    expect(Object.isFrozen(first.answer)).toBe(true);
    expect(Object.isFrozen((first.answer as { graph: object }).graph)).toBe(true);
    expect(Object.isFrozen(first.session)).toBe(true);
  });

  it('never freeze the compiled module they copy from', () => {
    const model = { name: 'm', extra: { nested: true } };
    const server = { name: 's', args: ['a'] };
    const sop = { ...TINY_FLOW, meta: { ...TINY_FLOW.meta, model, mcpServers: [server] } };
    const { answer } = loadGraph(prepareAgent(sop), EMPTY_SESSION, { agent: 'tiny_flow' });
    expect(answer).toMatchObject({ model: { extra: { nested: true } }, mcp_servers: [{ name: 's', args: ['a'] }] });
    for (const part of [sop.meta, model, model.extra, server, server.args, sop.meta.mcpServers]) expect(Object.isFrozen(part)).toBe(false);
  });
});
