import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_BUNDLE, SUPPORT_DESK } from '../../fixtures/runtime/agents.js';
import { type Connected, connectInMemory, FIXTURE_ROOT, fixtureService } from '../helpers/mcp-client.js';

const DESK_ANSWER = {
  run_id: expect.stringMatching(/^run_[A-Za-z0-9_-]{22}$/),
  agent: 'support_desk',
  version: '2.1',
  entry_node: 'START',
  model: { provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', temperature: 0.2, max_tokens: 1024 },
  mcp_servers: [{ name: 'desk-tools', url: 'https://mcp.example.com/desk' }],
  graph: {
    node_count: 12,
    decision_nodes: ['ROUTE', 'IS_ELIGIBLE'],
    terminal_nodes: ['ESCALATE', 'DENY_REFUND', 'END_REFUND', 'END_ADDR'],
    nodes_with_prompts: ['AUTH', 'ESCALATE', 'CHK_REFUND', 'DO_REFUND', 'COLLECT_ADDR'],
  },
  system_prompt_sections: ['Role', 'Global Rules', 'SOP Flowchart'],
  system_prompt: SUPPORT_DESK.systemPrompt,
};

let open: Connected[] = [];
async function connect(...args: Parameters<typeof connectInMemory>): Promise<Connected> {
  const session = await connectInMemory(...args);
  open.push(session);
  return session;
}
afterEach(async () => {
  await Promise.all(open.map((session) => session.close()));
  open = [];
});

async function moves(session: Connected, ids: readonly string[]): Promise<void> {
  for (const id of ids) expect((await session.call('goto_node', { node_id: id })).answer.valid, id).toBe(true);
}

describe('load_graph', () => {
  it.each([{ agent: 'support_desk' }, { sop_file: 'sops/support_desk.md' }])(
    'answers the seed shape plus the system prompt for %o',
    async (args) => {
      const session = await connect();
      expect(await session.call('load_graph', args)).toEqual({ isError: false, answer: DESK_ANSWER });
    },
  );

  it('answers model null and no servers for an agent without them', async () => {
    const session = await connect();
    const { answer } = await session.call('load_graph', { agent: 'tiny_flow' });
    expect(answer).toMatchObject({
      agent: 'tiny_flow',
      entry_node: 'BEGIN',
      model: null,
      mcp_servers: [],
      graph: { nodes_with_prompts: [] },
    });
  });

  it("starts a new run each time, with an empty path and todo list, and makes it the session's current run", async () => {
    const session = await connect();
    await session.call('load_graph', { agent: 'support_desk' });
    await session.call('todo', { todos: [{ content: 'Refund', status: 'in_progress', completion_node: 'END_REFUND' }] });
    await moves(session, ['START', 'AUTH', 'ROUTE']);
    await session.call('load_graph', { agent: 'support_desk' });
    expect((await session.call('goto_node', { node_id: 'CHK_REFUND' })).answer).toMatchObject({
      valid: false,
      current_node: null,
      valid_next: ['START'],
    });
    await moves(session, ['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE', 'DO_REFUND']);
    expect((await session.call('goto_node', { node_id: 'END_REFUND' })).answer).not.toHaveProperty('todo_reminder');
  });

  it.each([
    [{ agent: 'nobody' }, 'Unknown agent: nobody. Compiled agents: [support_desk, tiny_flow]. A new SOP needs `npm run build:sops`.'],
    [{ sop_file: 'sops/nobody.md' }, 'sops/nobody.md is not a compiled SOP of this project. Run `npm run build:sops`'],
    [
      { sop_file: 'https://example.com/retail.md' },
      'sop_file must be a path inside this project, not a URL: https://example.com/retail.md.',
    ],
    [{ sop_file: '../../../../etc/passwd' }, 'sop_file ../../../../etc/passwd is outside the project'],
    [{ sop_file: 'sops/tiny_flow.md' }, 'sops/tiny_flow.md was compiled but no longer exists'],
  ])('refuses %o clearly and keeps the current run', async (args, message) => {
    const session = await connect();
    await session.call('load_graph', { agent: 'support_desk' });
    await moves(session, ['START', 'AUTH']);
    const refused = await session.call('load_graph', args);
    expect(refused.isError).toBe(true);
    expect(refused.answer.error).toContain(message);
    // Same agent, same place: the refused call changed nothing.
    expect((await session.call('goto_node', { node_id: 'ROUTE' })).answer).toMatchObject({ valid: true, path: ['START', 'AUTH', 'ROUTE'] });
  });

  it('refuses a SOP edited since the build', async () => {
    const project = mkdtempSync(join(tmpdir(), 'sop-stale-'));
    try {
      cpSync(FIXTURE_ROOT, project, { recursive: true });
      writeFileSync(join(project, 'sops/support_desk.md'), 'edited\n', { flag: 'a' });
      const session = await connect({ service: fixtureService({ projectRoot: project }) });
      const refused = await session.call('load_graph', { sop_file: 'sops/support_desk.md' });
      expect(refused).toMatchObject({
        isError: true,
        answer: { error: expect.stringContaining('sops/support_desk.md changed since it was compiled') },
      });
      expect(refused.answer.error).toContain('npm run build:sops');
      // The agent itself is still served by name: the stale check is about the file the caller named.
      expect((await session.call('load_graph', { agent: 'support_desk' })).isError).toBe(false);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('reports an inconsistent bundle entry, and is still usable afterwards', async () => {
    const broken = {
      ...SUPPORT_DESK,
      meta: { ...SUPPORT_DESK.meta, agent: 'broken' },
      sourceFile: 'sops/broken.md',
      transitions: { ...SUPPORT_DESK.transitions, entry: 'NOWHERE' },
    };
    const session = await connect({
      service: fixtureService({ bundle: { ...FIXTURE_BUNDLE, agents: { ...FIXTURE_BUNDLE.agents, broken } } }),
    });
    expect(await session.call('load_graph', { agent: 'broken' })).toEqual({
      isError: true,
      answer: {
        error:
          'Could not load the compiled agent broken: Compiled agent broken is inconsistent: entry node NOWHERE is not a node. Run `npm run build:sops` to regenerate it.',
      },
    });
    expect((await session.call('load_graph', { agent: 'tiny_flow' })).isError).toBe(false);
  });
});

describe('todo through the server', () => {
  it('needs load_graph first', async () => {
    const session = await connect();
    const refused = await session.call('todo', { todos: [] });
    expect(refused).toMatchObject({ isError: true, answer: { error: expect.stringMatching(/^No run: call load_graph first/) } });
  });

  it('keeps the previous list when a write is rejected', async () => {
    const session = await connect();
    await session.call('load_graph', { agent: 'support_desk' });
    await session.call('todo', { todos: [{ content: 'Address', status: 'in_progress', completion_node: 'END_ADDR' }] });
    for (const bad of [
      { todos: [{ content: 'Address', status: 'completed', completion_node: 'ROUTE' }] },
      { todos: [{ content: 'x'.repeat(501), status: 'completed' }] },
      { todos: Array.from({ length: 51 }, () => ({ content: 'x', status: 'pending' })) },
    ]) {
      expect((await session.call('todo', bad)).isError).toBe(true);
    }
    // The reminder still comes from the list written before the rejected writes.
    await moves(session, ['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR']);
    expect((await session.call('goto_node', { node_id: 'END_ADDR' })).answer.todo_reminder).toBe(
      'Reached completion node END_ADDR. Update todos and proceed to next task.',
    );
  });
});

describe('goto_node through the server', () => {
  it('needs load_graph first', async () => {
    const session = await connect();
    expect(await session.call('goto_node', { node_id: 'START' })).toMatchObject({
      isError: true,
      answer: { error: expect.stringMatching(/^No run: call load_graph first/) },
    });
  });

  it('answers an illegal move as a normal result and an unknown node as an error, both changing nothing', async () => {
    const session = await connect();
    await session.call('load_graph', { agent: 'support_desk' });
    await moves(session, ['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE']);
    expect(await session.call('goto_node', { node_id: 'DO_ADDR' })).toEqual({
      isError: false,
      answer: {
        valid: false,
        error: 'Cannot reach DO_ADDR from IS_ELIGIBLE',
        current_node: 'IS_ELIGIBLE',
        valid_next: ['DENY_REFUND', 'DO_REFUND', 'START', 'ROUTE'],
      },
    });
    const unknown = await session.call('goto_node', { node_id: 'END_EXCH' });
    expect(unknown).toMatchObject({
      isError: true,
      answer: { valid: false, error: expect.stringMatching(/^Node not found: END_EXCH\. Valid nodes: \[START, AUTH, ROUTE, /) },
    });
    expect((await session.call('goto_node', { node_id: 'DO_REFUND' })).answer.path).toEqual([
      'START',
      'AUTH',
      'ROUTE',
      'CHK_REFUND',
      'IS_ELIGIBLE',
      'DO_REFUND',
    ]);
  });

  it('serialises the calls of one conversation: pipelined moves apply in order', async () => {
    const session = await connect();
    await session.call('load_graph', { agent: 'support_desk' });
    const route = [
      'START',
      'AUTH',
      'ROUTE',
      'COLLECT_ADDR',
      'ROUTE',
      'CHK_REFUND',
      'IS_ELIGIBLE',
      'DO_REFUND',
      'END_REFUND',
      'ROUTE',
      'COLLECT_ADDR',
      'DO_ADDR',
      'END_ADDR',
    ];
    const answers = await Promise.all(route.map((id) => session.call('goto_node', { node_id: id })));
    expect(answers.map((call) => call.answer.valid)).toEqual(route.map(() => true));
    // Each answer's path reflects every move before it, in order: ROUTE rewinds, the rest append.
    expect(answers[4]?.answer.path).toEqual(['START', 'AUTH', 'ROUTE']);
    expect(answers[8]?.answer.path).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_ELIGIBLE', 'DO_REFUND', 'END_REFUND']);
    expect(answers.at(-1)?.answer.path).toEqual(['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR', 'DO_ADDR', 'END_ADDR']);
  });
});

describe('conversation state', () => {
  it('is separate per session, even on one service and store', async () => {
    const service = fixtureService();
    const first = await connect({ service });
    const second = await connect({ service });
    await first.call('load_graph', { agent: 'support_desk' });
    await moves(first, ['START', 'AUTH']);
    expect(await second.call('goto_node', { node_id: 'START' })).toMatchObject({ isError: true });
    await second.call('load_graph', { agent: 'tiny_flow' });
    await moves(second, ['BEGIN']);
    expect((await first.call('goto_node', { node_id: 'ROUTE' })).answer.path).toEqual(['START', 'AUTH', 'ROUTE']);
    await service.close();
  });
});
