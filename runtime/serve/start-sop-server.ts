/**
 * The one place a serving process is assembled: run store, agents, (gateway mode) the domain servers, the
 * session service, and a transport over it, stdio or Streamable HTTP with the runs page. `sop serve`, the
 * one-file server of `sop bundle` and the bench start servers through it, so what they run is the same thing; the
 * CLI only parses flags and prints.
 *
 * It returns an error value (never throws) for what a user can fix: a store that does not open, a domain server
 * that cannot be reached or breaks a rule (gateway mode), an address that is taken or refused. Everything it
 * opened is closed again on such an error, and by `close()`.
 *
 * Only the chosen transport is imported: stdio never loads express, a server that is not a gateway never starts
 * an MCP client.
 */
import type { AgentCatalog } from '../agents/agent-catalog.js';
import type { BundleOrigin } from '../agents/agent-source.js';
import { createAgentSource } from '../agents/agent-source.js';
import type { HttpAuth } from '../http/auth.js';
import type { Logger } from '../support/logger.js';
import { createSessionService, type ServiceLimits, type SessionService } from '../service/session-service.js';
import { openRunStore } from '../store/open-run-store.js';
import type { RunStore } from '../store/run-store.js';
import type { InspectViewName } from '../tools/inspect/inspect-view.js';
import type { LoadValidator } from '../tools/tool-definitions.js';
import type { DomainTools } from '../upstream/domain-tools.js';

export interface HttpServing {
  readonly host: string;
  readonly port: number;
  readonly auth?: HttpAuth;
  /** Read-only tokens of the runs page (principal → token), needed when the server authenticates. */
  readonly pageTokens?: ReadonlyMap<string, string>;
  /** Leave the runs page out. */
  readonly noPage?: boolean;
}

export interface StartSopServerOptions {
  readonly transport: 'stdio' | HttpServing;
  /** The agents: a bundle file (watched for rebuilds, or not) or a bundle in memory. */
  readonly origin: BundleOrigin;
  /** The app root: `load_graph`'s `sop_file` and the domain servers' relative `cwd` resolve against it. */
  readonly projectRoot: string;
  /** Where runs live: `memory`, `sqlite:PATH` or a `postgres://` URL. */
  readonly store: string;
  /** Serve only these agents of the bundle (default: all). */
  readonly agents?: readonly string[];
  readonly limits?: Partial<ServiceLimits>;
  readonly inspectViews?: readonly InspectViewName[];
  /** The compiler's check for `inspect`'s validate view (the runtime never imports the compiler: the CLI gives it). */
  readonly validator?: LoadValidator;
  /** Gateway mode: connect to the agents' domain servers, offer their tools, decide every call on its run. */
  readonly gateway?: boolean;
  /** With `gateway`: forward every call and legal move, audit what enforcement would have decided (`--observe`). */
  readonly observe?: boolean;
  /** Where the domain servers' `${VAR}` references are read (default `process.env`). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Move every served agent's runs to the version served, where they can move, before serving (`sop runs migrate`). */
  readonly migrateRuns?: boolean;
  readonly logger: Logger;
}

export interface RunningSopServer {
  readonly service: SessionService;
  /** The MCP endpoint over HTTP. */
  readonly url?: string;
  /** What it serves, in one line, for the start-up message. */
  readonly description: string;
  /** Settles when the conversation is over (stdio: stdin ended); never, over HTTP, until `close()`. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export type SopServerStart = { readonly ok: true; readonly server: RunningSopServer } | { readonly ok: false; readonly error: string };

export async function startSopServer(options: StartSopServerOptions): Promise<SopServerStart> {
  const { logger } = options;
  const opened = await openRunStore(options.store, { root: options.projectRoot, onError: logger.error });
  if (!opened.ok) return { ok: false, error: `cannot open the run store: ${opened.error}` };
  const { store } = opened;
  const unknown = (options.agents ?? []).filter((name) => !bundleAgents(options.origin).includes(name));
  if (unknown.length > 0) {
    await store.close();
    return {
      ok: false,
      error: `no agent named ${unknown.join(', ')} in the bundle; it has ${bundleAgents(options.origin).join(', ') || 'none'}`,
    };
  }
  // A gateway checked its agents' tools against their servers at start: a rebuild is picked up by a restart.
  const origin: BundleOrigin =
    options.gateway === true && 'bundlePath' in options.origin && options.origin.watch === true
      ? { ...options.origin, watch: false }
      : options.origin;
  const agents = createAgentSource({ origin, store, logger, ...(options.agents === undefined ? {} : { only: options.agents }) });
  let domain: DomainTools | undefined;
  const cleanUp = async (service?: SessionService) => {
    await service?.close();
    await domain?.close();
    await store.close();
  };
  if (options.gateway === true) {
    const { openDomainTools } = await import('../upstream/domain-tools.js');
    const { LOAD_GRAPH_TOOL, RUN_TOOLS } = await import('../tools/tool-definitions.js');
    const { INSPECT } = await import('../tools/inspect/inspect-tool.js');
    const sops = agents.current().entries;
    const opening = await openDomainTools({
      agents: sops,
      root: options.projectRoot,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      logger,
      reserved: [LOAD_GRAPH_TOOL.name, ...RUN_TOOLS.map((tool) => tool.name), INSPECT],
    });
    if (!opening.ok) {
      agents.close();
      await store.close();
      return { ok: false, error: `the gateway cannot start:\n  - ${opening.errors.join('\n  - ')}` };
    }
    domain = opening.tools;
  }
  if (options.migrateRuns === true) {
    try {
      await migrateServedRuns(agents.current(), store, logger);
    } catch (error) {
      agents.close();
      await cleanUp();
      return {
        ok: false,
        error: `moving the runs to the versions served failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  const service = createSessionService({
    agents,
    store,
    projectRoot: options.projectRoot,
    logger,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.inspectViews === undefined ? {} : { inspectViews: options.inspectViews }),
    ...(options.validator === undefined ? {} : { validator: options.validator }),
    // Over HTTP a load balancer may send a conversation's calls to any instance on the store.
    followOtherInstances: options.transport !== 'stdio',
    ...(domain === undefined ? {} : { gateway: { domain, ...(options.observe === true ? { observe: true } : {}) } }),
  });
  const gatewayLine =
    domain === undefined
      ? ''
      : `; gateway${options.observe === true ? ' (observing, enforcing nothing)' : ''} to ${describeDomain(domain)}`;
  try {
    if (options.transport === 'stdio') {
      const { serveStdio } = await import('../stdio/serve-stdio.js');
      const stdio = await serveStdio({ service });
      return {
        ok: true,
        server: {
          service,
          description: `${service.catalog().entries.length} agent(s) on stdio; runs in ${store.kind}${gatewayLine}`,
          closed: stdio.closed,
          async close() {
            await stdio.close();
            await cleanUp(service);
          },
        },
      };
    }
    const http = options.transport;
    const { serveHttp } = await import('../http/serve-http.js');
    const { planRunsPage } = await import('../page/runs-page.js');
    const page =
      http.noPage === true
        ? { on: false as const, auth: http.auth, reason: '--no-page' }
        : planRunsPage({ service, auth: http.auth, pageTokens: http.pageTokens });
    const server = await serveHttp({
      service,
      host: http.host,
      port: http.port,
      ...(page.auth === undefined ? {} : { auth: page.auth }),
      ...(page.on ? { routes: page.routes } : {}),
    });
    const pageLine = page.on ? `the runs page at ${new URL(page.path, server.url).href}` : `the runs page is off: ${page.reason}`;
    return {
      ok: true,
      server: {
        service,
        url: server.url,
        description:
          `${service.catalog().entries.length} agent(s) at ${server.url}; runs in ${store.kind}; ` +
          `${page.auth?.description ?? 'no authentication (loopback only)'}; ${pageLine}${gatewayLine}`,
        closed: new Promise<void>(() => {}),
        async close() {
          await server.close();
          await cleanUp(service);
        },
      },
    };
  } catch (error) {
    await cleanUp(service);
    const code = (error as NodeJS.ErrnoException).code;
    if (options.transport !== 'stdio' && (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')) {
      return { ok: false, error: `cannot listen on ${options.transport.host}:${options.transport.port} (${code})` };
    }
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Deploying a new build: every served agent's runs move to the version served where they can (each one a
 * compare-and-set commit, so instances starting together each decide a run once), and the log says what became of each.
 */
async function migrateServedRuns(catalog: AgentCatalog, store: RunStore, logger: Logger): Promise<void> {
  const { migrateRuns } = await import('../service/run-migration.js');
  for (const sop of catalog.entries) {
    const target = catalog.composed(sop.meta.agent);
    if (target === undefined || !target.ok) continue;
    const results = await migrateRuns({ store, agent: sop.meta.agent, target: target.sop });
    const moved = results.filter((run) => run.status === 'moved').length;
    const staying = results.filter((run) => run.status === 'stays');
    if (moved + staying.length > 0) {
      logger.info(`migrated ${sop.meta.agent} runs to ${target.sop.sourceHash}: ${moved} moved, ${staying.length} stay on their version`);
    }
    for (const run of staying) logger.info(`run ${run.runId} of ${sop.meta.agent} stays at ${run.node ?? '-'}: ${run.reason}`);
  }
}

function bundleAgents(origin: BundleOrigin): string[] {
  return Object.keys(('bundle' in origin ? origin.bundle : origin.initial).agents);
}

function describeDomain(domain: DomainTools): string {
  const servers = domain.upstreams.map((upstream) => upstream.spec.name);
  return `${servers.length} domain server(s) (${servers.join(', ') || 'none'}), ${domain.list().length} domain tool(s)`;
}
