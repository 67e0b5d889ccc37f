/** The retail server's command line, parsed into options or a usage error (never a thrown exception). */
import { type Outcome, ok, refuse } from './outcome.js';

export interface RetailCliOptions {
  readonly http: boolean;
  /** Over HTTP, serve the 2025 era only, as a server built on the SDK's v1 line does. */
  readonly legacyOnly: boolean;
  readonly port: number;
  readonly db: string | undefined;
  readonly help: boolean;
}

export const DEFAULT_PORT = 3100;

export const USAGE = `usage: node dist/examples/retail-tools/main.js [--http [--port N] [--legacy-only]] [--db FILE]

  (no flag)    serve MCP on stdin/stdout, one conversation per process
  --http       serve MCP over Streamable HTTP at http://127.0.0.1:PORT/mcp; prints "listening PORT" when ready
  --port N     the HTTP port (default ${DEFAULT_PORT}; 0 picks a free one)
  --legacy-only  over HTTP, speak the 2025 protocol era only (sessions after initialize), as servers built on the
               SDK's v1 line do: a 2026-07-28 request is answered as such a server answers it
  --db FILE    keep the database in FILE (created from the seed when missing), saved after every change;
               without it (and without RETAIL_TOOLS_DB) the database is in memory, loaded from the seed

database (environment): RETAIL_TOOLS_DB=FILE, as --db FILE when the flag is not given (a SOP's mcp_servers
entry passes it as env: { RETAIL_TOOLS_DB: "\${RETAIL_TOOLS_DB:-}" })

fault injection (environment): RETAIL_TOOLS_DELAY_MS, RETAIL_TOOLS_HANG_ON, RETAIL_TOOLS_CRASH_ON;
SIGUSR2 toggles the extra tool get_store_hours and sends notifications/tools/list_changed`;

export function parseCliArgs(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>> = {},
): Outcome<RetailCliOptions> {
  let http = false;
  let legacyOnly = false;
  let port: number | undefined;
  let db: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = (): string | undefined => {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return undefined;
      i++;
      return next;
    };
    if (arg === '--http') http = true;
    else if (arg === '--legacy-only') legacyOnly = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--port') {
      const text = value();
      const number = Number(text);
      if (text === undefined || !/^\d+$/.test(text) || number > 65535)
        return refuse(`--port needs a port number from 0 to 65535, not ${text ?? 'nothing'}`);
      port = number;
    } else if (arg === '--db') {
      db = value();
      if (db === undefined) return refuse('--db needs a file name');
    } else {
      return refuse(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  if (port !== undefined && !http) return refuse('--port needs --http (over stdio there is no port)');
  if (legacyOnly && !http) return refuse('--legacy-only needs --http (over stdio the client picks the era)');
  const fromEnvironment = environment['RETAIL_TOOLS_DB'];
  return ok({
    http,
    legacyOnly,
    port: port ?? DEFAULT_PORT,
    db: db ?? (fromEnvironment === undefined || fromEnvironment === '' ? undefined : fromEnvironment),
    help,
  });
}
