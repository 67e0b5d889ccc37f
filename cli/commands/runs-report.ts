/**
 * `sop runs report [--agent A] [--since WHEN] [--store URL] [--format text|json]`: the page to read before switching
 * the gateway from `--observe` to enforcing. Over the runs of a store (one agent's, those active since WHEN), what
 * enforcement would have held back in observe mode, and what it did hold back when enforcing, summed per node and
 * rule with example runs (`analysis/rollout/would-refuse.ts`); and the runs that never moved, judged along the
 * walk that best explains their calls (`judged-walks.ts`). `sop runs show RUN` shows one of them whole.
 *
 * Exit codes: 0 reported (a rule that fires is a finding, not a failure); 1 the store cannot be read; 2 bad usage.
 */
import { existsSync } from 'node:fs';
import { type JudgedWalks, judgeUnmovedRuns, neverMoved } from '../../analysis/rollout/judged-walks.js';
import { type RolloutReport, rolloutReport } from '../../analysis/rollout/would-refuse.js';
import {
  DEFAULT_DURABLE_STORE,
  describeStoreLocation,
  openRunStore,
  parseStoreUrl,
  STORE_FORMS,
} from '../../runtime/store/open-run-store.js';
import type { AuditEntry, RunStore, StoredRun } from '../../runtime/store/run-store.js';
import { oneOf, readCommandArgs, usageError } from '../command-args.js';
import { readProjectBundle } from '../project-bundle.js';
import { findProjectRoot } from '../project-root.js';

const USAGE = `Usage: sop runs report [--agent A] [--since WHEN] [--store URL] [--format text|json]
  What the gateway would have held back in observe mode (sop serve --gateway --observe), and what it held back when
  enforcing, per node and rule, with example runs: read it before switching to enforcement. Runs that never moved
  (an agent that calls its tools and never goto_node) are judged as sop replay would, along the walk that best
  explains their calls, against the project's compiled SOPs.
  --agent A     only this agent's runs
  --since WHEN  only runs active since WHEN: an ISO date or time (2026-11-20, 2026-11-20T09:00Z) or a duration ago
                (30m, 12h, 7d)
  --store URL   ${STORE_FORMS}
                (default ${DEFAULT_DURABLE_STORE} under the app root, as sop serve --http)
`;

const COMMAND = { name: 'runs report', usage: USAGE };

/** Runs read per page of the store's list (its maximum). */
const PAGE = 500;

export async function runReport(args: readonly string[], now = Date.now()): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    options: {
      agent: { type: 'string' },
      since: { type: 'string' },
      store: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length > 0) return usageError(COMMAND, `report takes no arguments, got ${positionals.join(' ')}`);
  const chosen = oneOf('--format', values.format, ['text', 'json'], 'text');
  if ('problem' in chosen) return usageError(COMMAND, chosen.problem);
  const since = values.since === undefined ? undefined : sinceOf(values.since, now);
  if (since !== undefined && 'problem' in since) return usageError(COMMAND, since.problem);
  const root = findProjectRoot(process.cwd());
  const url = values.store ?? DEFAULT_DURABLE_STORE;
  const location = parseStoreUrl(url, root);
  if (!location.ok) return fail(location.error);
  if (location.location.kind === 'sqlite' && !existsSync(location.location.path)) {
    return fail(`no run store at ${location.location.path} (sop serve --http creates it with its first run; or pass --store URL)`);
  }
  const opened = await openRunStore(url, { root });
  if (!opened.ok) return fail(`cannot open the run store ${describeStoreLocation(location.location)}: ${opened.error}`);
  const store: RunStore = opened.store;
  try {
    const runs = await readRuns(store, values.agent, since?.at);
    const report = rolloutReport(runs);
    const unmoved = judgeUnmoved(runs);
    const json = { ...report, ...(unmoved === undefined ? {} : { never_moved: unmoved }) };
    process.stdout.write(
      chosen.value === 'json'
        ? `${JSON.stringify(json, null, 2)}\n`
        : renderReport(report, values.agent, since?.at) + renderUnmoved(unmoved),
    );
    return 0;
  } catch (error) {
    return fail(`reading the runs failed: ${(error as Error).message}`);
  } finally {
    await store.close();
  }
}

/** Every run of the store (of `agent`, active since `since`) with its audit log, most recently active first. */
async function readRuns(
  store: RunStore,
  agent: string | undefined,
  since: number | undefined,
): Promise<{ readonly run: StoredRun; readonly audit: readonly AuditEntry[] }[]> {
  const out: { run: StoredRun; audit: readonly AuditEntry[] }[] = [];
  let before: { at: number; runId: string } | undefined;
  for (;;) {
    const page = await store.list({ limit: PAGE, ...(before === undefined ? {} : { before: before.at, beforeRunId: before.runId }) });
    for (const summary of page) {
      if (since !== undefined && summary.updatedAt < since) return out;
      if (agent !== undefined && summary.agent !== agent) continue;
      const read = await store.read(summary.runId, 0);
      if (read.status !== 'found') continue;
      out.push({ run: read.run, audit: await store.audit(summary.runId, { limit: 100_000 }) });
    }
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return out;
    before = { at: last.updatedAt, runId: last.runId };
  }
}

function renderReport(report: RolloutReport, agent: string | undefined, since: number | undefined): string {
  const scope = `${report.runs} run${report.runs === 1 ? '' : 's'}${agent === undefined ? '' : ` of ${agent}`}${
    since === undefined ? '' : ` active since ${new Date(since).toISOString()}`
  }, ${report.calls} calls and moves`;
  if (report.rows.length === 0) return `${scope}: nothing the gateway held back, or would have.\n`;
  const lines = [`${scope}; what the gateway held back (did) or would have (would), most first:`, ''];
  for (const row of report.rows) {
    const what = row.decision === 'ask' ? 'would ask the user first' : `${row.mode === 'would' ? 'would refuse' : 'refused'}`;
    lines.push(
      `${row.agent}  ${row.node ?? '(before the first move)'}  ${row.what}  ${row.rule}${row.policy === undefined ? '' : ` (${row.policy})`}: ` +
        `${what} ${row.count} time${row.count === 1 ? '' : 's'} in ${row.runs} run${row.runs === 1 ? '' : 's'}`,
    );
    for (const example of row.examples) {
      lines.push(`    ${example.runId} seq ${example.seq} ${example.tool}: ${shorten(example.reason)}`);
    }
  }
  lines.push('', 'sop runs show RUN prints a run whole.', '');
  return lines.join('\n');
}

/**
 * The runs that never moved, replayed along the walk that best explains their calls; undefined when there are none.
 * The SOPs come from the project's compiled bundle (a run whose agent it lacks is skipped, and said so).
 */
function judgeUnmoved(
  runs: readonly { readonly run: StoredRun; readonly audit: readonly AuditEntry[] }[],
): JudgedWalks | { readonly error: string } | undefined {
  const unmoved = runs.filter(({ audit }) => neverMoved(audit) && audit.some((entry) => entry.tool !== 'load_graph'));
  if (unmoved.length === 0) return undefined;
  const project = readProjectBundle(process.cwd(), undefined);
  if (!project.ok) return { error: `the project's compiled SOPs cannot be read, so they are not judged: ${project.error}` };
  return judgeUnmovedRuns(project.bundle, unmoved);
}

function renderUnmoved(judged: JudgedWalks | { readonly error: string } | undefined): string {
  if (judged === undefined) return '';
  if ('error' in judged) return `\nRuns that never moved (no goto_node): ${judged.error}\n`;
  const lines = [
    '',
    `${judged.runs} run${judged.runs === 1 ? '' : 's'} never moved (the agent calls its tools and never goto_node): enforcing would ` +
      'refuse every call of them (no-position) until the agent navigates. Judged along the walk that best explains their ' +
      `calls, as sop replay does, ${judged.clean} follow${judged.clean === 1 ? 's' : ''} the SOP; where the others leave it, most first:`,
    '',
  ];
  for (const row of judged.rows) {
    lines.push(
      `${row.agent}  ${row.node ?? '(the run as a whole)'}  ${row.rule}${row.policy === undefined ? '' : ` (${row.policy})`}: ` +
        `${row.count} time${row.count === 1 ? '' : 's'} in ${row.runs} run${row.runs === 1 ? '' : 's'}`,
    );
    for (const example of row.examples) {
      lines.push(`    ${example.runId}${example.step === null ? '' : ` step ${example.step}`}: ${shorten(example.reason)}`);
    }
  }
  for (const skip of judged.skipped) lines.push(`    not judged: ${skip.runId}: ${shorten(skip.why)}`);
  lines.push('', 'sop runs show RUN --format json > run.json && sop replay run.json judges one of them whole.', '');
  return lines.join('\n');
}

/** `--since`: an ISO date or time, or a duration ago (`30m`, `12h`, `7d`). */
function sinceOf(text: string, now: number): { readonly at: number } | { readonly problem: string } {
  const ago = /^(\d+)(m|h|d)$/.exec(text);
  if (ago !== null) return { at: now - Number(ago[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 'm' | 'h' | 'd'] };
  const at = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(at)) return { at };
  return { problem: `--since is an ISO date or time (2026-11-20, 2026-11-20T09:00Z) or a duration ago (30m, 12h, 7d), got ${text}` };
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function fail(message: string): number {
  process.stderr.write(`sop runs report: ${message}\n`);
  return 1;
}
