/**
 * The bench's smoke mode (`npm run bench -- --quick`) runs here so the harness cannot rot: it must finish and
 * write one row per figure in the results shape. Values are not asserted (a shared 2-core machine is too
 * noisy for timed assertions); a figure the quick run could not measure is null with a note.
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

describe('npm run bench -- --quick', () => {
  it('writes results.json with every row in the documented shape', { timeout: 240_000 }, () => {
    const out = join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['dist/bench/main.js', '--quick', '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 230_000,
    });
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    expect(run.stdout).toContain('| row');

    const rows = JSON.parse(readFileSync(out, 'utf8')) as ResultRow[];
    expect(Array.isArray(rows)).toBe(true);
    // Rows 1–7 of the issue: goto_node p50/p99, load_graph, cold start, build (3), tsc (2), HTTP (3), tokens (2).
    expect(rows).toHaveLength(15);
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
      // Never a fake number: an unmeasured figure says why, and is never met.
      if (r.value === null) {
        expect(typeof r.note, `${String(r.name)}: a null value needs a note`).toBe('string');
        expect(r.met).toBe(false);
      }
      if (r.ratio !== null) expect(r.floor).not.toBeNull();
    }
  });
});
