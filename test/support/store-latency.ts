/**
 * Timings of a store's `commit` and of its floor, for the bench (no vitest here). On PostgreSQL the floor is the
 * writes a commit must make, sent raw in one round trip: the run row's new state and the audit row, in tables
 * built like the store's (the same columns, keys and indexes: its first migration, renamed `sop_floor_…`), as
 * one prepared statement through the same driver on the same database, and nothing else (no compare-and-set, no
 * re-read, no notification check, nothing returned). It is measured interleaved with the commits (commit, floor,
 * commit, floor, …) so that both see the same moment of a shared, noisy machine. Returns raw samples in
 * milliseconds; the caller picks its statistics.
 */
import pg from 'pg';
import type { RunState, RunStore } from '../../runtime/store/run-store.js';
import { POSTGRES_MIGRATIONS } from '../../runtime/store/run-store-schema.js';
import { aRun, anAudit, T0 } from './stored-runs.js';

export interface CommitTimings {
  /** One `commit` each (a tool call's worth: a few-node path, a todo, a small input). */
  readonly commitMs: readonly number[];
  /** One floor round trip each (the same writes, raw); empty when no floor URL was given. */
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

/** The state a call leaves (a few-node path, a todo, visit counts), varying with `i` as a conversation's does. */
export function stateAfter(i: number): RunState {
  const path = ['START', 'AUTH', 'ROUTE', i % 2 === 0 ? 'INFO' : 'CHK_CANCEL'];
  return {
    path,
    todos: [{ content: 'Check the order status', status: 'in_progress', completion_node: 'END' }],
    visits: Object.fromEntries(path.map((node) => [node, 1 + (i % 3)])),
  };
}

export interface Floor {
  /** Times the writes of a commit of `state`, raw (default: a few-node state varying with each call), in ms. */
  time(state?: RunState): Promise<number>;
  /**
   * Times the same writes as the least a commit that can be trusted sends: the update only if the run is still at
   * the version read (compare-and-set), and the version written returned, so the caller knows whether it applied.
   */
  timeChecked(state?: RunState): Promise<number>;
  close(): Promise<void>;
}

/** The store's tables, renamed for the floor (created once per database or schema). */
const FLOOR_TABLES = (POSTGRES_MIGRATIONS[0]?.statements ?? []).map((statement) =>
  statement
    .replaceAll('sop_runs', 'sop_floor_runs')
    .replaceAll('sop_run_audit', 'sop_floor_run_audit')
    .replaceAll('sop_sessions', 'sop_floor_sessions')
    .replaceAll('sop_agent_versions', 'sop_floor_agent_versions')
    .replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS')
    .replace('CREATE INDEX', 'CREATE INDEX IF NOT EXISTS'),
);

/** The writes of one commit, raw: the run row's state, the audit row, one statement. */
const RAW_WRITES = {
  name: 'sop_floor_writes',
  text: `WITH moved AS (
      UPDATE sop_floor_runs SET state = $1, current_node = $2, version = version + 1, updated_at = $3 WHERE run_id = $4
      RETURNING run_id, version
    )
    INSERT INTO sop_floor_run_audit (run_id, seq, tool, input, outcome, from_node, to_node, at, duration_ms)
    SELECT run_id, version, $5, $6, $7, $8, $9, $10, $11 FROM moved`,
};

/** The writes of one commit as a compare-and-set that says whether it applied: the raw writes, checked. */
const CHECKED_WRITES = {
  name: 'sop_floor_checked_writes',
  text: `WITH moved AS (
      UPDATE sop_floor_runs SET state = $1, current_node = $2, version = version + 1, updated_at = $3
      WHERE run_id = $4 AND version = $12
      RETURNING run_id, version
    )
    INSERT INTO sop_floor_run_audit (run_id, seq, tool, input, outcome, from_node, to_node, at, duration_ms)
    SELECT run_id, version, $5, $6, $7, $8, $9, $10, $11 FROM moved
    RETURNING seq`,
};

/** The floor of a commit on `url`: the same writes sent raw in one round trip, timed. */
export async function openFloor(url: string): Promise<Floor> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  for (const statement of FLOOR_TABLES) await pool.query(statement);
  const runId = `floor-${process.pid}-${Date.now()}`;
  await pool.query(
    "INSERT INTO sop_floor_runs (run_id, principal, agent, source_hash, state, current_node, version, created_at, updated_at) VALUES ($1, 'bench', 'floor', 'sha256:floor', '{}', NULL, 1, $2, $2)",
    [runId, T0],
  );
  let calls = 0;
  let version = 1;
  const valuesOf = (state: RunState): unknown[] => {
    calls += 1;
    return [
      JSON.stringify(state),
      state.path.at(-1),
      T0 + calls,
      runId,
      'goto_node',
      JSON.stringify({ node_id: state.path.at(-1) }),
      'ok',
      state.path.at(-2),
      state.path.at(-1),
      T0 + calls,
      0.25,
    ];
  };
  return {
    async time(state = stateAfter(calls + 1)) {
      const values = valuesOf(state);
      const started = process.hrtime.bigint();
      await pool.query({ ...RAW_WRITES, values });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      version += 1;
      return ms;
    },
    async timeChecked(state = stateAfter(calls + 1)) {
      const values = [...valuesOf(state), version];
      const started = process.hrtime.bigint();
      const written = (await pool.query<{ seq: number }>({ ...CHECKED_WRITES, values })).rows[0];
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (written === undefined) throw new Error(`the floor's compare-and-set found the run moved from version ${version}`);
      version = Number(written.seq);
      return ms;
    },
    close: () => pool.end(),
  };
}
