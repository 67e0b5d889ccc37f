/**
 * The domain tools the gateway offers: the tools of every domain server the served SOPs name, one connection per
 * server (two SOPs naming the same server share it), listed beside the toolkit's own tools with their own names,
 * schemas and descriptions. Nothing is hidden per connection or per node (clients cache the list; the 2026-07-28
 * revision requires one list for all): the run decides at call time.
 *
 * One addition to each schema: an optional `run_id` property, because a client without a session (every
 * 2026-07-28 client over HTTP) has no other way to say which run a domain call belongs to. The gateway removes
 * it before forwarding. A domain tool that already takes `run_id` is a start-up error.
 *
 * Start-up refuses, naming what to fix: a server that cannot be reached, two servers offering one tool name, a
 * domain tool named like one of the toolkit's, and a SOP naming a tool none of its servers offers (a SOP without
 * servers included: its tools could not be enforced). Later changes (`tools/list_changed`, a reconnection with
 * another list) are checked the same way; a change that breaks a rule keeps the last good list and is logged.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { Logger } from '../service/logger.js';
import { openUpstream, type UpstreamConnection } from './upstream-connection.js';
import { resolveUpstream, type UpstreamSpec } from './upstream-spec.js';

export const RUN_ID_PROPERTY = 'run_id';

export interface DomainTool {
  /** As the gateway lists it. */
  readonly tool: Tool;
  readonly upstream: UpstreamConnection;
}

export interface DomainTools {
  /** The domain tools, as listed: servers in the order the SOPs name them, each server's tools in its order. */
  list(): readonly Tool[];
  get(name: string): DomainTool | undefined;
  /** Every connection, for status and shutdown. */
  readonly upstreams: readonly UpstreamConnection[];
  /** Called after the list changed (a server announced it, or came back with another). */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface DomainToolsOptions {
  /** The SOPs served; each one's `mcp_servers`. */
  readonly agents: readonly CompiledSop[];
  /** The app root: relative `cwd`s resolve against it. */
  readonly root: string;
  /** Where `${VAR}` references are read (default `process.env`). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** Tool names the gateway itself answers (load_graph, goto_node, …). */
  readonly reserved: readonly string[];
  readonly connectTimeoutMs?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
}

export type DomainToolsOpening =
  | { readonly ok: true; readonly tools: DomainTools }
  | { readonly ok: false; readonly errors: readonly string[] };

export async function openDomainTools(options: DomainToolsOptions): Promise<DomainToolsOpening> {
  const environment = options.environment ?? process.env;
  const errors: string[] = [];
  const specs = new Map<string, UpstreamSpec>();
  /** Per agent, the keys of its servers. */
  const serversOf = new Map<string, string[]>();
  for (const sop of options.agents) {
    const keys: string[] = [];
    for (const ref of sop.meta.mcpServers) {
      const resolved = resolveUpstream(ref, options.root, environment);
      if (!resolved.ok) {
        errors.push(`${sop.sourceFile} (${sop.meta.agent}): ${resolved.error}`);
        continue;
      }
      const clash = [...specs.values()].find((spec) => spec.name === resolved.spec.name && spec.key !== resolved.spec.key);
      if (clash !== undefined) {
        errors.push(
          `${sop.sourceFile} (${sop.meta.agent}): server ${ref.name} is named by another SOP with other settings: give one of them another name`,
        );
        continue;
      }
      specs.set(resolved.spec.key, resolved.spec);
      keys.push(resolved.spec.key);
    }
    serversOf.set(sop.meta.agent, keys);
  }
  if (errors.length > 0) return { ok: false, errors };

  const listeners = new Set<() => void>();
  let current: ReadonlyMap<string, DomainTool> = new Map();
  let listed: readonly Tool[] = [];
  const upstreams: UpstreamConnection[] = [];
  const refresh = (): void => {
    const built = buildCatalog(upstreams, options, serversOf);
    if (built.errors.length > 0) {
      for (const error of built.errors)
        options.logger.error(`the domain tools changed, and the change is refused (keeping the last list): ${error}`);
      return;
    }
    current = built.byName;
    listed = built.listed;
    for (const listener of listeners) listener();
  };
  for (const spec of specs.values()) {
    upstreams.push(
      openUpstream({
        spec,
        logger: options.logger,
        ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
        ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
        onToolsChanged: () => refresh(),
      }),
    );
  }
  const started = await Promise.allSettled(upstreams.map((upstream) => upstream.started));
  for (const outcome of started)
    if (outcome.status === 'rejected') errors.push(String((outcome.reason as Error).message ?? outcome.reason));
  if (errors.length === 0) {
    const built = buildCatalog(upstreams, options, serversOf);
    errors.push(...built.errors);
    current = built.byName;
    listed = built.listed;
  }
  if (errors.length > 0) {
    await Promise.all(upstreams.map((upstream) => upstream.close()));
    return { ok: false, errors };
  }
  return {
    ok: true,
    tools: {
      list: () => listed,
      get: (name) => current.get(name),
      upstreams,
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      async close() {
        listeners.clear();
        await Promise.all(upstreams.map((upstream) => upstream.close()));
      },
    },
  };
}

function buildCatalog(
  upstreams: readonly UpstreamConnection[],
  options: DomainToolsOptions,
  serversOf: ReadonlyMap<string, readonly string[]>,
): { readonly byName: Map<string, DomainTool>; readonly listed: Tool[]; readonly errors: string[] } {
  const errors: string[] = [];
  const byName = new Map<string, DomainTool>();
  const listed: Tool[] = [];
  const reserved = new Set(options.reserved);
  for (const upstream of upstreams) {
    for (const tool of upstream.tools()) {
      const other = byName.get(tool.name);
      if (other !== undefined) {
        errors.push(
          `tool ${tool.name} is offered by both ${other.upstream.spec.name} and ${upstream.spec.name}: a call could not say which one it means`,
        );
        continue;
      }
      if (reserved.has(tool.name)) {
        errors.push(`${upstream.spec.name} offers a tool named ${tool.name}, like one of the gateway's own tools`);
        continue;
      }
      const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
      if (Object.hasOwn(properties, RUN_ID_PROPERTY)) {
        errors.push(
          `${upstream.spec.name}'s tool ${tool.name} takes an argument named ${RUN_ID_PROPERTY}, which the gateway adds to every domain tool`,
        );
        continue;
      }
      const offered: Tool = {
        ...tool,
        inputSchema: { ...tool.inputSchema, type: 'object', properties: { ...properties, [RUN_ID_PROPERTY]: { type: 'string' } } },
      };
      byName.set(tool.name, { tool: offered, upstream });
      listed.push(offered);
    }
  }
  const byKey = new Map(upstreams.map((upstream) => [upstream.spec.key, upstream]));
  for (const sop of options.agents) {
    const servers = (serversOf.get(sop.meta.agent) ?? []).flatMap((key) => byKey.get(key) ?? []);
    const names = servers.map((upstream) => upstream.spec.name);
    for (const tool of sop.tools) {
      const found = byName.get(tool);
      if (found !== undefined && servers.includes(found.upstream)) continue;
      const where = names.length === 0 ? 'it names no mcp_servers' : `its servers (${names.join(', ')}) do not offer it`;
      errors.push(
        `${sop.sourceFile} (${sop.meta.agent}) names the tool ${tool}, but ${where}${found === undefined ? '' : ` (${found.upstream.spec.name}, a server of another SOP, does)`}: the gateway could not enforce it`,
      );
    }
  }
  return { byName, listed, errors };
}
