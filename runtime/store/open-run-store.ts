/**
 * `--store URL` → a `RunStore`. The forms:
 *
 *   memory                          nothing survives the process (stdio's default, tests)
 *   sqlite:PATH[?synchronous=full][&driver=node:sqlite|better-sqlite3]
 *                                   one file; a relative PATH resolves from the app root (HTTP's default is
 *                                   `sqlite:./.sop/runs.db`); `full` fsyncs every commit (see sqlite-run-store.ts);
 *                                   the driver is node:sqlite where Node has it, unless another is asked for
 *   postgres://… | postgresql://…   a PostgreSQL database shared by several instances
 *
 * Anything else, a driver that is not installed, or an engine that cannot be reached is an error value naming
 * the problem and the valid forms; the drivers are imported only for the store that needs them.
 */
import { isAbsolute, resolve } from 'node:path';
import type { StoreErrorReporter } from './change-listeners.js';
import { createMemoryRunStore } from './memory-run-store.js';
import { redactUrl } from './redact-url.js';
import type { RunStore } from './run-store.js';
import type { SqliteDriverChoice } from './sqlite-driver.js';

/** What `sop serve --http` and `sop runs` use when no `--store` is given. */
export const DEFAULT_DURABLE_STORE = 'sqlite:./.sop/runs.db';

export const STORE_FORMS = '`memory`, `sqlite:PATH` (e.g. sqlite:./.sop/runs.db) or `postgres://user:password@host:port/database`';

export type StoreLocation =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string; readonly synchronous: 'NORMAL' | 'FULL'; readonly driver: SqliteDriverChoice }
  | { readonly kind: 'postgres'; readonly url: string };

export type StoreUrlParse = { readonly ok: true; readonly location: StoreLocation } | { readonly ok: false; readonly error: string };

export interface OpenRunStoreOptions {
  /** The app root: where a relative `sqlite:` path starts. */
  readonly root: string;
  /** Where a store reports background failures (default: the runtime's stderr logger). */
  readonly onError?: StoreErrorReporter;
}

export type RunStoreOpen = { readonly ok: true; readonly store: RunStore } | { readonly ok: false; readonly error: string };

export function parseStoreUrl(url: string, root: string): StoreUrlParse {
  const trimmed = url.trim();
  if (trimmed === 'memory') return { ok: true, location: { kind: 'memory' } };
  if (/^postgres(?:ql)?:\/\//i.test(trimmed)) return { ok: true, location: { kind: 'postgres', url: trimmed } };
  if (trimmed.toLowerCase().startsWith('sqlite:')) return parseSqlite(trimmed.slice('sqlite:'.length), root);
  return { ok: false, error: `unknown store '${url}': use ${STORE_FORMS}` };
}

function parseSqlite(rest: string, root: string): StoreUrlParse {
  const query = rest.indexOf('?');
  const file = query === -1 ? rest : rest.slice(0, query);
  if (file === '') return { ok: false, error: `a sqlite: store needs a file path, e.g. ${DEFAULT_DURABLE_STORE}` };
  let synchronous: 'NORMAL' | 'FULL' = 'NORMAL';
  let driver: SqliteDriverChoice = 'auto';
  for (const [key, value] of new URLSearchParams(query === -1 ? '' : rest.slice(query + 1))) {
    const level = value.toUpperCase();
    if (key === 'synchronous' && (level === 'NORMAL' || level === 'FULL')) synchronous = level;
    else if (key === 'driver' && (value === 'node:sqlite' || value === 'better-sqlite3')) driver = value;
    else {
      return {
        ok: false,
        error:
          `unknown sqlite: option '${key}=${value}': the options are synchronous=normal (default) or synchronous=full, ` +
          'and driver=node:sqlite (the default where Node has it) or driver=better-sqlite3',
      };
    }
  }
  return { ok: true, location: { kind: 'sqlite', path: isAbsolute(file) ? file : resolve(root, file), synchronous, driver } };
}

/** The store as a message names it (a PostgreSQL password is masked). */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === 'memory') return 'memory';
  if (location.kind === 'sqlite') return `sqlite:${location.path}`;
  return redactUrl(location.url);
}

export async function openRunStore(url: string, options: OpenRunStoreOptions): Promise<RunStoreOpen> {
  const parsed = parseStoreUrl(url, options.root);
  if (!parsed.ok) return parsed;
  const { location } = parsed;
  const onError = options.onError === undefined ? {} : { onError: options.onError };
  switch (location.kind) {
    case 'memory':
      return { ok: true, store: createMemoryRunStore(onError) };
    case 'sqlite': {
      const { openSqliteRunStore } = await import('./sqlite-run-store.js');
      return openSqliteRunStore({ path: location.path, synchronous: location.synchronous, driver: location.driver, ...onError });
    }
    case 'postgres': {
      const { openPostgresRunStore } = await import('./postgres-run-store.js');
      return openPostgresRunStore({ url: location.url, ...onError });
    }
  }
}
