/**
 * The session service in the bench's own process, as `sop serve` builds it (agents from the fixture's
 * `sop-bundle.json`, a run store opened from a URL), without a transport: for the rows that time what a tool
 * call costs the service itself (tool logic and the store's commit) and for the memory probes. Calls go through
 * `service.callTool` exactly as the transports make them.
 */
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { createAgentSource } from '../runtime/agents/agent-source.js';
import { readBundle } from '../contract/read-bundle.js';
import { silentLogger } from '../runtime/support/logger.js';
import {
  type Caller,
  createSessionService,
  resultOf,
  type SessionService,
  type ServiceLimits,
} from '../runtime/service/session-service.js';
import { openRunStore } from '../runtime/store/open-run-store.js';

export interface InProcessService {
  readonly service: SessionService;
  /** Calls a tool as `caller`; throws on an error answer (a bench walk never makes an illegal move). */
  call(name: string, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult>;
  /** Starts a run of `agent` without a session and returns its `run_id` (the stateless form of the protocol). */
  startRun(agent: string, caller: Caller): Promise<string>;
  /** The entry node of `agent` (throws when the bundle has no such agent). */
  entryNode(agent: string): string;
  close(): Promise<void>;
}

/** A service over the run store at `storeUrl` (`memory`, `sqlite:…`, `postgres://…`) serving the project at `dir`. */
export async function openInProcessService(dir: string, storeUrl: string, limits: Partial<ServiceLimits> = {}): Promise<InProcessService> {
  const read = readBundle(join(dir, 'generated', 'sop-bundle.json'));
  if (!read.ok) throw new Error(read.error);
  const opened = await openRunStore(storeUrl, { root: dir, onError: silentLogger.error });
  if (!opened.ok) throw new Error(`cannot open the run store ${storeUrl}: ${opened.error}`);
  const { store } = opened;
  const agents = createAgentSource({ origin: { bundle: read.bundle }, store, logger: silentLogger });
  const service = createSessionService({ agents, store, projectRoot: dir, logger: silentLogger, limits });
  const call = async (name: string, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult> => {
    const result = resultOf(await service.callTool(name, args, caller));
    if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
    return result;
  };
  return {
    service,
    call,
    async startRun(agent, caller) {
      const loaded = await call('load_graph', { agent }, caller);
      const runId = (loaded.structuredContent as { run_id?: unknown } | undefined)?.run_id;
      if (typeof runId !== 'string') throw new Error(`load_graph(${agent}) returned no run_id`);
      return runId;
    },
    entryNode(agent) {
      const sop = service.catalog().entries.find((entry) => entry.meta.agent === agent);
      if (sop === undefined) throw new Error(`agent ${agent} is not in the bundle`);
      return sop.transitions.entry;
    },
    async close() {
      await service.close();
      await store.close();
    },
  };
}
