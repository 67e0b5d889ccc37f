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
 * the session service and the transport); this module parses flags, finds the agents and prints. While serving, a
 * rebuild that replaces the bundle is picked up (new runs start on it, running runs keep their version).
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

export function parseServeArgs(args: readonly string[]): ServeArgs {
  let transport: 'stdio' | 'http' | undefined;
  let host: string | undefined;
  let port: number | undefined;
  let runIdleMs: number | undefined;
  let maxLiveSessions: number | undefined;
  let tokens: string | undefined;
  const oauth: { issuer?: string; introspectionUrl?: string; clientId?: string; resource?: string } = {};
  let watch = true;
  let out: string | undefined;
  let store: string | undefined;
  let inspectViews: readonly InspectViewName[] | undefined;
  let noValidate = false;
  let pageTokens: string | undefined;
  let page = true;
  let gateway = false;
  let observe = false;
  let migrateRuns = false;
  let agents: readonly string[] | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
    const text = (): string | { error: string } => {
      const given = value();
      return given === undefined || given === '' ? { error: `${flag} needs a value` } : given;
    };
    switch (flag) {
      case '-h':
      case '--help':
        return { mode: 'help' };
      case '--stdio':
      case '--http': {
        const chosen = flag === '--stdio' ? 'stdio' : 'http';
        if (transport !== undefined && transport !== chosen) return { mode: 'error', message: 'choose one of --stdio and --http' };
        transport = chosen;
        break;
      }
      case '--host': {
        const given = text();
        if (typeof given !== 'string') return { mode: 'error', message: given.error };
        host = given;
        break;
      }
      case '--port': {
        const given = value();
        const parsed = given !== undefined && /^\d+$/.test(given) ? Number(given) : NaN;
        if (!(parsed >= 0 && parsed <= 65535))
          return { mode: 'error', message: `--port needs a number from 0 to 65535, got ${given ?? 'nothing'}` };
        port = parsed;
        break;
      }
      case '--run-ttl': {
        const given = value();
        const ms = given === undefined ? undefined : parseDuration(given);
        if (ms === undefined)
          return { mode: 'error', message: `--run-ttl needs a duration such as 90s, 30m, 24h or 7d, got ${given ?? 'nothing'}` };
        runIdleMs = ms;
        break;
      }
      case '--max-sessions': {
        const given = value();
        const parsed = given !== undefined && /^\d+$/.test(given) ? Number(given) : 0;
        if (parsed < 1) return { mode: 'error', message: `--max-sessions needs a positive number, got ${given ?? 'nothing'}` };
        maxLiveSessions = parsed;
        break;
      }
      case '--tokens': {
        const given = text();
        if (typeof given !== 'string') return { mode: 'error', message: given.error };
        tokens = given;
        break;
      }
      case '--oauth-issuer':
      case '--oauth-introspection':
      case '--oauth-client-id':
      case '--oauth-resource': {
        const given = text();
        if (typeof given !== 'string') return { mode: 'error', message: given.error };
        const key = (
          {
            '--oauth-issuer': 'issuer',
            '--oauth-introspection': 'introspectionUrl',
            '--oauth-client-id': 'clientId',
            '--oauth-resource': 'resource',
          } as const
        )[flag];
        oauth[key] = given;
        break;
      }
      case '--no-watch':
        watch = false;
        break;
      case '--gateway':
        gateway = true;
        break;
      case '--observe':
        observe = true;
        break;
      case '--migrate-runs':
        migrateRuns = true;
        break;
      case '--agents': {
        const given = text();
        if (typeof given !== 'string') return { mode: 'error', message: given.error };
        agents = given
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
        if (agents.length === 0) return { mode: 'error', message: '--agents needs agent names, e.g. --agents retail_customer_support' };
        break;
      }
      case '--store': {
        const given = text();
        if (typeof given !== 'string') return { mode: 'error', message: given.error };
        store = given;
        break;
      }
      case '--out': {
        const given = value();
        if (given === undefined || given === '') return { mode: 'error', message: '--out needs a folder' };
        out = given;
        break;
      }
      case '--inspect': {
        const given = text();
        const views = typeof given === 'string' ? parseInspectViews(given) : given;
        if ('error' in views) return { mode: 'error', message: `--inspect: ${views.error}` };
        inspectViews = views;
        break;
      }
      case '--no-validate':
        noValidate = true;
        break;
      case '--page-tokens': {
        const given = text();
        if (typeof given !== 'string') return { mode: 'error', message: given.error };
        pageTokens = given;
        break;
      }
      case '--no-page':
        page = false;
        break;
      default:
        return { mode: 'error', message: `unknown option ${arg}` };
    }
  }
  if (observe && !gateway) return { mode: 'error', message: '--observe observes the gateway: add --gateway' };
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
  if (pageTokens !== undefined && !page) return { mode: 'error', message: 'choose one of --page-tokens and --no-page' };
  const httpOnly = host !== undefined || port !== undefined || tokens !== undefined || Object.keys(oauth).length > 0;
  if (transport === 'stdio' && httpOnly) return { mode: 'error', message: '--host, --port, --tokens and --oauth-* apply to --http only' };
  if (transport !== 'http' && !httpOnly) {
    if (pageFlags) return { mode: 'error', message: '--page-tokens and --no-page apply to --http only' };
    return { mode: 'stdio', ...common };
  }
  const oauthGiven = Object.keys(oauth).length > 0;
  if (oauthGiven && (oauth.issuer === undefined || oauth.introspectionUrl === undefined || oauth.clientId === undefined)) {
    return { mode: 'error', message: 'OAuth needs --oauth-issuer, --oauth-introspection and --oauth-client-id' };
  }
  if (oauthGiven && tokens !== undefined) return { mode: 'error', message: 'choose one of --tokens and --oauth-*' };
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

/** `90s`, `30m`, `24h`, `7d` (or plain milliseconds) → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (match === null) return undefined;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
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
  if (parsed.mode === 'help') {
    process.stderr.write(USAGE);
    return 0;
  }
  if (parsed.mode === 'error') {
    process.stderr.write(`sop serve: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
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
