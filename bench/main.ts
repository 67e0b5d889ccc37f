/**
 * `npm run bench`: measures the toolkit against its floors and prints one table, written also to
 * `bench/results.json` (rows `{name, value, floor, ratio, goal, met, goalOn, unit, note?}`).
 *
 *   node dist/bench/main.js [--quick] [--only <row>[,<row>…]] [--out FILE]
 *
 * Rows (ids for --only, or their numbers 1–7): goto, load-graph, cold-start, build, tsc, http, tokens.
 * `--quick` shrinks every row to a smoke run (seconds, not minutes): it proves the harness still works and the
 * rows keep their shape; its numbers mean nothing. The tests run it; CI does not run the full bench.
 *
 * Every row runs under a wall-clock budget; a row that fails or overruns reports null values with a note,
 * and the other rows still run. Scratch files live under os.tmpdir() and are removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createContext, type BenchRow } from './context.js';
import { ROOT } from './project.js';
import { withDeadline } from './processes.js';
import { renderTable, unmeasured, writeResults, type Row } from './report.js';
import { buildSopsRow } from './rows/build-sops.js';
import { coldStartRow } from './rows/cold-start.js';
import { gotoNodeRow } from './rows/goto-node.js';
import { httpRow } from './rows/http.js';
import { loadGraphRow } from './rows/load-graph.js';
import { tokensRow } from './rows/tokens.js';
import { tscRow } from './rows/tsc.js';

const ROWS: readonly BenchRow[] = [gotoNodeRow, loadGraphRow, coldStartRow, buildSopsRow, tscRow, httpRow, tokensRow];

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
      out: { type: 'string', default: join(ROOT, 'bench', 'results.json') },
    },
  });
  const rows = selectRows(values.only);
  const quick = values.quick;
  const tmp = mkdtempSync(join(tmpdir(), 'sop-bench-'));
  const contextFor = createContext({ quick, tmp });
  const log = (message: string): void => void process.stderr.write(`[bench] ${message}\n`);
  const results: Row[] = [];
  const started = Date.now();
  try {
    for (const benchRow of rows) {
      const rowStart = Date.now();
      log(`— ${benchRow.title}`);
      const abort = new AbortController();
      try {
        const running = benchRow.run(contextFor(abort.signal));
        results.push(...(await withDeadline(running, benchRow.budgetMs, `row ${benchRow.id}`, abort)));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const note = `failed: ${(message.split('\n')[0] ?? '').slice(0, 300)}`;
        log(note);
        results.push(...benchRow.specs.map((spec) => unmeasured(spec, note)));
      }
      log(`  ${benchRow.id} took ${((Date.now() - rowStart) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeResults(values.out, results);
  process.stdout.write(`${renderTable(results)}\n\n`);
  process.stdout.write(
    `${quick ? 'quick smoke run (numbers are not meaningful); ' : ''}${((Date.now() - started) / 1000).toFixed(0)} s; ` +
      `Node ${process.version}; results in ${values.out}\n`,
  );
  return 0;
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
