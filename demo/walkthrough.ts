/**
 * `npm run demo`: plays the seed's end-to-end example (Sophia Martin: change an order's address, update the
 * default address, exchange a tablet) against the real server, spawned over stdio as `node dist/cli/main.js
 * serve`, through a real MCP SDK Client (v2, speaking the 2026-07-28 revision), and prints a readable transcript: every call and its answer.
 *
 * Where the seed elides steps ("Agent proceeds through COLLECT_MOD_ADDR → DO_MOD_ADDR"), the demo takes the
 * shortest route through the compiled flowchart, so every move is legal. The path in each answer is how the
 * agent got there from START: going back to ROUTE for the next task rewinds it to [START, AUTH, ROUTE], so
 * answers stay the same size however long the conversation runs; the demo checks the paths where each task
 * ends (END_MOD's is the seed's). Exit code 0 when every call answered as the seed says, 1 otherwise (so the
 * demo doubles as a smoke test), 2 when there is nothing to run.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { findProjectRoot } from '../cli/project-root.js';
import type { CompiledSop } from '../contract/compiled-sop.js';
import { readBundle } from '../contract/read-bundle.js';

const AGENT = 'retail_customer_support';
const TASK_1 = 'Change shipping address on pending order';
const TASK_2 = 'Update default user address';
const TASK_3 = 'Exchange tablet for cheapest option';
const NOTE = 'Use 456 Elm Ave from luggage order #W9834521';

type Answer = Record<string, unknown> & { path?: string[]; valid?: boolean; todo_reminder?: string };

class Walkthrough {
  private path: string[] = [];
  failures = 0;

  constructor(
    private readonly client: Client,
    private readonly sop: CompiledSop,
  ) {}

  phase(title: string): void {
    process.stdout.write(`\n━━ ${title} ━━\n`);
  }

  say(who: string, text: string): void {
    process.stdout.write(`\n${who}: ${text}\n`);
  }

  async call(name: string, args: Record<string, unknown>): Promise<Answer> {
    process.stdout.write(`\n→ ${name} ${JSON.stringify(args)}\n`);
    const result = await this.client.callTool({ name, arguments: args });
    const answer = (result.structuredContent ?? {}) as Answer;
    process.stdout.write(`← ${display(answer).replace(/\n/g, '\n  ')}\n`);
    if (result.isError === true || answer.valid === false) {
      this.failures += 1;
      process.stdout.write('  ✗ unexpected refusal\n');
    }
    return answer;
  }

  async go(id: string): Promise<Answer> {
    const answer = await this.call('goto_node', { node_id: id });
    this.path = answer.path ?? this.path;
    return answer;
  }

  /** The steps the seed leaves out: the shortest flowchart route to `target`, then `target`. */
  async via(target: string): Promise<Answer> {
    const from = this.path.at(-1) ?? this.sop.transitions.entry;
    const previous = new Map<string, string>([[from, from]]);
    const queue = [from];
    while (queue.length > 0 && !previous.has(target)) {
      const node = queue.shift() as string;
      for (const edge of this.sop.edges[node] ?? []) {
        if (!previous.has(edge.to)) {
          previous.set(edge.to, node);
          queue.push(edge.to);
        }
      }
    }
    const route: string[] = [];
    for (let node = target; node !== from && previous.has(node); node = previous.get(node) as string) route.unshift(node);
    if (route.at(-1) !== target) route.push(target); // no route: let the server explain the refusal
    let answer: Answer = {};
    for (const id of route) answer = await this.go(id);
    return answer;
  }

  expectPath(answer: Answer, path: readonly string[]): void {
    if (JSON.stringify(answer.path) !== JSON.stringify(path)) {
      this.failures += 1;
      process.stdout.write(`  ✗ expected the path [${path.join(', ')}]\n`);
    }
  }

  expectReminder(answer: Answer, node: string): void {
    if (answer.todo_reminder !== `Reached completion node ${node}. Update todos and proceed to next task.`) {
      this.failures += 1;
      process.stdout.write(`  ✗ expected a todo_reminder for ${node}\n`);
    }
  }
}

/** Pretty JSON for reading: lists of plain values on one line, the long system prompt shortened. */
function display(answer: Answer): string {
  const shown =
    typeof answer.system_prompt === 'string'
      ? { ...answer, system_prompt: `${answer.system_prompt.slice(0, 60)}… (${answer.system_prompt.length} characters)` }
      : answer;
  return JSON.stringify(shown, null, 2).replace(
    /\[\n\s*((?:"[^"\n]*"|[\d.]+|true|false|null)(?:,\n\s*(?:"[^"\n]*"|[\d.]+|true|false|null))*)\n\s*\]/g,
    (_all, items: string) => `[${items.replace(/,\n\s*/g, ', ')}]`,
  );
}

async function play(w: Walkthrough): Promise<void> {
  w.say(
    'User',
    'Hi, I need to change the address on one of my orders, update my default address, and also exchange my tablet for a cheaper one.',
  );
  w.phase('Setup');
  await w.call('load_graph', { sop_file: `sops/${AGENT}.md` });

  w.phase('Phase 1: Planning');
  await w.call('todo', {
    todos: [
      { content: TASK_1, status: 'pending', completion_node: 'END_MOD' },
      { content: TASK_2, status: 'pending', completion_node: 'END_UADDR' },
      { content: TASK_3, status: 'pending', completion_node: 'END_EXCH' },
    ],
  });
  w.say('Agent', "I can help with all three. Let me start by verifying your identity, then we'll work through each one.");

  w.phase('Phase 2: Authentication');
  await w.go('START');
  await w.go('AUTH');
  w.say('(agent)', 'asks for the email; the user gives sophia.martin4832@example.com; the agent calls find_user_id_by_email');

  w.phase('Phase 3: Task 1, change the order address');
  await w.go('ROUTE');
  await w.go('CHK_MOD');
  w.say('(agent)', 'looks up the orders; the user wants the address of the luggage order, which get_order_details finds');
  await w.call('todo', {
    todos: [
      { content: TASK_1, status: 'in_progress', completion_node: 'END_MOD' },
      { content: TASK_2, status: 'pending', completion_node: 'END_UADDR', note: NOTE },
      { content: TASK_3, status: 'pending', completion_node: 'END_EXCH' },
    ],
  });
  await w.via('COLLECT_MOD_ADDR');
  await w.go('DO_MOD_ADDR');
  const endMod = await w.go('END_MOD');
  w.expectReminder(endMod, 'END_MOD');
  w.expectPath(endMod, ['START', 'AUTH', 'ROUTE', 'CHK_MOD', 'IS_PENDING_M', 'COLLECT_MOD_ADDR', 'DO_MOD_ADDR', 'END_MOD']);
  await w.call('todo', {
    todos: [
      { content: TASK_1, status: 'completed', completion_node: 'END_MOD' },
      { content: TASK_2, status: 'in_progress', completion_node: 'END_UADDR', note: NOTE },
      { content: TASK_3, status: 'pending', completion_node: 'END_EXCH' },
    ],
  });

  w.phase('Phase 4: Task 2, update the default address');
  w.expectPath(await w.go('ROUTE'), ['START', 'AUTH', 'ROUTE']);
  w.say('(server)', 'ROUTE is already on the path, so the path rewinds to it instead of growing');
  await w.go('COLLECT_USER_ADDR');
  w.say('(agent)', 'reads the note on task 2: it already has the address, and does not ask again');
  const endUaddr = await w.via('END_UADDR');
  w.expectReminder(endUaddr, 'END_UADDR');
  w.expectPath(endUaddr, ['START', 'AUTH', 'ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR', 'END_UADDR']);
  await w.call('todo', {
    todos: [
      { content: TASK_1, status: 'completed', completion_node: 'END_MOD' },
      { content: TASK_2, status: 'completed', completion_node: 'END_UADDR' },
      { content: TASK_3, status: 'in_progress', completion_node: 'END_EXCH' },
    ],
  });

  w.phase('Phase 5: Task 3, exchange the tablet');
  w.expectPath(await w.go('ROUTE'), ['START', 'AUTH', 'ROUTE']);
  await w.go('CHK_EXCH');
  w.say('(agent)', 'finds the tablet order and checks that it was delivered');
  await w.via('COLLECT_EXCH');
  w.say('(agent)', 'finds the cheapest tablet variant with get_product_details, prices it with calculate, confirms with the user');
  const endExch = await w.via('END_EXCH');
  w.expectReminder(endExch, 'END_EXCH');
  w.expectPath(endExch, ['START', 'AUTH', 'ROUTE', 'CHK_EXCH', 'IS_DELIVERED_E', 'COLLECT_EXCH', 'DO_EXCH', 'END_EXCH']);
  await w.call('todo', {
    todos: [
      { content: TASK_1, status: 'completed', completion_node: 'END_MOD' },
      { content: TASK_2, status: 'completed', completion_node: 'END_UADDR' },
      { content: TASK_3, status: 'completed', completion_node: 'END_EXCH' },
    ],
  });
  w.say('Agent', 'All done: the order ships to 456 Elm Ave, your default address is updated, and the tablet exchange is requested.');
}

async function main(): Promise<number> {
  const root = findProjectRoot(fileURLToPath(new URL('.', import.meta.url)));
  const read = readBundle(join(root, 'generated/sop-bundle.json'));
  if (!read.ok) {
    process.stderr.write(`demo: ${read.error}\n`);
    return 2;
  }
  const sop = read.bundle.agents[AGENT];
  if (sop === undefined) {
    process.stderr.write(`demo: ${AGENT} is not compiled (sops/${AGENT}.md). Run \`npm run build:sops\`.\n`);
    return 2;
  }
  // The current protocol revision (2026-07-28: no handshake, every request self-contained); the server serves
  // 2025-era clients on the same pipe too.
  const client = new Client({ name: 'sop-demo', version: '0.1.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(root, 'dist/cli/main.js'), 'serve'], cwd: root, stderr: 'inherit' }),
  );
  const walkthrough = new Walkthrough(client, sop);
  try {
    await play(walkthrough);
  } finally {
    await client.close();
  }
  process.stdout.write(walkthrough.failures === 0 ? '\n✓ walkthrough complete\n' : `\n✗ ${walkthrough.failures} unexpected answer(s)\n`);
  return walkthrough.failures === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
