/**
 * What every row gets: the mode (quick or full), a scratch folder under os.tmpdir() that is removed at the end,
 * a shared fixture project (100 synthetic agents + the project's SOPs, built once, used by the rows that
 * start the real server), a shared PostgreSQL cluster (started on first use, by the rows that need one), and a
 * logger to stderr (stdout carries the table).
 */
import { join } from 'node:path';
import { type PostgresCluster, startPostgresCluster } from '../test/support/postgres-cluster.js';
import { createFixture, type FixtureProject } from './fixture-project.js';
import type { Row, RowInput } from './report.js';

export interface BenchContext {
  readonly quick: boolean;
  /** Aborted when the running row overruns its budget: processes started with it are killed. */
  readonly signal: AbortSignal;
  /** Scratch folder for this bench run. */
  readonly tmp: string;
  log(message: string): void;
  /** The shared server fixture (built on first use). */
  fixture(): Promise<FixtureProject>;
  /**
   * The shared PostgreSQL cluster (`test/support/postgres-cluster.ts`: initdb in a temp folder, its own port;
   * fsync off, as in the tests), started on first use and stopped when the bench ends. It loads
   * `pg_stat_statements`, so a row can count the statements a call costs (a few µs per statement, on every side).
   */
  postgres(): Promise<PostgresCluster>;
}

/** The name, goal and unit of one figure, known before it is measured (an unmeasured row still shows them). */
export type RowSpec = Pick<RowInput, 'name' | 'goal' | 'goalOn' | 'unit'>;

export interface BenchRow {
  /** `--only` key. */
  readonly id: string;
  readonly title: string;
  readonly specs: readonly RowSpec[];
  /** Wall-clock budget of the whole row, in ms (full mode; quick mode must stay well under). */
  readonly budgetMs: number;
  /** Set when quick mode leaves the whole row out: why (too slow for a smoke run, or an engine it would start). */
  readonly quickSkip?: string;
  run(ctx: BenchContext): Promise<Row[]>;
}

/** Number of synthetic agents the server rows register (the "100 agents"). */
export function fixtureAgents(quick: boolean): number {
  return quick ? 5 : 100;
}

export interface ContextFactory {
  /** The context of one row: shares the fixture and the cluster, carries the row's own abort signal. */
  forRow(signal: AbortSignal): BenchContext;
  /** Stops what the rows shared (the PostgreSQL cluster, if one was started). */
  close(): Promise<void>;
}

export function createContext(options: { quick: boolean; tmp: string }): ContextFactory {
  let fixture: Promise<FixtureProject> | undefined;
  let cluster: Promise<PostgresCluster> | undefined;
  const log = (message: string): void => void process.stderr.write(`[bench] ${message}\n`);
  return {
    forRow: (signal) => ({
      quick: options.quick,
      signal,
      tmp: options.tmp,
      log,
      fixture() {
        fixture ??= (async () => {
          const agents = fixtureAgents(options.quick);
          log(`building the server fixture: ${agents} synthetic SOPs × 40 nodes + the project's SOPs`);
          return createFixture(join(options.tmp, 'fixture'), { agents, nodes: 40, projectSops: true });
        })();
        return fixture;
      },
      postgres() {
        cluster ??= (async () => {
          log('starting a PostgreSQL cluster');
          return startPostgresCluster({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
        })();
        return cluster;
      },
    }),
    async close() {
      if (cluster === undefined) return;
      await (await cluster.catch(() => undefined))?.stop();
    },
  };
}
