/**
 * The seed's end-to-end example (Sophia Martin: change an order's address, update the default address,
 * exchange a tablet), played over stdio against the real server (`node dist/cli/main.js serve`) and the real
 * retail agent, through an SDK Client. Every answer is checked against the seed's texts and shapes, and every
 * node answer against the compiled SOP. Where the seed elides steps ("Agent proceeds through …"), the
 * shortest route through the compiled flowchart fills them in, so every move is legal. The path is tracked
 * here from the moves made (a node already on it rewinds it there, any other node is appended) and also
 * asserted literally where each task ends.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { PROJECT_ROOT } from '../helpers/fixture-process.js';
import { callTool, type Answer } from '../helpers/mcp-client.js';

const BUNDLE = join(PROJECT_ROOT, 'generated/sop-bundle.json');
const AGENT = 'retail_customer_support';

const TASK_1 = 'Change shipping address on pending order';
const TASK_2 = 'Update default user address';
const TASK_3 = 'Exchange tablet for cheapest option';
const NOTE = 'Use 456 Elm Ave from luggage order #W9834521';
const reminder = (node: string) => `Reached completion node ${node}. Update todos and proceed to next task.`;

describe('seed walkthrough over stdio (retail_customer_support)', () => {
  let client: Client;
  let sop: CompiledSop;
  /** The path the server should report: tracked here from the moves made (rewound on a node already on it). */
  let path: string[] = [];

  beforeAll(async () => {
    const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as SopBundle;
    expect(bundle.agents[AGENT], `${AGENT} is not in generated/sop-bundle.json`).toBeDefined();
    sop = bundle.agents[AGENT]!;
    client = new Client({ name: 'seed-walkthrough', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(PROJECT_ROOT, 'dist/cli/main.js'), 'serve'],
        cwd: PROJECT_ROOT,
        stderr: 'pipe',
      }),
    );
    await client.listTools();
  });
  afterAll(() => client?.close());

  /** One legal move: checks validity, the path, and the node and edges against the compiled SOP. */
  async function go(id: string): Promise<Answer> {
    const { answer, isError } = await callTool(client, 'goto_node', { node_id: id });
    expect(isError, `goto_node(${id}): ${JSON.stringify(answer)}`).toBe(false);
    expect(answer.valid, `goto_node(${id}): ${JSON.stringify(answer)}`).toBe(true);
    const earlier = path.indexOf(id);
    path = earlier >= 0 ? path.slice(0, earlier + 1) : [...path, id];
    expect(answer.path).toEqual(path);
    const node = sop.nodes[id];
    expect(answer.node).toMatchObject({ id, type: node?.type, description: node?.description });
    // An edge decided by data says its condition (`when`), as the SOP's `conditions` hold it.
    const decided = sop.conditions?.[id] ?? {};
    expect(answer.edges).toEqual(
      (sop.edges[id] ?? []).map((edge) => {
        const when = Object.hasOwn(decided, edge.to) ? decided[edge.to]!.text : undefined;
        return when === undefined ? { to: edge.to, condition: edge.condition } : { to: edge.to, condition: edge.condition, when };
      }),
    );
    return answer;
  }

  /** The seed's elided steps: the shortest flowchart route from the current node to `target`, then `target`. */
  async function via(target: string): Promise<Answer> {
    const from = path.at(-1) as string;
    const previous = new Map<string, string>([[from, from]]);
    const queue = [from];
    while (queue.length > 0 && !previous.has(target)) {
      const node = queue.shift() as string;
      for (const edge of sop.edges[node] ?? []) {
        if (!previous.has(edge.to)) {
          previous.set(edge.to, node);
          queue.push(edge.to);
        }
      }
    }
    expect(previous.has(target), `no route from ${from} to ${target}`).toBe(true);
    const route: string[] = [];
    for (let node = target; node !== from; node = previous.get(node) as string) route.unshift(node);
    let answer: Answer = {};
    for (const id of route) answer = await go(id);
    return answer;
  }

  async function todo(todos: object[], summary: object): Promise<void> {
    expect(await callTool(client, 'todo', { todos })).toEqual({ isError: false, answer: { todos, summary } });
  }

  it('load_graph answers the seed shape for sops/retail_customer_support.md', async () => {
    const { answer, isError } = await callTool(client, 'load_graph', { sop_file: 'sops/retail_customer_support.md' });
    expect(isError, JSON.stringify(answer)).toBe(false);
    expect(answer).toMatchObject({
      agent: AGENT,
      version: '1.0',
      entry_node: 'START',
      model: { provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', temperature: 0.2, max_tokens: 1024 },
    });
    // The seed's four sections, in order; an SOP may add its own (spec: "not a closed list").
    const seedSections = ['Role', 'Global Rules', 'Domain Reference', 'SOP Flowchart'];
    expect(answer.system_prompt_sections.filter((section: string) => seedSections.includes(section))).toEqual(seedSections);
    // The repository's SOP names its example retail server over stdio; how it is started is not the model's business.
    expect(answer.mcp_servers).toEqual([{ name: 'retail-tools', command: 'node' }]);
    expect(answer.graph.node_count).toBe(sop.nodeIds.length);
    expect([...answer.graph.decision_nodes].sort()).toEqual([
      'IS_DELIVERED_E',
      'IS_DELIVERED_R',
      'IS_GC_OK',
      'IS_PENDING_C',
      'IS_PENDING_M',
      'MOD_TYPE',
      'ROUTE',
    ]);
    expect([...answer.graph.terminal_nodes].sort()).toEqual([
      'DENY_CANCEL',
      'DENY_EXCH',
      'DENY_MOD',
      'DENY_PAY',
      'DENY_RETURN',
      'END_CANCEL',
      'END_EXCH',
      'END_INFO',
      'END_MOD',
      'END_RETURN',
      'END_UADDR',
      'ESCALATE_HUMAN',
    ]);
    for (const id of [
      'AUTH',
      'INFO',
      'CHK_CANCEL',
      'COLLECT_CANCEL',
      'DO_CANCEL',
      'CHK_MOD',
      'COLLECT_MOD_ITEMS',
      'DO_MOD_ITEMS',
      'COLLECT_RETURN',
      'DO_RETURN',
      'COLLECT_EXCH',
      'DO_EXCH',
      'ESCALATE_HUMAN',
    ]) {
      expect(answer.graph.nodes_with_prompts).toContain(id);
    }
    expect(answer.system_prompt).toContain(sop.flowchart.trim());
  });

  it('phase 1: plans the three tasks', async () => {
    await todo(
      [
        { content: TASK_1, status: 'pending', completion_node: 'END_MOD' },
        { content: TASK_2, status: 'pending', completion_node: 'END_UADDR' },
        { content: TASK_3, status: 'pending', completion_node: 'END_EXCH' },
      ],
      { pending: 3, in_progress: 0, completed: 0 },
    );
  });

  it('phase 2: authenticates', async () => {
    const start = await go('START');
    expect(start.node).toEqual({ id: 'START', type: 'stadium', description: 'User contacts Agent' });
    expect(start.edges).toEqual([{ to: 'AUTH', condition: null }]);

    const auth = await go('AUTH');
    expect(auth.node).toMatchObject({
      description: 'Authenticate via email or name + zip',
      prompt: 'Authenticate the user via email OR name + zip code. Must verify even if user provides user_id directly.',
      tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
    });
    expect(auth.edges).toEqual([{ to: 'ROUTE', condition: null }]);
  });

  it('phase 3: changes the order address and is reminded at END_MOD', async () => {
    const route = await go('ROUTE');
    expect(route.node.type).toBe('rhombus');
    expect(route.edges.map((edge: { to: string }) => edge.to)).toEqual(
      expect.arrayContaining(['CHK_MOD', 'COLLECT_USER_ADDR', 'CHK_EXCH']),
    );

    const check = await go('CHK_MOD');
    expect(check.node).toMatchObject({ description: 'Check order status', tools: ['get_user_details', 'get_order_details'] });
    expect(check.edges).toEqual([{ to: 'IS_PENDING_M', condition: null }]);

    await todo(
      [
        { content: TASK_1, status: 'in_progress', completion_node: 'END_MOD' },
        { content: TASK_2, status: 'pending', completion_node: 'END_UADDR', note: NOTE },
        { content: TASK_3, status: 'pending', completion_node: 'END_EXCH' },
      ],
      { pending: 2, in_progress: 1, completed: 0 },
    );

    await via('COLLECT_MOD_ADDR');
    await go('DO_MOD_ADDR');
    const end = await go('END_MOD');
    expect(end).toEqual({
      node: { id: 'END_MOD', type: 'stadium', description: 'End / Restart' },
      edges: [],
      path,
      valid: true,
      todo_reminder: reminder('END_MOD'),
    });
    // The seed's own END_MOD answer shows exactly this path.
    expect(end.path).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_MOD', 'IS_PENDING_M', 'COLLECT_MOD_ADDR', 'DO_MOD_ADDR', 'END_MOD']);

    await todo(
      [
        { content: TASK_1, status: 'completed', completion_node: 'END_MOD' },
        { content: TASK_2, status: 'in_progress', completion_node: 'END_UADDR', note: NOTE },
        { content: TASK_3, status: 'pending', completion_node: 'END_EXCH' },
      ],
      { pending: 1, in_progress: 1, completed: 1 },
    );
  });

  it('phase 4: updates the default address through the ROUTE hub and is reminded at END_UADDR', async () => {
    // Re-entering the hub rewinds the path to it: the answer stays as small as for the first task.
    expect((await go('ROUTE')).path).toEqual(['START', 'AUTH', 'ROUTE']);

    const collect = await go('COLLECT_USER_ADDR');
    expect(collect.node).toMatchObject({
      description: 'Collect: user_id, new address',
      prompt: 'Collect:\n1. **user_id**\n2. **new default address**',
    });
    expect(collect.edges).toEqual([{ to: 'DO_USER_ADDR', condition: null }]);

    const end = await via('END_UADDR');
    expect(end.path).toEqual(['START', 'AUTH', 'ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR', 'END_UADDR']);
    expect(end.todo_reminder).toBe(reminder('END_UADDR'));

    await todo(
      [
        { content: TASK_1, status: 'completed', completion_node: 'END_MOD' },
        { content: TASK_2, status: 'completed', completion_node: 'END_UADDR' },
        { content: TASK_3, status: 'in_progress', completion_node: 'END_EXCH' },
      ],
      { pending: 0, in_progress: 1, completed: 2 },
    );
  });

  it('phase 5: exchanges the tablet, is reminded at END_EXCH, and closes every task', async () => {
    expect((await go('ROUTE')).path).toEqual(['START', 'AUTH', 'ROUTE']);
    const check = await go('CHK_EXCH');
    expect(check.node).toMatchObject({ description: 'Check order status', tools: ['get_user_details', 'get_order_details'] });
    expect(check.edges).toEqual([{ to: 'IS_DELIVERED_E', condition: null }]);

    const collect = await via('COLLECT_EXCH');
    expect(path.slice(-3)).toEqual(['CHK_EXCH', 'IS_DELIVERED_E', 'COLLECT_EXCH']);
    expect(collect.node).toMatchObject({
      description: 'Collect: order_id, all item exchanges',
      tools: ['get_product_details', 'get_user_details', 'calculate'],
    });
    expect(collect.node.prompt).toMatch(
      /^Collect ALL items to exchange at once:\n1\. \*\*order_id\*\*\n2\. \*\*list of item_id → new_item_id\*\*/,
    );
    expect(collect.node.prompt).toContain('- Remind user to confirm ALL items');
    expect(collect.node.prompt).toContain('- No new order needed');
    expect(collect.node.examples[0]).toEqual({
      user: 'I want to swap my tablet for a different one',
      agent: expect.stringMatching(/^Sure! Which variant would you like instead\?/),
    });
    expect(collect.edges).toEqual([{ to: 'DO_EXCH', condition: null }]);

    const end = await via('END_EXCH');
    expect(end.path).toEqual(['START', 'AUTH', 'ROUTE', 'CHK_EXCH', 'IS_DELIVERED_E', 'COLLECT_EXCH', 'DO_EXCH', 'END_EXCH']);
    expect(end.todo_reminder).toBe(reminder('END_EXCH'));

    await todo(
      [
        { content: TASK_1, status: 'completed', completion_node: 'END_MOD' },
        { content: TASK_2, status: 'completed', completion_node: 'END_UADDR' },
        { content: TASK_3, status: 'completed', completion_node: 'END_EXCH' },
      ],
      { pending: 0, in_progress: 0, completed: 3 },
    );
  });

  it('refuses the moves the seed forbids on the real agent, changing nothing', async () => {
    // Now at END_EXCH: a non-successor is refused with the successors, the entry node and the opened hub.
    const refused = await callTool(client, 'goto_node', { node_id: 'COLLECT_CANCEL' });
    expect(refused).toEqual({
      isError: false,
      answer: {
        valid: false,
        error: 'Cannot reach COLLECT_CANCEL from END_EXCH',
        current_node: 'END_EXCH',
        valid_next: ['START', 'ROUTE'],
      },
    });
    await go('START');
    // After a restart, ROUTE is closed again: authentication cannot be skipped.
    expect((await callTool(client, 'goto_node', { node_id: 'ROUTE' })).answer).toEqual({
      valid: false,
      error: 'Cannot reach ROUTE from START',
      current_node: 'START',
      valid_next: ['AUTH', 'START'],
    });
    await go('AUTH');
  });
});
