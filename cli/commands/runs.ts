/**
 * `sop runs list` and `sop runs show RUN` (and `sop runs migrate`, `runs-migrate.ts`): what the runs in a store are doing, and one run's audit log (every
 * tool call: when, which tool, its input, the outcome, from → to, how long). Reads any store (`--store URL`,
 * default the same SQLite file `sop serve --http` writes), so an operator can look at a live server's runs
 * from another shell: SQLite in WAL mode lets this read while the server writes. Reading never creates a
 * store: a missing SQLite file is reported, not made.
 *
 * Text for people (times in UTC, ISO 8601; inputs shortened; control characters escaped, since inputs come
 * from a model), `--format json` for scripts (everything, times in ms since the epoch).
 *
 * Exit codes: 0 shown; 1 no such store or run, or the store cannot be opened; 2 bad usage.
 */
import { existsSync } from 'node:fs';
import { QUALIFIER, type StackFrame, stackOf } from '../../contract/composition.js';
import { type ForkProgress, forksOnPath } from '../../contract/transitions.js';
import { forkViews } from '../../runtime/page/fork-view.js';
import type { ForkView } from '../../runtime/page/run-shapes.js';
import {
  DEFAULT_DURABLE_STORE,
  describeStoreLocation,
  openRunStore,
  parseStoreUrl,
  STORE_FORMS,
} from '../../runtime/store/open-run-store.js';
import {
  type AuditEntry,
  domainDetailOf,
  pinnedVersion,
  type RunStore,
  type RunSummary,
  type StoredRun,
} from '../../runtime/store/run-store.js';
import { oneOf, parseCommandArgs, showUsage, usageError, wholeNumber } from '../command-args.js';
import { findProjectRoot } from '../project-root.js';

const USAGE = `Usage: sop runs list [--principal P] [--limit N] [--store URL] [--format text|json]
       sop runs show RUN [--store URL] [--format text|json]
       sop runs migrate --agent A [--to HASH] [--dry-run] [--store URL]   (sop runs migrate --help)
       sop runs report [--agent A] [--since WHEN] [--store URL] [--format text|json]   (sop runs report --help)
  list         runs, most recently active first: run, principal, agent, calls, current node, last activity
  show RUN     one run and its audit log: seq, time, tool, outcome, what decided a domain call (gateway mode),
               from → to, duration, input
  --store URL  ${STORE_FORMS}
               (default ${DEFAULT_DURABLE_STORE} under the app root, as sop serve --http)
  --principal  only this principal's runs     --limit N  at most N runs (default 50, at most 500)
`;

type Format = 'text' | 'json';

export type RunsArgs =
  | { readonly mode: 'list'; readonly store: string; readonly format: Format; readonly principal?: string; readonly limit?: number }
  | { readonly mode: 'show'; readonly store: string; readonly format: Format; readonly runId: string }
  | { readonly mode: 'help' }
  | { readonly mode: 'error'; readonly message: string };

const COMMAND = { name: 'runs', usage: USAGE };

export function parseRunsArgs(args: readonly string[]): RunsArgs {
  const parsed = parseCommandArgs(args, {
    allowPositionals: true,
    options: {
      store: { type: 'string' },
      principal: { type: 'string' },
      limit: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (parsed === 'help') return { mode: 'help' };
  if ('problem' in parsed) return { mode: 'error', message: parsed.problem };
  const { values, positionals } = parsed;
  const chosen = oneOf('--format', values.format, ['text', 'json'], 'text');
  if ('problem' in chosen) return { mode: 'error', message: chosen.problem };
  const format = chosen.value;
  const store = values.store ?? DEFAULT_DURABLE_STORE;
  const [command, ...rest] = positionals;
  if (command === 'list') {
    if (rest.length > 0) return { mode: 'error', message: `list takes no arguments, got ${rest.join(' ')}` };
    const limit = values.limit === undefined ? undefined : wholeNumber(values.limit, 1, 500);
    if (limit === undefined && values.limit !== undefined) {
      return { mode: 'error', message: `--limit needs a number from 1 to 500, got ${values.limit}` };
    }
    return {
      mode: 'list',
      store,
      format,
      ...(values.principal === undefined ? {} : { principal: values.principal }),
      ...(limit === undefined ? {} : { limit }),
    };
  }
  if (command === 'show') {
    if (values.principal !== undefined || values.limit !== undefined)
      return { mode: 'error', message: '--principal and --limit apply to list only' };
    const [runId, ...extra] = rest;
    if (runId === undefined || extra.length > 0) return { mode: 'error', message: 'show takes one run id' };
    return { mode: 'show', store, format, runId };
  }
  return { mode: 'error', message: command === undefined ? 'choose list or show' : `unknown runs command '${command}'` };
}

export async function runRuns(args: readonly string[]): Promise<number> {
  if (args[0] === 'migrate') return (await import('./runs-migrate.js')).runMigrate(args.slice(1));
  if (args[0] === 'report') return (await import('./runs-report.js')).runReport(args.slice(1));
  const parsed = parseRunsArgs(args);
  if (parsed.mode === 'help') return showUsage(COMMAND);
  if (parsed.mode === 'error') return usageError(COMMAND, parsed.message);
  const root = findProjectRoot(process.cwd());
  const location = parseStoreUrl(parsed.store, root);
  if (!location.ok) return fail(location.error);
  const where = describeStoreLocation(location.location);
  if (location.location.kind === 'sqlite' && !existsSync(location.location.path)) {
    return fail(`no run store at ${location.location.path} (sop serve --http creates it with its first run; or pass --store URL)`);
  }
  const opened = await openRunStore(parsed.store, { root });
  if (!opened.ok) return fail(opened.error);
  try {
    return parsed.mode === 'list' ? await list(opened.store, where, parsed) : await show(opened.store, where, parsed);
  } finally {
    await opened.store.close();
  }
}

async function list(store: RunStore, where: string, args: Extract<RunsArgs, { mode: 'list' }>): Promise<number> {
  const runs = await store.list({
    ...(args.principal === undefined ? {} : { principal: args.principal }),
    ...(args.limit === undefined ? {} : { limit: args.limit }),
  });
  if (args.format === 'json') {
    process.stdout.write(`${JSON.stringify({ store: where, runs }, null, 2)}\n`);
    return 0;
  }
  if (runs.length === 0) {
    process.stdout.write(`no runs in ${where}\n`);
    return 0;
  }
  const header = ['RUN', 'PRINCIPAL', 'AGENT', 'CALLS', 'NODE', 'LAST ACTIVITY'];
  const rows = runs.map((run: RunSummary) => [
    run.runId,
    run.principal,
    run.agent,
    String(run.version),
    run.currentNode ?? '-',
    isoTime(run.updatedAt),
  ]);
  process.stdout.write(table(header, rows));
  return 0;
}

async function show(store: RunStore, where: string, args: Extract<RunsArgs, { mode: 'show' }>): Promise<number> {
  // 0: a run reads as found however long it has been idle; only a sweep removes it.
  const read = await store.read(args.runId, 0);
  if (read.status !== 'found') return fail(`no run ${args.runId} in ${where}`);
  const audit = await wholeAudit(store, args.runId);
  const stack = await stackOfRun(store, read.run);
  const forks = await forksOfRun(store, read.run);
  if (args.format === 'json') {
    const extra = { ...(stack === undefined ? {} : { stack }), ...(forks === undefined ? {} : { forks }) };
    process.stdout.write(`${JSON.stringify({ store: where, run: read.run, ...extra, audit }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${describeRun(read.run, stack, forks)}\n${auditTable(audit)}`);
  return 0;
}

/**
 * The forks on the run's path (each branch passed, failed or open; the join's strategy and outcome), read with the SOP
 * version the run is pinned to, as the runs page shows them; undefined when the run is in no fork. Without that version
 * in the store only the records are known: the branches done, not those still open.
 */
async function forksOfRun(store: RunStore, run: StoredRun): Promise<readonly ForkView[] | readonly ForkProgress[] | undefined> {
  const records = forksOnPath(run.state.forks ?? [], run.state.path);
  if (records.length === 0) return undefined;
  const sop = await store.getAgentVersion(pinnedVersion(run));
  return sop?.transitions.forks === undefined ? records : forkViews(sop.transitions.forks, records, run.state.path);
}

function describeForks(forks: readonly ForkView[] | readonly ForkProgress[]): string[] {
  return forks.map((fork) => {
    if (!('join' in fork)) {
      const done = fork.done.map((branch) => `${branch.branch} ${branch.outcome}`).join(', ');
      return `${fork.fork}: ${done === '' ? 'no branch done' : done}; the open branches are not known (the store lacks the SOP version)`;
    }
    const branches = fork.branches.map((branch) => `${branch.branch} ${branch.state}`).join(', ');
    const join = fork.outcome === null ? 'not entered yet' : fork.outcome;
    return `${fork.fork} → ${fork.join} (${fork.strategy}): ${branches}; join ${join}`;
  });
}

/**
 * Inside a sub-flow, the call stack of the run's current node (outermost first), read with the SOP version the run
 * is pinned to, which the store keeps; undefined outside a call, or when the store does not have that version.
 */
async function stackOfRun(store: RunStore, run: StoredRun): Promise<StackFrame[] | undefined> {
  const current = run.state.path.at(-1);
  if (current === undefined || !current.includes(QUALIFIER)) return undefined;
  const sop = await store.getAgentVersion(pinnedVersion(run));
  return sop?.calls === undefined ? undefined : stackOf(sop, current);
}

async function wholeAudit(store: RunStore, runId: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (;;) {
    const page = await store.audit(runId, { afterSeq: entries.at(-1)?.seq ?? 0 });
    entries.push(...page);
    if (page.length === 0) return entries;
  }
}

function describeRun(
  run: StoredRun,
  stack: readonly StackFrame[] | undefined,
  forks: readonly ForkView[] | readonly ForkProgress[] | undefined,
): string {
  const facts: [string, string][] = [
    ['run', run.runId],
    ['principal', run.principal],
    ['agent', `${run.agent} (${pinnedVersion(run)}${run.state.pinned === undefined ? '' : `, moved from ${run.sourceHash}`})`],
    ['calls', String(run.version)],
    ['path', run.state.path.length === 0 ? '-' : run.state.path.join(' → ')],
    ...(stack === undefined ? [] : [['stack', stack.map((frame) => `${frame.agent} ${frame.node}`).join(' › ')] as [string, string]]),
    ...(forks === undefined ? [] : describeForks(forks).map((line, index) => [index === 0 ? 'forks' : '', line] as [string, string])),
    ['todos', run.state.todos.length === 0 ? '-' : run.state.todos.map((todo) => `[${todo.status}] ${todo.content}`).join('; ')],
    ['started', isoTime(run.createdAt)],
    ['last call', isoTime(run.updatedAt)],
  ];
  const width = Math.max(...facts.map(([name]) => name.length));
  return facts.map(([name, value]) => `${name.padEnd(width)}  ${printable(value)}\n`).join('');
}

const INPUT_WIDTH = 80;

function auditTable(audit: readonly AuditEntry[]): string {
  const header = ['SEQ', 'TIME', 'TOOL', 'OUTCOME', 'DECIDED BY', 'FROM → TO', 'DURATION', 'INPUT'];
  const rows = audit.map((entry, index) => {
    const input = entry.input === undefined ? '-' : JSON.stringify(entry.input);
    const shown = input.length > INPUT_WIDTH ? `${input.slice(0, INPUT_WIDTH - 1)}…` : input;
    return [
      String(entry.seq),
      isoTime(entry.at),
      entry.tool,
      outcomeOf(entry, audit.slice(index + 1)),
      decidedBy(entry),
      `${entry.from ?? '-'} → ${entry.to ?? '-'}`,
      `${entry.durationMs.toFixed(1)} ms`,
      shown,
    ];
  });
  return table(header, rows);
}

/** The outcome, and for a domain call sent on that no later entry answers: the process died before it knew. */
function outcomeOf(entry: AuditEntry, later: readonly AuditEntry[]): string {
  const text = entry.error === undefined ? entry.outcome : `${entry.outcome}: ${entry.error}`;
  if (domainDetailOf(entry)?.phase !== 'forwarding') return text;
  const answered = later.some((next) => next.tool === entry.tool && domainDetailOf(next)?.phase === 'answered');
  return answered ? 'pending: sent' : 'pending: sent, no outcome recorded (unknown: the gateway stopped before the answer)';
}

/** For a domain call (gateway mode): its server, the rule that decided, the user's confirmation and the server's time. */
function decidedBy(entry: AuditEntry): string {
  const detail = entry.detail;
  if (detail === undefined) return '-';
  if (detail.kind === 'move') return detail.would === undefined ? (detail.rule ?? '-') : `would refuse: ${detail.would.rule}`;
  if (detail.kind === 'start') return 'gateway';
  const rule = detail.policy === undefined ? detail.rule : `${detail.rule} (${detail.policy})`;
  const parts = [detail.server, rule];
  if (detail.would !== undefined) parts.push(`would ${detail.would.decision === 'ask' ? 'ask the user' : `refuse: ${detail.would.rule}`}`);
  if (detail.confirmation !== undefined) parts.push(`confirmation: ${detail.confirmation}`);
  if (detail.upstreamMs !== undefined) parts.push(`${detail.upstreamMs.toFixed(1)} ms upstream`);
  if (detail.reached !== undefined && detail.reached !== 'yes') parts.push(`reached: ${detail.reached}`);
  return parts.join(', ');
}

/** Columns padded to their widest cell; the last one is not padded. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(printable));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => [...(row[column] ?? '')].length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - [...cell].length)))
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}

/** Control characters (a terminal would act on them) shown as escapes. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function fail(message: string): number {
  process.stderr.write(`sop runs: ${message}\n`);
  return 1;
}
