/**
 * The node:sqlite driver: SQLite built into Node (22.13 and later without a flag), so the SQLite run store needs
 * nothing installed and nothing compiled. Loaded with `process.getBuiltinModule`, which answers undefined where
 * the module does not exist (Node 20) instead of failing an import, and which no bundler or test runner rewrites.
 *
 * Node 22's node:sqlite reads text back only up to its first U+0000 (it binds such text whole; Node 24 reads it
 * whole too). Where a probe at load finds that, this driver replaces U+0000 in every text it binds by U+FFFD, as
 * the PostgreSQL store does: what is stored then reads back as stored, and a look-up finds what a write wrote.
 *
 * Node 22 marks the module experimental and prints an ExperimentalWarning when it is first loaded (Node 24 does
 * not). The store uses only the part of its API that has not changed since 22.13 and is tested on 22 and 24
 * (see `sqlite-driver.ts`), so that one warning is kept off the server's stderr: while the module loads, and
 * only then, a warning of type ExperimentalWarning that names SQLite is dropped; every other warning passes.
 */
import type { SqliteDatabase, SqliteDriver, SqliteStatement, SqliteValue } from './sqlite-driver.js';

/** The part of node:sqlite this driver uses (the repository's @types/node is Node 20's, which has none). */
interface NodeSqliteModule {
  readonly DatabaseSync: new (path: string) => NodeSqliteDatabase;
}

interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
}

interface NodeSqliteStatement {
  run(...params: SqliteValue[]): { changes: number | bigint };
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
}

/** SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE (extended result codes). */
const UNIQUE_VIOLATIONS = new Set([1555, 2067]);

/** node:sqlite, or undefined where this Node has none. */
export function loadNodeSqlite(): SqliteDriver | undefined {
  const module = withoutSqliteExperimentalWarning(() => {
    try {
      return process.getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined;
    } catch {
      // Node 22.5–22.12 without --experimental-sqlite know the name but refuse to load it.
      return undefined;
    }
  });
  if (module === undefined || typeof module.DatabaseSync !== 'function') return undefined;
  const { DatabaseSync } = module;
  const keepsNulInText = readsNulBack(new DatabaseSync(':memory:'));
  const bind = keepsNulInText ? (params: SqliteValue[]) => params : withoutNul;
  return {
    name: 'node:sqlite',
    keepsNulInText,
    open: (path) => wrapDatabase(new DatabaseSync(path), bind),
    isUniqueViolation: (error) => UNIQUE_VIOLATIONS.has((error as { errcode?: number } | undefined)?.errcode ?? 0),
  };
}

function wrapDatabase(db: NodeSqliteDatabase, bind: (params: SqliteValue[]) => SqliteValue[]): SqliteDatabase {
  return {
    exec: (sql) => db.exec(sql),
    prepare<Row>(sql: string): SqliteStatement<Row> {
      const statement = db.prepare(sql);
      return {
        run: (...params) => ({ changes: Number(statement.run(...bind(params)).changes) }),
        get: (...params) => statement.get(...bind(params)) as Row | undefined,
        all: (...params) => statement.all(...bind(params)) as Row[],
      };
    },
    close: () => db.close(),
  };
}

function readsNulBack(db: NodeSqliteDatabase): boolean {
  try {
    return (db.prepare("SELECT 'a' || char(0) || 'b' AS text").get() as { text: string }).text === 'a\u0000b';
  } finally {
    db.close();
  }
}

function withoutNul(params: SqliteValue[]): SqliteValue[] {
  return params.some((value) => typeof value === 'string' && value.includes('\u0000'))
    ? params.map((value) => (typeof value === 'string' ? value.replaceAll('\u0000', '\uFFFD') : value))
    : params;
}

function withoutSqliteExperimentalWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && /\bSQLite\b/.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}
