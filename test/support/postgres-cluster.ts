/**
 * A real PostgreSQL cluster for tests (and benches), started from the binaries of Debian's `postgresql`
 * package: `initdb` into a fresh temp folder, `pg_ctl start` on a free port of 127.0.0.1 with its socket folder
 * inside that temp folder and trust authentication, `pg_ctl stop -m immediate` at the end. PostgreSQL refuses
 * to run as root, so as root both run as the package's unprivileged `postgres` user (`runuser`) on a folder it
 * owns. Nothing here depends on vitest: a test file starts one cluster in `beforeAll` and stops it in
 * `afterAll`; a bench or a multi-process test can do the same and hand `url()` to the servers it spawns.
 *
 * A cluster that cannot start rejects with why (no binaries: how to install them; initdb or the server failing:
 * the end of its log). A process that exits without calling `stop()` still stops its cluster (an exit hook).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresClusterOptions {
  /**
   * fsync at commit (default off: a test cluster need not survive a power cut, and tests run faster). Turn it
   * on to measure what a production server pays.
   */
  readonly fsync?: boolean;
  /** More server settings (`-c name=value`). */
  readonly settings?: Readonly<Record<string, string>>;
}

export interface PostgresCluster {
  readonly host: string;
  readonly port: number;
  /** The temp folder holding the data directory, the socket folder and the server log. */
  readonly dir: string;
  /** The URL of a database of this cluster (default `postgres`). */
  url(database?: string): string;
  /** Creates an empty database (a fresh name unless given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /**
   * Creates an empty schema in the `postgres` database and returns a URL whose connections use it (`search_path`
   * in the startup options): as isolated for a store as a database of its own, and much cheaper to make.
   */
  createSchema(): Promise<{ readonly url: string; readonly schema: string }>;
  /** Runs one statement as the superuser on `database` (default `postgres`), on its own connection. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: readonly unknown[], database?: string): Promise<R[]>;
  /** The server log so far (for failure messages). */
  log(): string;
  /** `pg_ctl stop -m immediate`, then removes the temp folder. Idempotent. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const SUPERUSER = 'postgres';
const START_ATTEMPTS = 3;

export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  const runAs = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'sop-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sock');
  const logFile = join(dir, 'server.log');
  mkdirSync(sockets);
  if (runAs !== undefined) for (const path of [dir, sockets]) chownSync(path, runAs.uid, runAs.gid);
  const run = (tool: string, args: readonly string[]) => runTool(runAs, join(bin, tool), args, dir);
  const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

  try {
    await run('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL test cluster: initdb failed: ${(error as Error).message}`);
  }

  let port = 0;
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    const settings = {
      listen_addresses: HOST,
      fsync: options.fsync === true ? 'on' : 'off',
      full_page_writes: options.fsync === true ? 'on' : 'off',
      ...options.settings,
    };
    const serverArgs = [`-p ${port}`, `-k ${sockets}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
    try {
      await run('pg_ctl', ['start', '-D', data, '-l', logFile, '-w', '-t', '60', '-o', serverArgs]);
      break;
    } catch (error) {
      // Another process may have taken the port between our probe and the server's bind: try another.
      if (attempt < START_ATTEMPTS && /could not bind|Address already in use/i.test(readLog())) continue;
      await run('pg_ctl', ['stop', '-D', data, '-m', 'immediate']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PostgreSQL test cluster: the server did not start: ${(error as Error).message}\n${tail(readLog())}`);
    }
  }

  let stopped: Promise<void> | undefined;
  const stopNow = () => {
    try {
      execFileSync(...commandFor(runAs, join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate', '-w']), { cwd: dir, stdio: 'ignore' });
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopNow);
  let databases = 0;
  let schemas = 0;

  const url = (database = 'postgres') => `postgres://${SUPERUSER}@${HOST}:${port}/${database}`;
  const query = async <R extends pg.QueryResultRow>(sql: string, values: readonly unknown[] = [], database?: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<R>(sql, [...values])).rows;
    } finally {
      await client.end();
    }
  };

  return {
    host: HOST,
    port,
    dir,
    url,
    query,
    async createDatabase(name) {
      databases += 1;
      const database = name ?? `t${databases}_${process.pid}`;
      await query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
      return url(database);
    },
    async createSchema() {
      schemas += 1;
      const schema = `s${schemas}_${process.pid}`;
      await query(`CREATE SCHEMA ${pg.escapeIdentifier(schema)}`);
      return { url: `${url()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, schema };
    },
    log: readLog,
    stop() {
      stopped ??= (async () => {
        process.off('exit', stopNow);
        try {
          await run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })();
      return stopped;
    },
  };
}

/** `/usr/lib/postgresql/<newest>/bin`, or `SOP_POSTGRES_BIN`. */
export function findPostgresBin(): string {
  const given = process.env.SOP_POSTGRES_BIN;
  if (given !== undefined && given !== '') {
    if (!existsSync(join(given, 'initdb'))) throw new Error(`PostgreSQL test cluster: SOP_POSTGRES_BIN=${given} has no initdb`);
    return given;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      'PostgreSQL test cluster: no initdb under /usr/lib/postgresql/*/bin. Install the server binaries ' +
        '(`apt-get install -y postgresql`, which .ci/run does), or set SOP_POSTGRES_BIN to the folder holding initdb and pg_ctl.',
    );
  }
  return join(root, newest, 'bin');
}

interface User {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** As root, the `postgres` user to run as; otherwise undefined (we already are unprivileged). */
function unprivilegedUser(): User | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim());
    return { name: SUPERUSER, uid, gid };
  } catch {
    throw new Error(
      'PostgreSQL test cluster: running as root, and PostgreSQL refuses to; there is no `postgres` user to run it as ' +
        "(Debian's postgresql package creates it: `apt-get install -y postgresql`).",
    );
  }
}

function commandFor(user: User | undefined, tool: string, args: readonly string[]): [string, string[]] {
  return user === undefined ? [tool, [...args]] : ['runuser', ['-u', user.name, '--', tool, ...args]];
}

function runTool(user: User | undefined, tool: string, args: readonly string[], cwd: string): Promise<string> {
  const [command, argv] = commandFor(user, tool, args);
  return new Promise((resolve, reject) => {
    execFile(
      command,
      argv,
      { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, timeout: 90_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${tool.split('/').at(-1)} ${args[0] ?? ''}: ${(stderr || stdout || error.message).trim()}`));
        else resolve(stdout);
      },
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function tail(log: string): string {
  return log.split('\n').slice(-15).join('\n');
}
