/**
 * The `inspect` tool over a real SDK client and a real run store: each view's answer, that views on a run are
 * committed and audited with the state unchanged, that views without a run need no load_graph, that wrong
 * arguments name the problem, and that a server lists only the views it enables.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INSPECT_VIEWS } from '../../../runtime/tools/inspect/inspect-view.js';
import { FIXTURE_ROOT, fixtureService, connectInMemory, type Connected } from '../helpers/mcp-client.js';

const SUPPORT_DESK_SOURCE = readFileSync(join(FIXTURE_ROOT, 'sops/support_desk.md'), 'utf8');

const open: Connected[] = [];
afterEach(async () => {
  for (const session of open.splice(0)) {
    await session.close();
    await session.service.close();
  }
});

async function connect(views: readonly (typeof INSPECT_VIEWS)[number][] = INSPECT_VIEWS): Promise<Connected> {
  const session = await connectInMemory({ service: fixtureService({ inspectViews: views }) });
  open.push(session);
  return session;
}

async function startedRun(session: Connected, moves: readonly string[]): Promise<string> {
  const runId = (await session.call('load_graph', { agent: 'support_desk' })).answer.run_id as string;
  for (const node of moves) expect((await session.call('goto_node', { node_id: node })).answer.valid, node).toBe(true);
  return runId;
}

describe('inspect where', () => {
  it('answers where the run stands without moving it, and the call is audited with the state unchanged', async () => {
    const session = await connect();
    const runId = await startedRun(session, ['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR']);
    await session.call('todo', {
      todos: [
        { content: 'Change the address', status: 'in_progress', completion_node: 'END_ADDR' },
        { content: 'Say hello', status: 'completed' },
      ],
    });
    const before = await session.service.store.read(runId, 0);

    const { answer, isError } = await session.call('inspect', {});
    expect(isError).toBe(false);
    expect(answer).toEqual({
      run_id: runId,
      agent: 'support_desk',
      current_node: {
        id: 'COLLECT_ADDR',
        type: 'rectangle',
        description: 'Collect: new address',
        prompt: 'Collect the new address and read it back.',
      },
      edges: [
        { to: 'DO_ADDR', condition: null },
        { to: 'ROUTE', condition: 'changes mind' },
      ],
      valid_next: ['DO_ADDR', 'ROUTE', 'START'],
      path: ['START', 'AUTH', 'ROUTE', 'COLLECT_ADDR'],
      open_todos: [{ content: 'Change the address', status: 'in_progress', completion_node: 'END_ADDR' }],
      step: 7,
    });

    const after = await session.service.store.read(runId, 0);
    if (before.status !== 'found' || after.status !== 'found') throw new Error('run not found');
    expect(after.run.state).toEqual(before.run.state);
    expect(after.run.version).toBe(before.run.version + 1);
    const last = (await session.service.store.audit(runId)).at(-1);
    expect(last).toMatchObject({ seq: 7, tool: 'inspect', outcome: 'ok', from: 'COLLECT_ADDR', to: 'COLLECT_ADDR', input: {} });
    // The run goes on exactly as if nobody had looked.
    expect((await session.call('goto_node', { node_id: 'DO_ADDR' })).answer.path).toEqual([
      'START',
      'AUTH',
      'ROUTE',
      'COLLECT_ADDR',
      'DO_ADDR',
    ]);
  });

  it('before the first move: no current node, only the entry node is legal', async () => {
    const session = await connect();
    const runId = await startedRun(session, []);
    expect((await session.call('inspect', { view: 'where', run_id: runId })).answer).toMatchObject({
      current_node: null,
      edges: [],
      valid_next: ['START'],
      path: [],
      step: 2,
    });
  });

  it('without a run, says to call load_graph first', async () => {
    const session = await connect();
    expect(await session.call('inspect', {})).toEqual({
      isError: true,
      answer: { error: expect.stringMatching(/^No run: call load_graph first/) },
    });
  });

  it("answers another principal's run exactly like an unknown one", async () => {
    const service = fixtureService({ inspectViews: ['where'] });
    const alice = await connectInMemory({ service, principal: 'alice', session: false });
    const bob = await connectInMemory({ service, principal: 'bob', session: false });
    try {
      const runId = (await alice.call('load_graph', { agent: 'support_desk' })).answer.run_id as string;
      const stolen = await bob.call('inspect', { run_id: runId });
      const unknown = await bob.call('inspect', { run_id: 'r_unknown' });
      expect(stolen.isError).toBe(true);
      expect(stolen.answer.error).toBe(unknown.answer.error.replace('r_unknown', runId));
    } finally {
      await alice.close();
      await bob.close();
      await service.close();
    }
  });
});

describe('inspect agents, nodes and search', () => {
  it('lists the compiled agents without a run', async () => {
    const session = await connect();
    const { answer } = await session.call('inspect', { view: 'agents' });
    expect(answer.agents.map((agent: { name: string }) => agent.name)).toEqual(['support_desk', 'tiny_flow']);
    expect(answer.agents[0]).toEqual({
      name: 'support_desk',
      description: 'Fixture agent for the runtime tests',
      version: '2.1',
      node_count: 12,
      entry_node: 'START',
      source_file: 'sops/support_desk.md',
      source_hash: 'sha256:e3003512286ff1a29ab10f5a637011fe9094fee0414bdb3dad7b7e427d387b6f',
    });
  });

  it('gives details of a batch of nodes in the order asked, with an entry of its own for an unknown id', async () => {
    const session = await connect();
    await startedRun(session, ['START']);
    const { answer } = await session.call('inspect', { view: 'nodes', ids: ['AUTH', 'is_eligible', 'END_ADDR'] });
    expect(answer.nodes).toEqual([
      {
        id: 'AUTH',
        type: 'rectangle',
        description: 'Verify identity',
        prompt: 'Verify the customer by email, or by name and zip code.',
        tools: ['find_customer'],
        examples: [{ user: "I'm jo@example.com", agent: 'Thanks, let me look you up.' }],
        edges: [
          { to: 'ROUTE', condition: null },
          { to: 'ESCALATE', condition: 'cannot verify' },
        ],
        decision: false,
        terminal: false,
      },
      { id: 'is_eligible', error: 'Node not found in support_desk', did_you_mean: 'IS_ELIGIBLE' },
      { id: 'END_ADDR', type: 'stadium', description: 'Address updated', edges: [], decision: false, terminal: true },
    ]);
  });

  it('scores a search over labels, ids, tools, prompts and examples, best first, ties in flowchart order', async () => {
    const session = await connect();
    await startedRun(session, []);
    const { answer } = await session.call('inspect', { view: 'search', query: 'refund' });
    // DO_REFUND: label 10 + id word 8 + tool refund_order 4 + prompt 3; DENY/END_REFUND: label 10 + id word 8;
    // CHK_REFUND: id word 8.
    expect(answer).toEqual({
      query: 'refund',
      results: [
        { id: 'DO_REFUND', type: 'rectangle', description: 'Issue refund', score: 25, matched: ['label', 'id', 'tools', 'prompt'] },
        { id: 'DENY_REFUND', type: 'stadium', description: 'Refund denied', score: 18, matched: ['label', 'id'] },
        { id: 'END_REFUND', type: 'stadium', description: 'Refund issued', score: 18, matched: ['label', 'id'] },
        { id: 'CHK_REFUND', type: 'rectangle', description: 'Check order', score: 8, matched: ['id'] },
      ],
    });
    const phrase = await session.call('inspect', { view: 'search', query: 'new address', max_results: 1 });
    // COLLECT_ADDR: both words in the label (10 + 10) and in the prompt (3 + 3), the whole phrase in the label (10).
    expect(phrase.answer.results).toEqual([
      { id: 'COLLECT_ADDR', type: 'rectangle', description: 'Collect: new address', score: 36, matched: ['label', 'prompt'] },
    ]);
    expect((await session.call('inspect', { view: 'search', query: 'START' })).answer.results[0]).toMatchObject({ id: 'START', score: 38 });
    expect((await session.call('inspect', { view: 'search', query: 'xyzzy' })).answer.results).toEqual([]);
  });
});

describe('inspect diagram', () => {
  it("answers the author's flowchart with the path and the current node marked", async () => {
    const session = await connect();
    const runId = await startedRun(session, ['START', 'AUTH', 'ROUTE']);
    const { answer } = await session.call('inspect', { view: 'diagram' });
    const flowchart = SUPPORT_DESK_SOURCE.split('```mermaid\n')[1]!.split('```')[0]!;
    expect(answer).toEqual({
      run_id: runId,
      agent: 'support_desk',
      current_node: 'ROUTE',
      path: ['START', 'AUTH', 'ROUTE'],
      mermaid: expect.any(String),
    });
    expect(answer.mermaid.startsWith(flowchart)).toBe(true);
    expect(answer.mermaid.slice(flowchart.length).split('\n')).toEqual([
      '%% sop-toolkit: what the run did (appended; the flowchart above is the author’s)',
      'classDef sop_visited fill:#dbeafe,stroke:#1d4ed8,stroke-width:2px',
      'class START,AUTH sop_visited',
      'classDef sop_current fill:#fde68a,stroke:#b45309,stroke-width:4px',
      'class ROUTE sop_current',
      '',
    ]);
  });
});

describe('inspect validate', () => {
  it('checks SOP markdown with the compiler and answers the standard validation result, without a run', async () => {
    const session = await connect();
    const good = await session.call('inspect', { view: 'validate', markdown: SUPPORT_DESK_SOURCE, file: 'sops/support_desk.md' });
    expect(good.isError).toBe(false);
    expect(good.answer).toMatchObject({
      status: 'pass',
      message: 'SOP validation passed',
      // An info, not a warning: the fixture declares a tool no node uses.
      details: [{ severity: 'info', code: 'SOP045', file: 'sops/support_desk.md', line: 15 }],
      metadata: { scope: 'sop:sops/support_desk.md', version: '1.0.0', agent: 'support_desk', execution_time: expect.any(Number) },
    });
    expect(good.answer.metadata.source_hash).toBe('sha256:e3003512286ff1a29ab10f5a637011fe9094fee0414bdb3dad7b7e427d387b6f');

    const broken = SUPPORT_DESK_SOURCE.replace('hubs: [ROUTE]', 'hubs: [ROUTES]');
    const { answer } = await session.call('inspect', { view: 'validate', markdown: broken });
    expect(answer.status).toBe('fail');
    const line = broken.split('\n').findIndex((text) => text.includes('ROUTES')) + 1;
    expect(answer.details).toContainEqual(
      expect.objectContaining({ severity: 'critical', file: 'sops/inline.md', line, remediation: expect.stringContaining('ROUTE') }),
    );
  });

  it('answers a file that is not a SOP at all with a failing result, not an error', async () => {
    const session = await connect();
    const { answer, isError } = await session.call('inspect', { view: 'validate', markdown: 'just some text\n' });
    expect(isError).toBe(false);
    expect(answer.status).toBe('fail');
    expect(answer.details[0]).toMatchObject({ severity: 'critical', line: expect.any(Number) });
  });
});

describe('inspect arguments', () => {
  it('names the problem: a missing field, a field of another view, an unknown view', async () => {
    const session = await connect();
    expect((await session.call('inspect', { view: 'nodes' })).answer.error).toBe(
      'Invalid arguments for inspect: ids: view nodes needs ids',
    );
    expect((await session.call('inspect', { view: 'where', query: 'x' })).answer.error).toBe(
      'Invalid arguments for inspect: query: query belongs to view search, not where',
    );
    expect((await session.call('inspect', { view: 'map' })).answer.error).toMatch(
      /^Invalid arguments for inspect: view: view must be one of where, agents, nodes, search, diagram, validate \(the views this server enables\)/,
    );
  });

  it('lists only the enabled views: by default where alone, and no tool at all for none', async () => {
    const lean = await connect(['where']);
    const tool = (await lean.client.listTools()).tools.find((listed) => listed.name === 'inspect');
    expect(tool?.inputSchema.properties).toEqual({ view: expect.objectContaining({ enum: ['where'] }), run_id: expect.any(Object) });
    expect(tool?.description).not.toContain('validate');
    expect((await lean.call('inspect', { view: 'validate', markdown: 'x' })).answer.error).toBe(
      'Invalid arguments for inspect: view: view must be one of where (the views this server enables); Unrecognized key: "markdown"',
    );
    const defaults = fixtureService();
    expect(defaults.tools().find((listed) => listed.name === 'inspect')?.inputSchema.properties).toHaveProperty('view.enum', ['where']);
    await defaults.close();
    expect(lean.client.getInstructions()).toContain('inspect shows where the run stands without moving it.');
    const none = await connect([]);
    expect((await none.client.listTools()).tools.map((listed) => listed.name)).toEqual(['load_graph', 'goto_node', 'todo']);
    expect(none.client.getInstructions()).not.toContain('inspect');
  });
});
