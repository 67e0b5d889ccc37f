/**
 * The bench's smoke mode (`npm run bench -- --quick`, about 15 s here) runs here so the harness cannot rot: every
 * row must run against the current code (a row that fails makes the bench exit with 1), and write its figures in
 * the results shape. Values are not asserted (a shared 2-core machine is too noisy for timed assertions). The
 * only figures allowed to be missing are the ones quick mode leaves out on purpose, each saying so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sop-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ResultRow {
  readonly name: unknown;
  readonly value: unknown;
  readonly floor: unknown;
  readonly ratio: unknown;
  readonly goal: unknown;
  readonly met: unknown;
  readonly goalOn: unknown;
  readonly unit: unknown;
  readonly note?: unknown;
}

const numberOrNull = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isFinite(v));

/** Figures quick mode leaves out: slow ones (tsc, a 1000-SOP build), PostgreSQL's, and a repeat on another store. */
const LEFT_OUT_IN_QUICK_MODE = [
  /^build:sops cold 1000 ÷ 100 SOPs$/,
  /^tsc --noEmit/,
  /^http idle session memory, memory store/,
  /PostgreSQL/,
];

/**
 * `npm test` runs four rows (an SDK client over stdio against the floor servers, the service in process, the
 * token count over the seed walkthrough, the SQLite store), a few seconds; `npm run bench:smoke` runs every row
 * in quick mode (about 15 s of real processes), and `npm run bench` the real thing.
 */
const SMOKE_ROWS = process.env['BENCH_SMOKE_ALL'] === '1' ? [] : ['--only', 'goto,load-graph,tokens,sqlite'];

describe('npm run bench -- --quick', () => {
  it('runs the rows against the current code and writes results.json in the documented shape', { timeout: 120_000 }, () => {
    const out = join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['dist/bench/main.js', '--quick', ...SMOKE_ROWS, '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.status, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0);
    expect(run.stdout).toContain('| row');

    const results = JSON.parse(readFileSync(out, 'utf8')) as {
      format: string;
      quick: boolean;
      machine: { cpus: number };
      rows: ResultRow[];
    };
    expect(results).toMatchObject({ format: 'sop-bench/1', quick: true, node: process.version });
    expect(results.machine.cpus).toBeGreaterThan(0);
    const rows = results.rows;
    expect(Array.isArray(rows)).toBe(true);
    // All: goto (2), load_graph, cold start, build (3), tsc (2), HTTP (2), tokens (2), idle sessions (2), SQLite,
    // idle runs, PostgreSQL latency (2), scale-out, policies, the gateway (3), the language server (2), replay (2),
    // the soak, data conditions and discover.
    // The smoke subset: goto (2), load_graph, tokens (2), SQLite.
    expect(rows).toHaveLength(SMOKE_ROWS.length === 0 ? 31 : 6);
    const names = rows.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of rows) {
      expect(typeof r.name).toBe('string');
      expect(numberOrNull(r.value), `${String(r.name)}: value`).toBe(true);
      expect(numberOrNull(r.floor), `${String(r.name)}: floor`).toBe(true);
      expect(numberOrNull(r.ratio), `${String(r.name)}: ratio`).toBe(true);
      expect(r.goal).toMatch(/^(<=|>=) \d+(\.\d+)?$/);
      expect(typeof r.met).toBe('boolean');
      expect(['ratio', 'value']).toContain(r.goalOn);
      expect(typeof r.unit).toBe('string');
      if (r.ratio !== null) expect(r.floor).not.toBeNull();
      // Never a fake number, never a silent skip: only what quick mode leaves out on purpose is missing, and says so.
      const leftOut = LEFT_OUT_IN_QUICK_MODE.some((pattern) => pattern.test(String(r.name)));
      if (leftOut) {
        expect(r.value, `${String(r.name)} is left out in quick mode`).toBeNull();
        expect(String(r.note)).toMatch(/^skipped in quick mode: /);
        expect(r.met).toBe(false);
      } else {
        expect(r.value, `${String(r.name)}: ${String(r.note)}`).not.toBeNull();
      }
    }
  });
});
