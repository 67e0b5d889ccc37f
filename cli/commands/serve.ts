/**
 * `sop serve`: serve the app's compiled agents over MCP, on stdio (default: one conversation, stdout carries
 * protocol messages only) or Streamable HTTP (`--http`, 127.0.0.1:3000 unless `--host`/`--port` say otherwise).
 * The agents are the build's `sop-bundle.json` in the output folder (`--out`, else `out` of `sop.config.json`,
 * else `generated/`) under the app root found from the working directory, or, in the one-file server of
 * `sop bundle`, the bundle passed in. Resolves when the conversation ends (stdin closed) or on SIGINT/SIGTERM.
 *
 * The bundle is JSON: no TypeScript, no module loader and no compiler at run time. A tree where the SOPs were
 * never built gets a clear message (exit 1). Only the chosen transport is imported: stdio never loads express.
 *
 * Exit codes: 0 served and stopped; 1 nothing to serve or the port is taken; 2 bad usage.
 */
import type { SopBundle } from '../../contract/compiled-sop.js';
import { createCatalog } from '../../runtime/agents/agent-catalog.js';
import { readBundle } from '../../runtime/agents/read-bundle.js';
import { bundleFile, locateProject } from '../config.js';
import { findProjectRoot } from '../project-root.js';

const USAGE = `Usage: sop serve [--stdio | --http [--host H] [--port N]] [--out DIR]
  --stdio      (default) speak MCP on stdin/stdout
  --http       Streamable HTTP at http://H:N/mcp
  --host H     interface to bind (default 127.0.0.1)
  --port N     port (default 3000; 0 picks a free one)
  --out DIR    the build's output folder holding sop-bundle.json (default: "out" of sop.config.json, or generated)
`;

export type ServeArgs =
  | { readonly mode: 'stdio'; readonly out?: string }
  | { readonly mode: 'http'; readonly host: string; readonly port: number; readonly out?: string }
  | { readonly mode: 'help' }
  | { readonly mode: 'error'; readonly message: string };

export function parseServeArgs(args: readonly string[]): ServeArgs {
  let transport: 'stdio' | 'http' | undefined;
  let host: string | undefined;
  let port: number | undefined;
  let out: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
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
        const given = value();
        if (given === undefined || given === '') return { mode: 'error', message: '--host needs a value' };
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
      case '--out': {
        const given = value();
        if (given === undefined || given === '') return { mode: 'error', message: '--out needs a folder' };
        out = given;
        break;
      }
      default:
        return { mode: 'error', message: `unknown option ${arg}` };
    }
  }
  if (transport === 'stdio' && (host !== undefined || port !== undefined)) {
    return { mode: 'error', message: '--host and --port apply to --http only' };
  }
  const where = out === undefined ? {} : { out };
  if (transport === 'http' || host !== undefined || port !== undefined) {
    return { mode: 'http', host: host ?? '127.0.0.1', port: port ?? 3000, ...where };
  }
  return { mode: 'stdio', ...where };
}

export interface ServeOptions {
  /** Serve these agents instead of reading `sop-bundle.json` (the one-file server of `sop bundle` inlines them). */
  readonly bundle?: SopBundle;
}

type AgentsFound =
  | { readonly ok: true; readonly projectRoot: string; readonly bundle: SopBundle }
  | { readonly ok: false; readonly error: string; readonly exitCode: 1 | 2 };

/** The app root (for `load_graph {sop_file}`) and the agents: inlined, or the build's bundle under the app root. */
function findAgents(out: string | undefined, inlined: SopBundle | undefined): AgentsFound {
  if (inlined !== undefined) {
    if (out !== undefined) return { ok: false, error: 'this server has its agents built in: --out does not apply', exitCode: 2 };
    return { ok: true, projectRoot: findProjectRoot(process.cwd()), bundle: inlined };
  }
  const located = locateProject(process.cwd(), { out });
  if (!located.ok) return { ...located, exitCode: 2 };
  const read = readBundle(bundleFile(located.paths));
  return read.ok ? { ok: true, projectRoot: located.paths.root, bundle: read.bundle } : { ...read, exitCode: 1 };
}

export async function runServe(args: readonly string[], options: ServeOptions = {}): Promise<number> {
  const parsed = parseServeArgs(args);
  if (parsed.mode === 'help') {
    process.stderr.write(USAGE);
    return 0;
  }
  if (parsed.mode === 'error') {
    process.stderr.write(`sop serve: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const found = findAgents(parsed.out, options.bundle);
  if (!found.ok) {
    process.stderr.write(`sop serve: ${found.error}\n`);
    return found.exitCode;
  }
  const { projectRoot } = found;
  const catalog = createCatalog(found.bundle);

  if (parsed.mode === 'stdio') {
    routeConsoleToStderr();
    const { serveStdio } = await import('../../runtime/stdio/serve-stdio.js');
    const server = await serveStdio({ catalog, projectRoot });
    const signal = waitForSignal();
    await Promise.race([server.closed, signal.received]);
    signal.dispose();
    await server.close();
    return 0;
  }

  const { serveHttp } = await import('../../runtime/http/serve-http.js');
  let server: Awaited<ReturnType<typeof serveHttp>>;
  try {
    server = await serveHttp({ catalog, projectRoot, host: parsed.host, port: parsed.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      process.stderr.write(`sop serve: cannot listen on ${parsed.host}:${parsed.port} (${code})\n`);
      return 1;
    }
    throw error;
  }
  process.stderr.write(`sop serve: ${catalog.entries.length} agent(s) at ${server.url}\n`);
  const signal = waitForSignal();
  await signal.received;
  signal.dispose();
  await server.close();
  return 0;
}

/** On stdio, stdout is the protocol's: a stray console.log from any library must not corrupt it. */
function routeConsoleToStderr(): void {
  const toStderr = (...parts: unknown[]) => console.error(...parts);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
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
