/**
 * The SQLite engine behind the SQLite run store, through one small synchronous interface with two drivers:
 *
 *   node:sqlite     built into Node 22.13 and later (and 22.5–22.12 with --experimental-sqlite): nothing to
 *                   install or compile. The default wherever it loads.
 *   better-sqlite3  the npm package, a native addon: the driver on Node 20, or when chosen explicitly
 *                   (`sqlite:PATH?driver=better-sqlite3`). An optional peer dependency of the toolkit: installed
 *                   only by an app that asks for it. 12.x on Node 20 (compiled at install), 13.x on Node 22 and
 *                   later (prebuilt); the other pairs crash the process and are refused (`sqlite-driver-better.ts`).
 *
 * The store uses only what both drivers do alike and what node:sqlite has offered unchanged since it was
 * unflagged (22.13): `new DatabaseSync(path)`, `exec`, `prepare` with positional parameters, a statement's
 * `run` / `get` / `all`, `close`. Pragmas (WAL, synchronous, busy_timeout, foreign_keys) and transactions
 * (`BEGIN IMMEDIATE` … `COMMIT`) are plain SQL, so they mean the same on both. Both return rows as objects keyed
 * by column name with INTEGER and REAL as numbers and TEXT as strings; node:sqlite's rows have a null
 * prototype, which nothing here minds.
 *
 * A driver that cannot load is an error value naming the fix for this Node: on Node 20 without better-sqlite3,
 * `npm install better-sqlite3@12` (its latest major crashes there) or another store.
 */
import { driverFailure, isNativeAddonFailure, type DriverLoad } from './load-driver.js';
import { BETTER_SQLITE3, installedVersion, loadBetterSqlite3 } from './sqlite-driver-better.js';
import { loadNodeSqlite } from './sqlite-driver-node.js';

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';
/** `auto`: node:sqlite where it loads, else better-sqlite3. */
export type SqliteDriverChoice = SqliteDriverName | 'auto';

export const SQLITE_DRIVERS: readonly SqliteDriverName[] = ['node:sqlite', 'better-sqlite3'];

export type SqliteValue = string | number | null;

export interface SqliteStatement<Row> {
  run(...params: SqliteValue[]): { readonly changes: number };
  get(...params: SqliteValue[]): Row | undefined;
  all(...params: SqliteValue[]): Row[];
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare<Row = unknown>(sql: string): SqliteStatement<Row>;
  close(): void;
}

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /**
   * Whether text holding U+0000 reads back whole. Where not (node:sqlite on Node 22), the driver writes and looks
   * up U+FFFD in its place, as the PostgreSQL store does.
   */
  readonly keepsNulInText: boolean;
  /** Opens the file, creating it when missing. A file that is not a database fails at its first statement. */
  open(path: string): SqliteDatabase;
  /** Whether `error` is a PRIMARY KEY or UNIQUE violation. */
  isUniqueViolation(error: unknown): boolean;
}

const OTHER_STORES = '--store memory, or --store postgres://…';
/** The first Node release where node:sqlite loads without a flag. */
export const NODE_SQLITE_SINCE = '22.13';

export async function loadSqliteDriver(choice: SqliteDriverChoice): Promise<DriverLoad<SqliteDriver>> {
  if (choice !== 'better-sqlite3') {
    const builtIn = loadNodeSqlite();
    if (builtIn !== undefined) return { ok: true, driver: builtIn };
    if (choice === 'node:sqlite') {
      return {
        ok: false,
        error:
          `node:sqlite is not available on Node ${process.version} (it is built into Node ${NODE_SQLITE_SINCE} and later): ` +
          `upgrade Node, or use sqlite:PATH?driver=better-sqlite3 (after \`npm install ${betterSqlite3ForThisNode()}\`), or choose another store (${OTHER_STORES})`,
      };
    }
  }
  if (installedVersion() === undefined) {
    const install = `run \`npm install ${betterSqlite3ForThisNode()}\` in the app`;
    return {
      ok: false,
      error:
        choice === 'better-sqlite3'
          ? `the ${BETTER_SQLITE3} package is not installed: ${install}, or drop driver=better-sqlite3 to use the SQLite built into Node ${NODE_SQLITE_SINCE} and later, or choose another store (${OTHER_STORES})`
          : `SQLite on Node ${process.version} needs the ${BETTER_SQLITE3} package, which is not installed: ${install} ` +
            `(Node ${NODE_SQLITE_SINCE} and later have SQLite built in and need nothing), or choose another store (${OTHER_STORES})`,
    };
  }
  return loadBetterSqlite3(OTHER_STORES);
}

/** What to install for better-sqlite3 on this Node: each major version crashes on the other's lines. */
function betterSqlite3ForThisNode(): string {
  return Number(process.versions.node.split('.')[0]) < 22 ? `${BETTER_SQLITE3}@12` : `${BETTER_SQLITE3}@13`;
}

/**
 * Opens `path` with `driver`, turning a native addon that does not load (better-sqlite3 built for another Node)
 * into the message naming the fix; any other failure is thrown as it is.
 */
export function openSqliteDatabase(
  driver: SqliteDriver,
  path: string,
): { readonly ok: true; readonly db: SqliteDatabase } | { readonly ok: false; readonly error: string } {
  try {
    return { ok: true, db: driver.open(path) };
  } catch (error) {
    if (isNativeAddonFailure(error)) return { ok: false, error: driverFailure(driver.name, error, OTHER_STORES) };
    throw error;
  }
}
