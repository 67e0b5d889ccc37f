/**
 * Schema versions of the SQL stores. Each engine has its own ordered list of migrations (their DDL differs);
 * what they share is the bookkeeping: a `sop_schema_migrations` table with one row per applied migration, the
 * plan of what to apply on open, and a clear refusal when the database was migrated by a newer sop-toolkit
 * (running old code on a newer schema could write what the newer code cannot read).
 */

export interface Migration {
  /** 1, 2, 3, …: applied in order, each once. */
  readonly version: number;
  /** What it does, for the bookkeeping row and for people reading the table. */
  readonly name: string;
  readonly statements: readonly string[];
}

export type MigrationPlan = { readonly ok: true; readonly pending: readonly Migration[] } | { readonly ok: false; readonly error: string };

/** Valid on both engines; created before anything else is looked at. */
export const MIGRATIONS_TABLE_DDL = 'CREATE TABLE IF NOT EXISTS sop_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)';
export const CURRENT_SCHEMA_VERSION_SQL = 'SELECT COALESCE(MAX(version), 0) AS version FROM sop_schema_migrations';
export const RECORD_MIGRATION_SQL = {
  sqlite: 'INSERT INTO sop_schema_migrations (version, name) VALUES (?, ?)',
  postgres: 'INSERT INTO sop_schema_migrations (version, name) VALUES ($1, $2)',
} as const;

/** What to apply to a database at schema version `current`. */
export function planMigrations(engine: string, migrations: readonly Migration[], current: number): MigrationPlan {
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    return {
      ok: false,
      error:
        `the ${engine} run store's schema is at version ${current}, newer than this sop-toolkit knows (${latest}): ` +
        'upgrade sop-toolkit on every instance that shares the store, or point this one at another store',
    };
  }
  return { ok: true, pending: migrations.filter((migration) => migration.version > current) };
}
