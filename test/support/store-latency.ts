/**
 * Timings of a store's `commit` and of its floor, for the bench (no vitest here): on PostgreSQL the floor is one
 * bare single-row `UPDATE` round trip on the same database through the same driver, measured interleaved with
 * the commits (commit, update, commit, update, …) so that both see the same moment of a shared, noisy machine.
 * Returns raw samples in milliseconds; the caller picks its statistics.
 */
import pg from 'pg';
import type { RunState, RunStore } from '../../runtime/store/run-store.js';
import { aRun, anAudit, T0 } from './stored-runs.js';

export interface CommitTimings {
  /** One `commit` each (a tool call's worth: a few-node path, a todo, a small input). */
  readonly commitMs: readonly number[];
  /** One bare `UPDATE … SET n = n + 1 WHERE id = $1` round trip each; empty when no floor URL was given. */
  readonly updateMs: readonly number[];
}

/** `samples` commits on one fresh run of `store` (after `warmup` untimed ones), interleaved with updates on `floorUrl`. */
export async function timeCommits(
  store: RunStore,
  options: { samples: number; warmup: number; floorUrl?: string },
): Promise<CommitTimings> {
  const floor = options.floorUrl === undefined ? undefined : await openFloor(options.floorUrl);
  try {
    const run = aRun();
    await store.create(run, anAudit());
    let version = 1;
    const commitMs: number[] = [];
    const updateMs: number[] = [];
    for (let i = 0; i < options.warmup + options.samples; i += 1) {
      const state = stateAfter(i);
      const audit = anAudit({
        tool: 'goto_node',
        input: { node: state.path.at(-1) },
        from: state.path.at(-2) ?? null,
        to: state.path.at(-1) ?? null,
      });
      const started = process.hrtime.bigint();
      const result = await store.commit(run.runId, version, state, audit, T0 + i);
      const committed = process.hrtime.bigint();
      if (!result.ok) throw new Error(`commit ${i} was refused: ${result.reason}`);
      version = result.run.version;
      const updated = floor === undefined ? undefined : await floor.time();
      if (i < options.warmup) continue;
      commitMs.push(Number(committed - started) / 1e6);
      if (updated !== undefined) updateMs.push(updated);
    }
    return { commitMs, updateMs };
  } finally {
    await floor?.close();
  }
}

function stateAfter(i: number): RunState {
  const path = ['START', 'AUTH', 'ROUTE', i % 2 === 0 ? 'INFO' : 'CHK_CANCEL'];
  return {
    path,
    todos: [{ content: 'Check the order status', status: 'in_progress', completion_node: 'END' }],
    visits: Object.fromEntries(path.map((node) => [node, 1 + (i % 3)])),
  };
}

export interface Floor {
  /** One timed round trip, in milliseconds. */
  time(): Promise<number>;
  close(): Promise<void>;
}

/** One bare single-row `UPDATE` round trip on `url`, timed (a table of its own, created if missing). */
export async function openFloor(url: string): Promise<Floor> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query('CREATE TABLE IF NOT EXISTS sop_bench_floor (id integer PRIMARY KEY, n bigint NOT NULL)');
  await pool.query('INSERT INTO sop_bench_floor VALUES (1, 0) ON CONFLICT (id) DO NOTHING');
  const update = { name: 'sop_bench_floor_update', text: 'UPDATE sop_bench_floor SET n = n + 1 WHERE id = $1', values: [1] };
  return {
    async time() {
      const started = process.hrtime.bigint();
      await pool.query(update);
      return Number(process.hrtime.bigint() - started) / 1e6;
    },
    close: () => pool.end(),
  };
}
