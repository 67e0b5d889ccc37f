/**
 * `sop serve`: serve the app's compiled agents (`sop-bundle.json` in the build's output folder, `generated/` unless
 * `--out` or `sop.config.json` say otherwise, under the app root found from the working directory) over MCP, on stdio (default: one conversation, stdout carries protocol messages only) or
 * Streamable HTTP (`--http`, 127.0.0.1:3000 unless `--host`/`--port` say otherwise). Resolves when the
 * conversation ends (stdin closed) or on SIGINT/SIGTERM.
 *
 * The bundle is JSON: no TypeScript, no module loader and no compiler at run time. A tree where the SOPs were
 * never built gets a clear message (exit 1). Only the chosen transport is imported: stdio never loads express.
 *
 * The process is assembled by `runtime/serve/start-sop-server.ts` (store, agents, domain servers in gateway mode,
 * the session service and the transport); this module reads the flags (`../command-args.ts`, as every command
 * does), finds the agents and prints. While serving, a rebuild that replaces the bundle is picked up (new runs
 * start on it, running runs keep their version).
 * `--gateway` also connects to the domain servers the SOPs name and decides every domain call on its run.
 *
 * Exit codes: 0 served and stopped; 1 nothing to serve, the port is taken, or the server refused to start
 * (e.g. a network address without authentication); 2 bad usage.
 */
import type { SopBundle } from '../../contract/compiled-sop.js';
import type { BundleOrigin } from '../../runtime/agents/agent-source.js';
import { readBundle } from '../../contract/read-bundle.js';
import { stderrLogger } from '../../runtime/support/logger.js';
import { type HttpServing, startSopServer } from '../../runtime/serve/start-sop-server.js';
import { DEFAULT_DURABLE_STORE } from '../../runtime/store/open-run-store.js';
import { duration, parseCommandArgs, showUsage, usageError, wholeNumber } from '../command-args.js';
import { bundleFile, locateProject } from '../config.js';
import { inspect } from 'node:util';
import { DEFAULT_INSPECT_VIEWS, parseInspectViews } from '../../runtime/tools/inspect/inspect-tool.js';
import type { InspectViewName } from '../../runtime/tools/inspect/inspect-view.js';
import { findProjectRoot } from '../project-root.js';

const USAGE = `Usage: sop serve [--stdio | --http [--host H] [--port N]] [options]
  --stdio            (default) speak MCP on stdin/stdout
  --http             Streamable HTTP at http://H:N/mcp
  --gateway          also offer the tools of the domain servers the SOPs name (mcp_servers), and forward a
                     call only where the run's current node allows it (evidence and confirmations included);
                     give the agent this server instead of the domain servers
  --observe          with --gateway: forward every call of a SOP's tool, and every legal move, wherever the run
                     stands, and audit what enforcement would have decided (sop runs report sums it): roll out first
  --host H           interface to bind (default 127.0.0.1; any other needs --tokens or --oauth-*)
  --port N           port (default 3000; 0 picks a free one)
  --store URL        where runs live: memory (stdio default: nothing survives the process), sqlite:PATH
                     (--http default: sqlite:./.sop/runs.db under the app root; ?synchronous=full fsyncs each
                     commit), postgres://user:password@host:port/db (several instances share the runs)
  --run-ttl T        runs idle longer than T expire (default 24h; e.g. 90s, 30m, 7d)
  --max-sessions N   live sessions this process accepts at most (default 10000)
  --tokens FILE      bearer tokens, one "principal token" per line (HTTP)
  --oauth-issuer URL --oauth-introspection URL --oauth-client-id ID
                     OAuth resource-server mode: tokens checked by introspection (client secret in
                     SOP_OAUTH_CLIENT_SECRET); --oauth-resource URL is this server's URL (default: its /mcp URL)
  --agents A,B       serve only these agents of the bundle (default: all)
  --out DIR          the build's output folder holding sop-bundle.json (default: "out" of sop.config.json, or generated)
  --no-watch         do not pick up rebuilt agents while running
  --migrate-runs     on start, move every agent's runs to the version served where they can move (as
                     sop runs migrate does; the others stay on theirs), and log what happened to each
  --inspect VIEWS    views of the read-only inspect tool: where,agents,nodes,search,diagram,validate,
                     or all, or none (default: where)
  --no-validate      never offer inspect's validate view (it runs the compiler on request)
  --page-tokens FILE read-only tokens for the runs page at /runs, one "principal token" per line (HTTP);
                     needed whenever the server authenticates, else the page is off
  --no-page          do not serve the runs page
`;

export interface HttpArgs {
  readonly host: string;
  readonly port: number;
  readonly tokens?: string;
  readonly oauth?: { readonly issuer: string; readonly introspectionUrl: string; readonly clientId: string; readonly resource?: string };
  readonly pageTokens?: string;
  readonly page?: false;
}

export interface ServeOptions {
  readonly gateway?: boolean;
  readonly observe?: boolean;
  readonly migrateRuns?: boolean;
  readonly agents?: readonly string[];
  readonly runIdleMs?: number;
  readonly maxLiveSessions?: number;
  readonly watch: boolean;
  readonly out?: string;
  readonly store?: string;
  /** The views of the inspect tool, when the flags chose them. */
  readonly inspectViews?: readonly InspectViewName[];
}

export type ServeArgs =
  | ({ readonly mode: 'stdio' } & ServeOptions)
  | ({ readonly mode: 'http' } & HttpArgs & ServeOptions)
  | { readonly mode: 'help' }
  | { readonly mode: 'error'; readonly message: string };

const COMMAND = { name: 'serve', usage: USAGE };

const OPTIONS = {
  stdio: { type: 'boolean' },
  http: { type: 'boolean' },
  gateway: { type: 'boolean' },
  observe: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  store: { type: 'string' },
  'run-ttl': { type: 'string' },
  'max-sessions': { type: 'string' },
  tokens: { type: 'string' },
  'oauth-issuer': { type: 'string' },
  'oauth-introspection': { type: 'string' },
  'oauth-client-id': { type: 'string' },
  'oauth-resource': { type: 'string' },
  agents: { type: 'string' },
  out: { type: 'string' },
  'no-watch': { type: 'boolean' },
  'migrate-runs': { type: 'boolean' },
  inspect: { type: 'string' },
  'no-validate': { type: 'boolean' },
  'page-tokens': { type: 'string' },
  'no-page': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Flags that take a value, and what to say when one is given none (the others: `--flag needs a value`). */
const NO_VALUE: Readonly<Record<string, string>> = {
  '--port': '--port needs a number from 0 to 65535, got nothing',
  '--run-ttl': '--run-ttl needs a duration such as 90s, 30m, 24h or 7d, got nothing',
  '--max-sessions': '--max-sessions needs a positive number, got nothing',
  '--out': '--out needs a folder',
};

export function parseServeArgs(args: readonly string[]): ServeArgs {
  const parsed = parseCommandArgs(args, { options: OPTIONS, allowPositionals: true });
  if (parsed === 'help') return { mode: 'help' };
  if ('problem' in parsed) {
    const message =
      parsed.unknown !== undefined
        ? `unknown option ${parsed.unknown}`
        : parsed.missingValue !== undefined
          ? (NO_VALUE[parsed.missingValue] ?? `${parsed.missingValue} needs a value`)
          : parsed.problem;
    return { mode: 'error', message };
  }
  const { values, positionals } = parsed;
  const error = (message: string): ServeArgs => ({ mode: 'error', message });
  if (positionals.length > 0) return error(`unknown option ${positionals[0]}`);
  if (values.stdio === true && values.http === true) return error('choose one of --stdio and --http');
  const transport = values.http === true ? 'http' : values.stdio === true ? 'stdio' : undefined;
  for (const name of [
    'host',
    'tokens',
    'oauth-issuer',
    'oauth-introspection',
    'oauth-client-id',
    'oauth-resource',
    'agents',
    'store',
    'inspect',
    'page-tokens',
    'out',
  ] as const) {
    if (values[name] === '') return error(NO_VALUE[`--${name}`] ?? `--${name} needs a value`);
  }
  const { host, tokens, store, out } = values;
  const port = values.port === undefined ? undefined : wholeNumber(values.port, 0, 65535);
  if (port === undefined && values.port !== undefined) return error(`--port needs a number from 0 to 65535, got ${values.port}`);
  const runIdleMs = values['run-ttl'] === undefined ? undefined : duration(values['run-ttl']);
  if (runIdleMs === undefined && values['run-ttl'] !== undefined)
    return error(`--run-ttl needs a duration such as 90s, 30m, 24h or 7d, got ${values['run-ttl']}`);
  const maxLiveSessions = values['max-sessions'] === undefined ? undefined : wholeNumber(values['max-sessions'], 1);
  if (maxLiveSessions === undefined && values['max-sessions'] !== undefined)
    return error(`--max-sessions needs a positive number, got ${values['max-sessions']}`);
  const oauth: { issuer?: string; introspectionUrl?: string; clientId?: string; resource?: string } = {
    ...(values['oauth-issuer'] === undefined ? {} : { issuer: values['oauth-issuer'] }),
    ...(values['oauth-introspection'] === undefined ? {} : { introspectionUrl: values['oauth-introspection'] }),
    ...(values['oauth-client-id'] === undefined ? {} : { clientId: values['oauth-client-id'] }),
    ...(values['oauth-resource'] === undefined ? {} : { resource: values['oauth-resource'] }),
  };
  const agents = values.agents
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (agents?.length === 0) return error('--agents needs agent names, e.g. --agents retail_customer_support');
  const views = values.inspect === undefined ? undefined : parseInspectViews(values.inspect);
  if (views !== undefined && 'error' in views) return error(`--inspect: ${views.error}`);
  const inspectViews: readonly InspectViewName[] | undefined = views;
  const watch = values['no-watch'] !== true;
  const noValidate = values['no-validate'] === true;
  const page = values['no-page'] !== true;
  const pageTokens = values['page-tokens'];
  const gateway = values.gateway === true;
  const observe = values.observe === true;
  const migrateRuns = values['migrate-runs'] === true;
  if (observe && !gateway) return error('--observe observes the gateway: add --gateway');
  const common: ServeOptions = {
    watch,
    ...(gateway ? { gateway } : {}),
    ...(observe ? { observe } : {}),
    ...(migrateRuns ? { migrateRuns } : {}),
    ...(agents === undefined ? {} : { agents }),
    ...(out === undefined ? {} : { out }),
    ...(store === undefined ? {} : { store }),
    ...(runIdleMs === undefined ? {} : { runIdleMs }),
    ...(maxLiveSessions === undefined ? {} : { maxLiveSessions }),
    ...(inspectViews === undefined && !noValidate
      ? {}
      : { inspectViews: (inspectViews ?? DEFAULT_INSPECT_VIEWS).filter((view) => !noValidate || view !== 'validate') }),
  };
  const pageFlags = pageTokens !== undefined || !page;
  if (pageTokens !== undefined && !page) return error('choose one of --page-tokens and --no-page');
  const httpOnly = host !== undefined || port !== undefined || tokens !== undefined || Object.keys(oauth).length > 0;
  if (transport === 'stdio' && httpOnly) return error('--host, --port, --tokens and --oauth-* apply to --http only');
  if (transport !== 'http' && !httpOnly) {
    if (pageFlags) return error('--page-tokens and --no-page apply to --http only');
    return { mode: 'stdio', ...common };
  }
  const oauthGiven = Object.keys(oauth).length > 0;
  if (oauthGiven && (oauth.issuer === undefined || oauth.introspectionUrl === undefined || oauth.clientId === undefined)) {
    return error('OAuth needs --oauth-issuer, --oauth-introspection and --oauth-client-id');
  }
  if (oauthGiven && tokens !== undefined) return error('choose one of --tokens and --oauth-*');
  return {
    mode: 'http',
    host: host ?? '127.0.0.1',
    port: port ?? 3000,
    ...common,
    ...(tokens === undefined ? {} : { tokens }),
    ...(pageTokens === undefined ? {} : { pageTokens }),
    ...(page ? {} : { page: false as const }),
    ...(oauthGiven
      ? {
          oauth: {
            issuer: oauth.issuer as string,
            introspectionUrl: oauth.introspectionUrl as string,
            clientId: oauth.clientId as string,
            ...(oauth.resource === undefined ? {} : { resource: oauth.resource }),
          },
        }
      : {}),
  };
}

export interface RunServeOptions {
  /** Serve these agents instead of reading `sop-bundle.json` (the one-file server of `sop bundle` inlines them). */
  readonly bundle?: SopBundle;
}

type AgentsFound =
  | { readonly ok: true; readonly projectRoot: string; readonly origin: BundleOrigin }
  | { readonly ok: false; readonly error: string; readonly exitCode: 1 | 2 };

/** The app root (for `load_graph {sop_file}`) and the agents: inlined, or the build's bundle under the app root. */
function findAgents(args: ServeOptions, inlined: SopBundle | undefined): AgentsFound {
  if (inlined !== undefined) {
    if (args.out !== undefined) return { ok: false, error: 'this server has its agents built in: --out does not apply', exitCode: 2 };
    return { ok: true, projectRoot: findProjectRoot(process.cwd()), origin: { bundle: inlined } };
  }
  const located = locateProject(process.cwd(), { out: args.out });
  if (!located.ok) return { ...located, exitCode: 2 };
  const bundlePath = bundleFile(located.paths);
  const read = readBundle(bundlePath);
  if (!read.ok) return { ...read, exitCode: 1 };
  return { ok: true, projectRoot: located.paths.root, origin: { bundlePath, initial: read.bundle, watch: args.watch } };
}

export async function runServe(args: readonly string[], options: RunServeOptions = {}): Promise<number> {
  const parsed = parseServeArgs(args);
  if (parsed.mode === 'help') return showUsage(COMMAND);
  if (parsed.mode === 'error') return usageError(COMMAND, parsed.message);
  const found = findAgents(parsed, options.bundle);
  if (!found.ok) {
    process.stderr.write(`sop serve: ${found.error}\n`);
    return found.exitCode;
  }
  if (parsed.mode === 'stdio') routeConsoleToStderr();
  let transport: 'stdio' | HttpServing = 'stdio';
  if (parsed.mode === 'http') {
    const http = await httpServing(parsed);
    if (!http.ok) {
      process.stderr.write(`sop serve: ${http.error}\n`);
      return 1;
    }
    transport = http.serving;
  }
  // Listen before serving: a signal that comes while the server starts ends it cleanly once it has started.
  const signal = waitForSignal();
  const started = await startSopServer({
    transport,
    origin: found.origin,
    projectRoot: found.projectRoot,
    store: parsed.store ?? (parsed.mode === 'stdio' ? 'memory' : DEFAULT_DURABLE_STORE),
    limits: {
      ...(parsed.runIdleMs === undefined ? {} : { runIdleMs: parsed.runIdleMs }),
      ...(parsed.maxLiveSessions === undefined ? {} : { maxLiveSessions: parsed.maxLiveSessions }),
    },
    ...(parsed.inspectViews === undefined ? {} : { inspectViews: parsed.inspectViews }),
    ...(parsed.gateway === true ? { gateway: true } : {}),
    ...(parsed.observe === true ? { observe: true } : {}),
    ...(parsed.migrateRuns === true ? { migrateRuns: true } : {}),
    ...(parsed.agents === undefined ? {} : { agents: parsed.agents }),
    // The compiler, for inspect's validate view: imported on its first call, so serving never loads it before.
    validator: async () => (await import('../../generator/project/validate-document.js')).validateDocument,
    logger: stderrLogger(),
  });
  if (!started.ok) {
    signal.dispose();
    process.stderr.write(`sop serve: ${started.error}\n`);
    return 1;
  }
  const { server } = started;
  if (parsed.mode === 'http' || parsed.gateway === true) process.stderr.write(`sop serve: ${server.description}\n`);
  await Promise.race([server.closed, signal.received]);
  signal.dispose();
  await server.close();
  return 0;
}

/** Authentication and the page's tokens, read from the files the flags name. */
async function httpServing(args: HttpArgs): Promise<{ ok: true; serving: HttpServing } | { ok: false; error: string }> {
  const { introspectionAuth, readTokenFile, staticTokenAuth } = await import('../../runtime/http/auth.js');
  try {
    const urlHost = args.host.includes(':') ? `[${args.host}]` : args.host;
    const auth =
      args.tokens !== undefined
        ? staticTokenAuth(readTokenFile(args.tokens), `bearer tokens of ${args.tokens}`)
        : args.oauth !== undefined
          ? introspectionAuth({
              ...args.oauth,
              clientSecret: process.env['SOP_OAUTH_CLIENT_SECRET'] ?? '',
              resource: args.oauth.resource ?? `http://${urlHost}:${args.port}/mcp`,
            })
          : undefined;
    return {
      ok: true,
      serving: {
        host: args.host,
        port: args.port,
        ...(auth === undefined ? {} : { auth }),
        ...(args.pageTokens === undefined ? {} : { pageTokens: readTokenFile(args.pageTokens) }),
        ...(args.page === false ? { noPage: true } : {}),
      },
    };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** On stdio, stdout is the protocol's: a stray console.log from any library must not corrupt it. */
function routeConsoleToStderr(): void {
  const toStderr = (...parts: unknown[]) => console.error(...parts);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  // OpenTelemetry's ConsoleSpanExporter prints spans with console.dir.
  console.dir = (item, options) => void process.stderr.write(`${inspect(item, options)}\n`);
}

function waitForSignal(): { received: Promise<void>; dispose(): void } {
  let onSignal = () => {};
  const received = new Promise<void>((resolve) => {
    onSignal = () => resolve();
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    received,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
