/**
 * Test helpers around a real SDK `Client`: a session service over the fixture bundle and a real run store, a
 * Client connected to it in-process (`InMemoryTransport.createLinkedPair()`) through the same server factory the
 * transports use, and tool calls that check the invariants every answer must keep (structuredContent present,
 * text = compact JSON of it).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { createAgentSource } from '../../../runtime/agents/agent-source.js';
import { guardTransport } from '../../../runtime/mcp/message-guard.js';
import { createServerFactory } from '../../../runtime/mcp/server-factory.js';
import { type Logger, silentLogger } from '../../../runtime/support/logger.js';
import {
  type Clock,
  createSessionService,
  type ServiceLimits,
  type SessionService,
  type SessionServiceOptions,
} from '../../../runtime/service/session-service.js';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import type { RunStore } from '../../../runtime/store/run-store.js';
import { FIXTURE_BUNDLE, FIXTURE_PROJECT } from '../../fixtures/runtime/agents.js';

/** A tool answer as JSON: tests read nested fields freely and compare whole values with toEqual. */
export type Answer = Record<string, any>;

export interface ToolCall {
  readonly answer: Answer;
  readonly isError: boolean;
}

export const FIXTURE_ROOT = fileURLToPath(FIXTURE_PROJECT);

export interface FixtureServiceOptions {
  readonly bundle?: SopBundle;
  /** The app root `sop_file` resolves against (default: the fixture project). */
  readonly projectRoot?: string;
  readonly store?: RunStore;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly limits?: Partial<ServiceLimits>;
  readonly inspectViews?: SessionServiceOptions['inspectViews'];
  readonly tracer?: SessionServiceOptions['tracer'];
}

/** A session service over the fixture bundle (or another), on a memory store unless one is given. */
export function fixtureService(options: FixtureServiceOptions = {}): SessionService {
  const store = options.store ?? createMemoryRunStore();
  const logger = options.logger ?? silentLogger;
  const agents = createAgentSource({ origin: { bundle: options.bundle ?? FIXTURE_BUNDLE }, store, logger });
  return createSessionService({
    agents,
    store,
    projectRoot: options.projectRoot ?? FIXTURE_ROOT,
    logger,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.inspectViews === undefined ? {} : { inspectViews: options.inspectViews }),
    // As sop serve gives it: the compiler, loaded on the validate view's first call.
    validator: async () => (await import('../../../generator/project/validate-document.js')).validateDocument,
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
  });
}

/** Calls a tool and checks the answer carries structuredContent and the same JSON, compact, as text. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCall> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe('text');
  expect(result.structuredContent).toBeTypeOf('object');
  expect(content[0]?.text).toBe(JSON.stringify(result.structuredContent));
  return { answer: result.structuredContent as Answer, isError: result.isError === true };
}

export interface Connected {
  readonly client: Client;
  readonly service: SessionService;
  call(name: string, args: Record<string, unknown>): Promise<ToolCall>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The service to connect to (default: a fresh fixture service, closed with the connection). */
  readonly service?: SessionService;
  readonly principal?: string;
  /** Connect as a session (its current run implied, as over stdio); default true. */
  readonly session?: boolean;
}

/** A Client connected in-process to a server for one caller of `service`. */
export async function connectInMemory(options: ConnectOptions = {}): Promise<Connected> {
  const service = options.service ?? fixtureService();
  const principal = options.principal ?? 'local';
  let sessionId: string | undefined;
  if (options.session ?? true) {
    const opening = await service.openSession(principal);
    if (!opening.ok) throw new Error(opening.error);
    sessionId = opening.sessionId;
  }
  const server = createServerFactory(service)({ principal, sessionId });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(guardTransport(serverSide, service.logger));
  const client = new Client({ name: 'runtime-test', version: '0.0.0' });
  await client.connect(clientSide);
  // Listing the tools makes the client validate every structuredContent against the output schemas.
  await client.listTools();
  return {
    client,
    service,
    call: (name, args) => callTool(client, name, args),
    async close() {
      await client.close();
      await server.close();
      if (options.service === undefined) await service.close();
    },
  };
}
