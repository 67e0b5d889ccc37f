/**
 * The better-sqlite3 driver: the npm package, a native addon. The SQLite driver on Node 20 (which has no
 * node:sqlite), and on any Node when chosen with `sqlite:PATH?driver=better-sqlite3`.
 *
 * Its two major versions each crash the process on some Node line rather than failing, so the version installed
 * is read from its package.json before the addon is loaded, and a pair that would crash is refused with the fix:
 *   - 12.x (an addon built for one Node ABI, compiled at install unless a prebuilt binary can be downloaded)
 *     aborts in its prepared statements' destructor on Node 24.19 and later (Node changed `node::ObjectWrap`,
 *     which 12.x subclasses): refused there;
 *   - 13.x (Node-API, prebuilt binaries inside the package: nothing compiled) needs Node 22: on Node 20 it dies
 *     with a segmentation fault when loaded. Refused there.
 * 12.x built for another Node ABI fails at `open`, where `openSqliteDatabase` names the rebuild.
 */
import { createRequire } from 'node:module';
import { loadDriver, type DriverLoad } from './load-driver.js';
import type { SqliteDatabase, SqliteDriver, SqliteStatement } from './sqlite-driver.js';

/** The part of better-sqlite3's API this driver uses, the same in 12.x and 13.x. */
interface BetterSqlite3Module {
  readonly default: new (path: string) => BetterSqlite3Database;
}

interface BetterSqlite3Database {
  exec(sql: string): unknown;
  prepare(sql: string): {
    run(...params: unknown[]): { changes: number };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  close(): unknown;
}

export const BETTER_SQLITE3 = 'better-sqlite3';
const UNIQUE_VIOLATIONS = new Set(['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE']);

/**
 * Loads better-sqlite3 (`packageName` is another name for it, as the repository's own tests install 13.x as
 * `better-sqlite3-13`), or why not: not installed, or a version that would crash this Node.
 */
export async function loadBetterSqlite3(otherStores: string, packageName: string = BETTER_SQLITE3): Promise<DriverLoad<SqliteDriver>> {
  const version = installedVersion(packageName);
  if (version !== undefined) {
    const refusal = crashesOnThisNode(version, process.versions.node);
    if (refusal !== undefined)
      return { ok: false, error: `${BETTER_SQLITE3} ${version} ${refusal}, or choose another store (${otherStores})` };
  }
  const loaded = await loadDriver(packageName, () => import(packageName) as Promise<BetterSqlite3Module>, otherStores);
  if (!loaded.ok) return loaded;
  const Database = loaded.driver.default;
  return {
    ok: true,
    driver: {
      name: 'better-sqlite3',
      keepsNulInText: true,
      open: (path) => wrapDatabase(new Database(path)),
      isUniqueViolation: (error) => UNIQUE_VIOLATIONS.has((error as { code?: string } | undefined)?.code ?? ''),
    },
  };
}

/** Why `version` of better-sqlite3 must not be loaded on Node `node`, as the rest of a sentence; or undefined. */
export function crashesOnThisNode(version: string, node: string): string | undefined {
  const [major = 0] = version.split('.').map(Number);
  const [nodeMajor = 0, nodeMinor = 0] = node.split('.').map(Number);
  if (major >= 13 && nodeMajor < 22) {
    return `needs Node 22 or later (on Node ${node} it crashes the process when loaded): install better-sqlite3@12 (\`npm install better-sqlite3@12\`)`;
  }
  if (major <= 12 && (nodeMajor > 24 || (nodeMajor === 24 && nodeMinor >= 19))) {
    return (
      `aborts the process on Node ${node} (from Node 24.19 its prepared statements crash Node when they are garbage-collected): ` +
      'use the SQLite built into Node (node:sqlite, the default: drop driver=better-sqlite3), or install better-sqlite3@13 (`npm install better-sqlite3@13`)'
    );
  }
  return undefined;
}

/** The version in the installed package's package.json, resolved as `import` would; undefined when not installed. */
export function installedVersion(packageName: string = BETTER_SQLITE3): string | undefined {
  try {
    return (createRequire(import.meta.url)(`${packageName}/package.json`) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function wrapDatabase(db: BetterSqlite3Database): SqliteDatabase {
  return {
    exec: (sql) => void db.exec(sql),
    prepare<Row>(sql: string): SqliteStatement<Row> {
      const statement = db.prepare(sql);
      return {
        run: (...params) => ({ changes: statement.run(...params).changes }),
        get: (...params) => statement.get(...params) as Row | undefined,
        all: (...params) => statement.all(...params) as Row[],
      };
    },
    close: () => void db.close(),
  };
}
