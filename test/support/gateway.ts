/**
 * A gateway in process for tests: the repository's compiled agents (the retail SOP names the example retail
 * server, `examples/retail-tools`, over stdio), the real domain servers they name, a session service in gateway
 * mode over them, and real SDK clients connected to it:
 *   - `legacyClient`: the v1 SDK `Client` (2025-era) over an in-memory pair, a long-lived connection like stdio,
 *     so the server can ask the user (elicitation) when the client declares it; the test answers;
 *   - HTTP (`httpGateway`): `serveHttp` on a free port, for 2026-07-28 clients (v2 `Client` pinned) and 2025-era
 *     clients over HTTP (which cannot be asked mid-call).
 * The retail server's database is a file in a temp folder (`RETAIL_TOOLS_DB`), so a test can read what changed.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BUNDLE_FORMAT, type SopBundle } from '../../contract/compiled-sop.js';
import { createAgentSource } from '../../runtime/agents/agent-source.js';
import { type HttpServeOptions, serveHttp, type SopHttpServer } from '../../runtime/http/serve-http.js';
import { guardTransport } from '../../runtime/mcp/message-guard.js';
import { createServerFactory } from '../../runtime/mcp/server-factory.js';
import { type Logger, silentLogger } from '../../runtime/support/logger.js';
import { createSessionService, type SessionService } from '../../runtime/service/session-service.js';
import { createMemoryRunStore } from '../../runtime/store/memory-run-store.js';
import type { RunStore } from '../../runtime/store/run-store.js';
import { INSPECT } from '../../runtime/tools/inspect/inspect-tool.js';
import { LOAD_GRAPH_TOOL, RUN_TOOLS } from '../../runtime/tools/tool-definitions.js';
import { type DomainTools, openDomainTools } from '../../runtime/upstream/domain-tools.js';
import { compiledFromText } from './compiled-from-text.js';
import { PROJECT_ROOT } from './run-cli.js';

export const RETAIL = 'retail_customer_support';
export const SEED_DB = join(PROJECT_ROOT, 'examples/retail-tools/seed.json');
export const REPO_BUNDLE = JSON.parse(readFileSync(join(PROJECT_ROOT, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;
export const RESERVED_TOOLS = [LOAD_GRAPH_TOOL.name, ...RUN_TOOLS.map((tool) => tool.name), INSPECT];

export interface GatewayUnderTest {
  readonly service: SessionService;
  readonly domain: DomainTools;
  readonly store: RunStore;
  /** The retail database file. */
  readonly db: string;
  /** The database as it is now. */
  database(): any;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** The agents (default: the retail agent of the repository's bundle). */
  readonly bundle?: SopBundle;
  readonly agents?: readonly string[];
  /** More environment for the domain servers' `${VAR}`s (the fault switches reach the server through its `env`). */
  readonly environment?: Record<string, string>;
  readonly store?: RunStore;
  readonly logger?: Logger;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Observe mode (`--observe`): every call and legal move goes through, the audit says what enforcement would have decided. */
  readonly observe?: boolean;
  /** The service's clock (default the wall clock). */
  readonly clock?: { now(): number };
  /** The retail server's database file, for gateways that share one (default: a fresh copy of the seed). */
  readonly db?: string;
}

export async function startGateway(options: GatewayOptions = {}): Promise<GatewayUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'sop-gateway-'));
  const db = options.db ?? join(dir, 'retail.json');
  if (options.db === undefined) copyFileSync(SEED_DB, db);
  const store = options.store ?? createMemoryRunStore();
  const logger = options.logger ?? silentLogger;
  const bundle = options.bundle ?? REPO_BUNDLE;
  const only = options.agents ?? (options.bundle === undefined ? [RETAIL] : undefined);
  const agents = createAgentSource({ origin: { bundle }, store, logger, ...(only === undefined ? {} : { only }) });
  const opened = await openDomainTools({
    agents: agents.current().entries,
    root: PROJECT_ROOT,
    environment: { ...process.env, RETAIL_TOOLS_DB: db, ...options.environment },
    logger,
    reserved: RESERVED_TOOLS,
    ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
  });
  if (!opened.ok) throw new Error(`the gateway did not start:\n${opened.errors.join('\n')}`);
  const domain = opened.tools;
  const service = createSessionService({
    agents,
    store,
    projectRoot: PROJECT_ROOT,
    logger,
    gateway: { domain, ...(options.observe === true ? { observe: true } : {}) },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  return {
    service,
    domain,
    store,
    db,
    database: () => JSON.parse(readFileSync(db, 'utf8')),
    async close() {
      await service.close();
      await domain.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** How a test's user answers the gateway's questions: yes, no, or a function of the question. */
export type Answering = 'yes' | 'no' | ((message: string) => boolean);

export interface GatewayClient {
  readonly client: Client;
  /** Every question the user was asked, in order. */
  readonly asked: string[];
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; answer: any; text: string }>;
  close(): Promise<void>;
}

/**
 * A 2025-era SDK client on a long-lived connection to the gateway, as over stdio. With `answering` it declares
 * elicitation and answers each question so; without, it cannot be asked.
 */
export async function legacyClient(gateway: GatewayUnderTest, answering?: Answering): Promise<GatewayClient> {
  const opening = await gateway.service.openSession('local');
  if (!opening.ok) throw new Error(opening.error);
  const server = createServerFactory(gateway.service)({ principal: 'local', sessionId: opening.sessionId, channel: 'connection' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(guardTransport(serverSide, gateway.service.logger));
  const client = new Client(
    { name: 'gateway-test', version: '0.0.0' },
    answering === undefined ? {} : { capabilities: { elicitation: {} } },
  );
  const asked: string[] = [];
  if (answering !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const yes = typeof answering === 'function' ? answering(request.params.message) : answering === 'yes';
      return { action: 'accept', content: { confirm: yes } };
    });
  }
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    asked,
    call: (name, args) => callOn(client, name, args),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

export async function callOn(
  client: { callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; answer: any; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    content?: { type: string; text?: string }[];
  };
  const text = (result.content ?? []).map((part) => part.text ?? '').join('');
  let answer: any = result.structuredContent;
  if (answer === undefined) {
    try {
      answer = JSON.parse(text);
    } catch {
      answer = text;
    }
  }
  return { isError: result.isError === true, answer, text };
}

/** `serveHttp` over the gateway's service on a free port. */
export function httpGateway(gateway: GatewayUnderTest, options: Pick<HttpServeOptions, 'asking'> = {}): Promise<SopHttpServer> {
  return serveHttp({ service: gateway.service, host: '127.0.0.1', port: 0, ...options });
}

/** The walk START → AUTH (a found user) → ROUTE, the start of every retail conversation. */
export async function authenticated(client: GatewayClient, extra: Record<string, unknown> = {}): Promise<void> {
  for (const node_id of ['START', 'AUTH']) await client.call('goto_node', { node_id, ...extra });
  const found = await client.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com', ...extra });
  if (found.isError) throw new Error(`the lookup failed: ${found.text}`);
  const moved = await client.call('goto_node', { node_id: 'ROUTE', ...extra });
  if (moved.answer?.valid !== true) throw new Error(`could not reach ROUTE: ${moved.text}`);
}

/** A SOP file of the repository compiled as `sop build` would (for fixtures that are not in `sops/`), as a bundle. */
export function compiledFixture(relativePath: string): SopBundle {
  const sop = compiledFromText(readFileSync(join(PROJECT_ROOT, relativePath), 'utf8'), relativePath);
  return { format: BUNDLE_FORMAT, agents: { [sop.meta.agent]: sop } };
}
