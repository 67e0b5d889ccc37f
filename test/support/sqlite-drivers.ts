/**
 * The SQLite drivers as a test file meets them on the Node running it: node:sqlite, better-sqlite3 12.x (the
 * repository's `better-sqlite3`) and 13.x (installed as `better-sqlite3-13`), each loaded or with the reason it
 * cannot run here. A driver that cannot run is never skipped silently: its tests are listed as skipped with the
 * reason in their name, and the reason is printed. Where it should run it is required, and a failure to load
 * fails the run: node:sqlite on Node 22.13 and later, better-sqlite3 12 on Node 20, 13 on Node 22 and later.
 */
import { loadBetterSqlite3 } from '../../runtime/store/sqlite-driver-better.js';
import { NODE_SQLITE_SINCE, loadSqliteDriver, openSqliteDatabase, type SqliteDriver } from '../../runtime/store/sqlite-driver.js';

export interface DriverCase {
  /** For test names: `node:sqlite`, `better-sqlite3 12`, `better-sqlite3 13`. */
  readonly label: string;
  /** The package a child process imports to load the same driver (undefined: node:sqlite). */
  readonly packageName?: string;
}

export type DriverHere =
  | (DriverCase & { readonly runs: true; readonly driver: SqliteDriver })
  | (DriverCase & { readonly runs: false; readonly reason: string });

const OTHERS = '--store memory';

/** Whether this Node is one where node:sqlite loads without a flag. */
export function nodeHasSqlite(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [sinceMajor = 0, sinceMinor = 0] = NODE_SQLITE_SINCE.split('.').map(Number);
  return major > sinceMajor || (major === sinceMajor && minor >= sinceMinor);
}

const nodeMajor = Number(process.versions.node.split('.')[0]);

const CASES: readonly (DriverCase & { readonly required: boolean; readonly load: () => ReturnType<typeof loadSqliteDriver> })[] = [
  { label: 'node:sqlite', required: nodeHasSqlite(), load: () => loadSqliteDriver('node:sqlite') },
  { label: 'better-sqlite3 12', packageName: 'better-sqlite3', required: nodeMajor < 22, load: () => loadBetterSqlite3(OTHERS) },
  {
    label: 'better-sqlite3 13',
    packageName: 'better-sqlite3-13',
    required: nodeMajor >= 22,
    load: () => loadBetterSqlite3(OTHERS, 'better-sqlite3-13'),
  },
];

/** Every driver, loaded and proved to open a database, or why it cannot run on this Node. */
export async function sqliteDriversHere(): Promise<readonly DriverHere[]> {
  const drivers: DriverHere[] = [];
  for (const { required, load, ...which } of CASES) {
    const loaded = await load();
    let reason = loaded.ok ? undefined : loaded.error;
    if (loaded.ok) {
      // A better-sqlite3 12 addon loads on the first open: built for another Node, it fails here.
      const opened = openSqliteDatabase(loaded.driver, ':memory:');
      if (opened.ok) opened.db.close();
      else reason = opened.error;
    }
    if (loaded.ok && reason === undefined) {
      drivers.push({ ...which, runs: true, driver: loaded.driver });
      continue;
    }
    if (required) throw new Error(`the ${which.label} SQLite driver must run on Node ${process.version}, and cannot: ${reason}`);
    process.stderr.write(`sqlite tests: ${which.label} cannot run on Node ${process.version}, its tests are skipped: ${reason}\n`);
    drivers.push({ ...which, runs: false, reason: reason ?? 'unknown' });
  }
  return drivers;
}
