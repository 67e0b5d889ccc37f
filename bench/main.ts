/**
 * `npm run bench`: measures the toolkit against its floors and prints one table, written also, with the machine and
 * the load it ran under, to `.cache/bench/results.json` (untracked; `--out FILE` for another place, such as the
 * tracked `bench/results.json` when a run is to be published): `{format, ran_at, node, machine, load, quick, rows}`,
 * rows `{name, value, floor, ratio, goal, met, goalOn, unit, note?}`.
 *
 *   node dist/bench/main.js [--quick] [--only <row>[,<row>…]] [--out FILE]
 *
 * Rows (ids for --only, or their numbers): see ROWS below and bench/README-performance.md.
 * `--quick` shrinks every row to a smoke run (seconds, not minutes): it proves the harness still works and the
 * rows keep their shape; its numbers mean nothing. It leaves out the slow rows and the ones that start
 * PostgreSQL (their figures are null with a note saying so). `npm test` runs it; CI does not run the full bench.
 *
 * A full run gives every row a process of its own (this file again, with `--only` that row): a row that times work
 * in its own process then starts from the same state whatever ran before it (measured 2026-11-28 in one process:
 * replay 2.65-2.93 alone, 3.07 at its place in a full run; 2.93-2.94 in full runs since). `--quick` and a single
 * row run in this process.
 *
 * Every row runs under a wall-clock budget. A row that fails or overruns reports null values with the reason
 * in its note, the other rows still run, and the bench exits with 1: a bench that skips silently is no bench.
 * Scratch files live under os.tmpdir() and are removed at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createContext, type BenchRow } from './context.js';
import { ROOT } from './project.js';
import { withDeadline } from './processes.js';
import { FAILED, renderTable, skippedInQuickMode, unmeasured, writeResults, type Row } from './report.js';
import { buildSopsRow } from './rows/build-sops.js';
import { coldStartRow } from './rows/cold-start.js';
import { dataConditionsRow } from './rows/data-conditions.js';
import { discoverRow } from './rows/discover.js';
import { gatewayRow } from './rows/gateway.js';
import { gotoNodeRow } from './rows/goto-node.js';
import { httpRow } from './rows/http.js';
import { idleRunsRow } from './rows/idle-runs.js';
import { idleSessionsRow } from './rows/idle-sessions.js';
import { loadGraphRow } from './rows/load-graph.js';
import { lspRow } from './rows/lsp.js';
import { policiesRow } from './rows/policies.js';
import { postgresLatencyRow } from './rows/postgres-latency.js';
import { postgresScaleRow } from './rows/postgres-scale.js';
import { replayRow } from './rows/replay.js';
import { soakHeapRow } from './rows/soak-heap.js';
import { sqliteLatencyRow } from './rows/sqlite-latency.js';
import { tokensRow } from './rows/tokens.js';
import { tscRow } from './rows/tsc.js';

const ROWS: readonly BenchRow[] = [
  gotoNodeRow,
  loadGraphRow,
  coldStartRow,
  buildSopsRow,
  tscRow,
  httpRow,
  tokensRow,
  idleSessionsRow,
  sqliteLatencyRow,
  idleRunsRow,
  postgresLatencyRow,
  postgresScaleRow,
  policiesRow,
  gatewayRow,
  lspRow,
  replayRow,
  soakHeapRow,
  dataConditionsRow,
  discoverRow,
];

function selectRows(only: string | undefined): readonly BenchRow[] {
  if (!only) return ROWS;
  const wanted = only.split(',').map((s) => s.trim());
  const picked = ROWS.filter((r, i) => wanted.includes(r.id) || wanted.includes(String(i + 1)));
  const unknown = wanted.filter((w) => !ROWS.some((r, i) => r.id === w || String(i + 1) === w));
  if (unknown.length > 0) {
    throw new Error(`unknown row ${unknown.join(', ')}; rows are ${ROWS.map((r, i) => `${i + 1}=${r.id}`).join(' ')}`);
  }
  return picked;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string', default: join(ROOT, '.cache', 'bench', 'results.json') },
    },
  });
  const rows = selectRows(values.only);
  const quick = values.quick;
  const tmp = mkdtempSync(join(tmpdir(), 'sop-bench-'));
  const log = (message: string): void => void process.stderr.write(`[bench] ${message}\n`);
  const results: Row[] = [];
  const failed: string[] = [];
  const started = Date.now();
  const loadAtStart = loadavg();
  if (!quick && rows.length > 1) {
    try {
      for (const benchRow of rows) {
        const ran = await runInOwnProcess(benchRow, join(tmp, `${benchRow.id}.json`));
        results.push(...ran.rows);
        if (!ran.ok) failed.push(benchRow.id);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    return report(values.out, results, failed, { started, loadAtStart, quick });
  }
  const contexts = createContext({ quick, tmp });
  try {
    for (const benchRow of rows) {
      if (quick && benchRow.quickSkip !== undefined) {
        log(`— ${benchRow.title}: ${benchRow.quickSkip}, skipped in quick mode`);
        results.push(...benchRow.specs.map((spec) => skippedInQuickMode(spec, benchRow.quickSkip as string)));
        continue;
      }
      // Rows that time work in this process start from a collected heap, not from the garbage of the rows before.
      (globalThis as { gc?: () => void }).gc?.();
      const rowStart = Date.now();
      log(`— ${benchRow.title}`);
      const abort = new AbortController();
      try {
        const running = benchRow.run(contexts.forRow(abort.signal));
        results.push(...(await withDeadline(running, benchRow.budgetMs, `row ${benchRow.id}`, abort)));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const note = `${FAILED}: ${(message.split('\n')[0] ?? '').slice(0, 300)}`;
        log(note);
        failed.push(benchRow.id);
        results.push(...benchRow.specs.map((spec) => unmeasured(spec, note)));
      }
      log(`  ${benchRow.id} took ${((Date.now() - rowStart) / 1000).toFixed(1)} s`);
    }
  } finally {
    await contexts.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return report(values.out, results, failed, { started, loadAtStart, quick });
}

/** Writes the results, prints the table, and says which rows could not run; the exit code. */
function report(
  out: string,
  results: readonly Row[],
  failed: readonly string[],
  { started, loadAtStart, quick }: { readonly started: number; readonly loadAtStart: number[]; readonly quick: boolean },
): number {
  writeResults(out, results, { startedAt: started, loadAtStart, quick });
  process.stdout.write(`${renderTable(results)}\n\n`);
  process.stdout.write(
    `${quick ? 'quick smoke run (numbers are not meaningful); ' : ''}${((Date.now() - started) / 1000).toFixed(0)} s; ` +
      `Node ${process.version}; load average at the end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; results in ${out}\n`,
  );
  if (failed.length > 0) {
    process.stderr.write(`bench: ${failed.length} row(s) could not run: ${failed.join(', ')} (reasons in the notes)\n`);
    return 1;
  }
  return 0;
}

/**
 * One row in a process of its own: this file with `--only` the row, its log on this process's stderr, its rows read
 * from the results it writes. A process that dies or overruns the row's budget (and a minute to start) gives the
 * row's figures as not measured, with the reason.
 */
async function runInOwnProcess(benchRow: BenchRow, out: string): Promise<{ readonly ok: boolean; readonly rows: readonly Row[] }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--only', benchRow.id, '--out', out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = setTimeout(() => child.kill('SIGKILL'), benchRow.budgetMs + 60_000);
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('exit', (exitCode) => resolve(exitCode));
  });
  clearTimeout(deadline);
  try {
    const written = JSON.parse(readFileSync(out, 'utf8')) as { readonly rows: readonly Row[] };
    return { ok: code === 0, rows: written.rows };
  } catch {
    const note = `${FAILED}: its process ${code === null ? 'was killed or could not start' : `exited ${code}`} before writing its results`;
    return { ok: false, rows: benchRow.specs.map((spec) => unmeasured(spec, note)) };
  }
}

main().then(
  (code) => {
    process.exitCode = code;
    // A row that overran its budget may have left sockets or timers behind: do not wait for them.
    setTimeout(() => process.exit(code), 200).unref();
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
