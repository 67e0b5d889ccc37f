/** `--store URL` → a store: the forms accepted, where a relative SQLite path lands, and what anything else gets. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DURABLE_STORE, describeStoreLocation, openRunStore, parseStoreUrl } from '../../../runtime/store/open-run-store.js';

const root = mkdtempSync(join(tmpdir(), 'sop-open-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('parseStoreUrl', () => {
  it.each([
    ['memory', { kind: 'memory' }],
    [' memory ', { kind: 'memory' }],
    [DEFAULT_DURABLE_STORE, { kind: 'sqlite', path: join(root, '.sop', 'runs.db'), synchronous: 'NORMAL', driver: 'auto' }],
    ['sqlite:runs.db', { kind: 'sqlite', path: join(root, 'runs.db'), synchronous: 'NORMAL', driver: 'auto' }],
    ['sqlite:/var/lib/sop/runs.db', { kind: 'sqlite', path: '/var/lib/sop/runs.db', synchronous: 'NORMAL', driver: 'auto' }],
    ['sqlite:./runs.db?synchronous=full', { kind: 'sqlite', path: join(root, 'runs.db'), synchronous: 'FULL', driver: 'auto' }],
    ['sqlite:./runs.db?synchronous=NORMAL', { kind: 'sqlite', path: join(root, 'runs.db'), synchronous: 'NORMAL', driver: 'auto' }],
    [
      'sqlite:./runs.db?driver=better-sqlite3&synchronous=full',
      { kind: 'sqlite', path: join(root, 'runs.db'), synchronous: 'FULL', driver: 'better-sqlite3' },
    ],
    ['sqlite:./runs.db?driver=node:sqlite', { kind: 'sqlite', path: join(root, 'runs.db'), synchronous: 'NORMAL', driver: 'node:sqlite' }],
    ['postgres://sop@db:5432/runs', { kind: 'postgres', url: 'postgres://sop@db:5432/runs' }],
    ['postgresql://sop@db/runs?sslmode=require', { kind: 'postgres', url: 'postgresql://sop@db/runs?sslmode=require' }],
  ])('%s', (url, location) => {
    expect(parseStoreUrl(url, root)).toEqual({ ok: true, location });
  });

  it.each([
    [
      'redis://localhost',
      /^unknown store 'redis:\/\/localhost': use `memory`, `sqlite:PATH` .* or `postgres:\/\/user:password@host:port\/database`$/,
    ],
    ['', /^unknown store '': use/],
    ['sqlite', /^unknown store 'sqlite': use/],
    ['sqlite:', /^a sqlite: store needs a file path, e.g. sqlite:\.\/\.sop\/runs\.db$/],
    [
      'sqlite:./runs.db?synchronous=off',
      /^unknown sqlite: option 'synchronous=off': the options are synchronous=normal \(default\) or synchronous=full, and driver=node:sqlite \(the default where Node has it\) or driver=better-sqlite3$/,
    ],
    ['sqlite:./runs.db?cache=shared', /^unknown sqlite: option 'cache=shared'/],
    ['sqlite:./runs.db?driver=sqlite3', /^unknown sqlite: option 'driver=sqlite3'/],
  ])('refuses %j', (url, error) => {
    expect(parseStoreUrl(url, root)).toEqual({ ok: false, error: expect.stringMatching(error) });
  });
});

describe('describeStoreLocation', () => {
  it('names a store as a message should: absolute SQLite path, PostgreSQL without its password', () => {
    const describe = (url: string) => {
      const parsed = parseStoreUrl(url, root);
      return parsed.ok ? describeStoreLocation(parsed.location) : parsed.error;
    };
    expect(describe('memory')).toBe('memory');
    expect(describe('sqlite:runs.db')).toBe(`sqlite:${join(root, 'runs.db')}`);
    expect(describe('postgres://sop:s3cret@db:5432/runs')).toBe('postgres://sop:***@db:5432/runs');
    expect(describe('postgres://sop@db/runs')).toBe('postgres://sop@db/runs');
  });
});

describe('openRunStore', () => {
  it('opens the memory store', async () => {
    const opened = await openRunStore('memory', { root });
    expect(opened.ok && opened.store.kind).toBe('memory');
  });

  it('opens a SQLite file relative to the app root, creating its folder', async () => {
    const opened = await openRunStore(DEFAULT_DURABLE_STORE, { root });
    expect(opened.ok && opened.store.kind).toBe('sqlite');
    if (opened.ok) await opened.store.close();
    expect(existsSync(join(root, '.sop', 'runs.db'))).toBe(true);
  });

  it('answers anything else with the valid forms', async () => {
    expect(await openRunStore('mysql://db/runs', { root })).toEqual({
      ok: false,
      error: expect.stringMatching(/^unknown store 'mysql:\/\/db\/runs': use `memory`/),
    });
  });
});
