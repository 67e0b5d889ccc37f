/**
 * What the agent-framework tests share: how a framework's stdio client starts `sop serve` (plain, or as the gateway
 * to the example retail server over a database file of its own), a `sop serve --gateway --http` process with its
 * own run store, the seed walk of moves for the plain server (no domain tools there), and the checks that read what
 * the walkthrough changed (the retail database) and how each domain call was decided (`sop runs show`).
 * Nothing here touches the checkout's own `.sop/`: runs live in memory or in a temp folder.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SEED_DB } from '../support/gateway.js';
import type { PlayCall, WalkthroughResult } from '../support/gateway-walkthrough.js';
import { CLI, PROJECT_ROOT, runCli } from '../support/run-cli.js';
import { type ServeProcess, startServe } from '../support/serve-process.js';

export const RETAIL = 'retail_customer_support';
/** The toolkit's own tools, as every framework lists them on the plain server. */
export const SOP_TOOLS = ['load_graph', 'goto_node', 'todo', 'inspect'];
/** The example retail server's tools, which the gateway offers after the toolkit's. */
export const RETAIL_TOOLS = [
  'find_user_id_by_email',
  'find_user_id_by_name_zip',
  'get_user_details',
  'get_order_details',
  'get_product_details',
  'list_all_product_types',
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
  'exchange_delivered_order_items',
  'calculate',
  'transfer_to_human_agents',
];
const GATEWAY_ARGS = ['--gateway', '--agents', RETAIL];
const seed = JSON.parse(readFileSync(SEED_DB, 'utf8'));

/** A temp folder for one test file: the retail databases and run stores it makes. */
export function scratchFolder(): { readonly dir: string; database(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sop-frameworks-'));
  return {
    dir,
    database(name) {
      const file = join(dir, `${name}.json`);
      copyFileSync(SEED_DB, file);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The environment a framework passes to the stdio server it starts (strings only, as every client takes it). */
export function serverEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return { ...env, ...extra };
}

/** `sop serve` on stdio, as an app's MCP configuration names it: runs in memory. */
export function plainStdio(): { command: string; args: string[]; cwd: string } {
  return { command: process.execPath, args: [CLI, 'serve'], cwd: PROJECT_ROOT };
}

/** `sop serve --gateway` on stdio, its retail server writing `database`. */
export function gatewayStdio(database: string): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [CLI, 'serve', ...GATEWAY_ARGS],
    cwd: PROJECT_ROOT,
    env: serverEnvironment({ RETAIL_TOOLS_DB: database }),
  };
}

export interface HttpGateway {
  readonly url: string;
  readonly database: string;
  readonly store: string;
  readonly process: ServeProcess;
  stop(): Promise<void>;
}

/** `sop serve --gateway --http` on a free port, runs in a SQLite file of the scratch folder. */
export async function startHttpGateway(scratch: ReturnType<typeof scratchFolder>, name: string): Promise<HttpGateway> {
  const database = scratch.database(name);
  const store = `sqlite:${join(scratch.dir, `${name}-runs.db`)}`;
  const served = await startServe([...GATEWAY_ARGS, '--store', store], PROJECT_ROOT, { RETAIL_TOOLS_DB: database });
  return { url: served.url, database, store, process: served, stop: () => served.stop() };
}

/** The changes the seed walkthrough makes, checked on the database the retail server wrote, and nothing else. */
export function expectWalkthroughChanges(database: string, result: WalkthroughResult): void {
  const db = JSON.parse(readFileSync(database, 'utf8'));
  expect(db.orders[result.pendingOrder].address).toEqual(result.address);
  expect(db.users.sophia_martin_4832.address).toEqual(result.address);
  expect(db.orders[result.tabletOrder]).toMatchObject({ status: 'exchange requested' });
  const changed = Object.keys(db.orders).filter((id) => JSON.stringify(db.orders[id]) !== JSON.stringify(seed.orders[id]));
  expect(changed.sort()).toEqual([result.pendingOrder, result.tabletOrder].sort());
}

/** The database is still the seed: nothing was changed. */
export function expectUnchanged(database: string): void {
  expect(JSON.parse(readFileSync(database, 'utf8'))).toEqual(seed);
}

export interface AuditEntry {
  readonly tool: string;
  readonly outcome: string;
  readonly detail?: { readonly phase?: string; readonly rule?: string; readonly confirmation?: string };
}

/** A run's audit log, as `sop runs show --format json` prints it from the gateway's store. */
export function auditOf(store: string, runId: string): AuditEntry[] {
  const shown = runCli(['runs', 'show', runId, '--store', store, '--format', 'json'], PROJECT_ROOT);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout).audit as AuditEntry[];
}

/** How each of the walkthrough's three changes was confirmed: `step` (the SOP's confirmation step) or `asked`. */
export function confirmationsOf(audit: readonly AuditEntry[]): (string | undefined)[] {
  return audit
    .filter((entry) => entry.detail?.phase === 'answered' && entry.detail.rule === 'confirmation')
    .map((entry) => entry.detail?.confirmation);
}

const TASKS = [
  { content: 'Change shipping address on pending order', completion_node: 'END_MOD' },
  { content: 'Update default user address', completion_node: 'END_UADDR' },
  { content: 'Exchange tablet for cheapest option', completion_node: 'END_EXCH' },
] as const;

const TASK_MOVES: readonly (readonly string[])[] = [
  ['ROUTE', 'CHK_MOD', 'IS_PENDING_M', 'COLLECT_MOD_ADDR', 'DO_MOD_ADDR', 'END_MOD'],
  ['ROUTE', 'COLLECT_USER_ADDR', 'DO_USER_ADDR', 'END_UADDR'],
  ['ROUTE', 'CHK_EXCH', 'IS_DELIVERED_E', 'COLLECT_EXCH', 'DO_EXCH', 'END_EXCH'],
];

/**
 * The seed's three tasks as moves on the plain server (the domain calls happen elsewhere): the todo plan, every
 * `goto_node` move, the reminder at each task's completion node, the plan updated after it, and `inspect` at the
 * end. Every answer is checked; returns the run id and the final path.
 */
export async function playSeedMoves(call: PlayCall, options: { readonly passRunId: boolean }): Promise<{ runId: string; path: string[] }> {
  const loaded = await call('load_graph', { agent: RETAIL });
  expect(loaded.isError, loaded.text).toBe(false);
  const runId = loaded.answer.run_id as string;
  expect(runId).toMatch(/^run_/);
  const run = options.passRunId ? { run_id: runId } : {};
  const plan = async (done: number) => {
    const todos = TASKS.map((task, index) => ({
      ...task,
      status: index < done ? 'completed' : index === done ? 'in_progress' : 'pending',
    }));
    const written = await call('todo', { todos, ...run });
    expect(written.isError, written.text).toBe(false);
    expect(written.answer.summary).toEqual({
      pending: Math.max(0, TASKS.length - done - 1),
      in_progress: done < TASKS.length ? 1 : 0,
      completed: done,
    });
  };
  const go = async (node_id: string) => {
    const moved = await call('goto_node', { node_id, ...run });
    expect(moved.isError, moved.text).toBe(false);
    expect(moved.answer.valid, `goto_node ${node_id}: ${moved.text}`).toBe(true);
    return moved.answer;
  };
  await plan(0);
  await go('START');
  await go('AUTH');
  let last: any;
  for (const [index, moves] of TASK_MOVES.entries()) {
    for (const node of moves) last = await go(node);
    expect(last.todo_reminder).toBe(`Reached completion node ${moves.at(-1)}. Update todos and proceed to next task.`);
    await plan(index + 1);
  }
  const where = await call('inspect', { ...run });
  expect(where.isError, where.text).toBe(false);
  expect(where.text).toContain('END_EXCH');
  return { runId, path: last.path as string[] };
}
