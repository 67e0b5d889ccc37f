/**
 * The domain tools the gateway offers: the tools the served SOPs name (their frontmatter `tools`), from every domain
 * server the SOPs name, one connection per server (two SOPs naming the same server share it), listed beside the
 * toolkit's own tools with the servers' names, schemas and descriptions. A tool a server offers and no SOP names is
 * neither listed nor forwarded (a memory server's `delete_*`: listing it costs tokens and invites calls that would
 * always be refused). Nothing is hidden per connection or per node (clients cache the list; the 2026-07-28 revision
 * requires one list for all): the run decides at call time.
 *
 * One addition to each schema: an optional `run_id` property, because a client without a session (every
 * 2026-07-28 client over HTTP) has no other way to say which run a domain call belongs to. The gateway removes
 * it before forwarding. A domain tool that already takes `run_id` is a start-up error.
 *
 * Start-up refuses, naming what to fix, what is wrong in the configuration: an entry whose `${VAR}` is unset, two
 * servers offering one tool a SOP names, a tool named like one of the toolkit's. It never refuses for a server that
 * is down: the gateway starts without it, the tools of it the SOPs name are listed (with a schema that takes
 * anything, until the server answers its first tools/list) and answer a tool error naming the server and what
 * happened, and it keeps reconnecting with backoff; once it is up, its tools are listed as it offers them and the
 * clients are told. A SOP tool that no server offers (a SOP that names no `mcp_servers` at all, as `sop init`'s
 * example) is listed the same way and answers that no server offers it. `sop build --check-tools` stays the strict
 * check for CI. Later changes (`tools/list_changed`, a reconnection with another list) are checked the same way; a
 * change that breaks a rule keeps the last good list and is logged.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { Logger } from '../support/logger.js';
import { openUpstream, type UpstreamConnection } from './upstream-connection.js';
import { resolveUpstream, type UpstreamSpec } from './upstream-spec.js';

export const RUN_ID_PROPERTY = 'run_id';

export interface DomainTool {
  /** As the gateway lists it. */
  readonly tool: Tool;
  readonly upstream: UpstreamConnection;
  /** Set when the call cannot be sent anywhere: why (no server offers the tool). */
  readonly unavailable?: string;
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
    // A server's change of tools no SOP names changes nothing the clients see: they are told only of a new list.
    const changed = JSON.stringify(built.listed) !== JSON.stringify(listed);
    listed = built.listed;
    if (changed) for (const listener of listeners) listener();
  };
  for (const spec of specs.values()) {
    upstreams.push(
      openUpstream({
        spec,
        logger: options.logger,
        ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
        ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
        onToolsChanged: () => refresh(),
        keepTrying: true,
      }),
    );
  }
  // One server down must not keep the others from serving: wait for every first attempt, start with what is up.
  const started = await Promise.allSettled(upstreams.map((upstream) => upstream.started));
  for (const outcome of started) {
    if (outcome.status === 'rejected') {
      options.logger.error(
        `${String((outcome.reason as Error).message ?? outcome.reason)}: the gateway starts without it, its tools answer that it is unreachable, and it keeps reconnecting`,
      );
    }
  }
  const built = buildCatalog(upstreams, options, serversOf);
  if (built.errors.length > 0) {
    await Promise.all(upstreams.map((upstream) => upstream.close()));
    return { ok: false, errors: built.errors };
  }
  for (const warning of built.warnings) options.logger.error(warning);
  current = built.byName;
  listed = built.listed;
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
): { readonly byName: Map<string, DomainTool>; readonly listed: Tool[]; readonly errors: string[]; readonly warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const byName = new Map<string, DomainTool>();
  const listed: Tool[] = [];
  const reserved = new Set(options.reserved);
  const byKey = new Map(upstreams.map((upstream) => [upstream.spec.key, upstream]));
  // Each server: the tools the SOPs that name it name (a tool no SOP names is not the gateway's to offer).
  const named = new Map<UpstreamConnection, Set<string>>();
  for (const sop of options.agents) {
    for (const key of serversOf.get(sop.meta.agent) ?? []) {
      const upstream = byKey.get(key);
      if (upstream === undefined) continue;
      const tools = named.get(upstream) ?? new Set<string>();
      for (const tool of sop.tools) tools.add(tool);
      named.set(upstream, tools);
    }
  }
  for (const upstream of upstreams) {
    const wanted = named.get(upstream) ?? new Set<string>();
    for (const tool of upstream.tools()) {
      if (!wanted.has(tool.name)) continue;
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
  // The tools a SOP names that no server of it offers now: its server is down (listed until it is back), or none offers it.
  for (const sop of options.agents) {
    const servers = (serversOf.get(sop.meta.agent) ?? []).flatMap((key) => byKey.get(key) ?? []);
    for (const tool of sop.tools) {
      const found = byName.get(tool);
      if (reserved.has(tool)) continue;
      if (found !== undefined) {
        // One name, one server: a call of this SOP's would go to a server it does not name.
        if (found.unavailable === undefined && !servers.includes(found.upstream) && found.upstream.spec.name !== '(none)') {
          const names = servers.map((upstream) => upstream.spec.name);
          errors.push(
            `${sop.sourceFile} (${sop.meta.agent}) names the tool ${tool}, which ${found.upstream.spec.name} (a server of another SOP) offers, and not from ${names.length === 0 ? 'any server of its own' : names.join(', ')}: a call could not say which server it means`,
          );
        }
        continue;
      }
      const down = servers.find((upstream) => upstream.status().state !== 'up' && upstream.tools().length === 0);
      const names = servers.map((upstream) => upstream.spec.name);
      const why =
        down !== undefined
          ? undefined
          : names.length === 0
            ? `${sop.sourceFile} (${sop.meta.agent}) names the tool ${tool} and no mcp_servers: no server offers it`
            : `${sop.sourceFile} (${sop.meta.agent}) names the tool ${tool}, and its servers (${names.join(', ')}) do not offer it`;
      if (why !== undefined) warnings.push(`${why}: it is listed, and a call of it answers so (sop build --check-tools finds this in CI)`);
      const holder = down ?? servers[0] ?? upstreams[0];
      const placeholder: Tool = {
        name: tool,
        description:
          down !== undefined
            ? `A tool of the domain server ${down.spec.name}, which the gateway cannot reach yet: its description comes when it answers.`
            : `No domain server offers ${tool} (the ${sop.meta.agent} SOP names it): a call answers an error.`,
        inputSchema: { type: 'object', properties: { [RUN_ID_PROPERTY]: { type: 'string' } } },
      };
      byName.set(tool, {
        tool: placeholder,
        ...(holder === undefined ? { upstream: unconnected(tool) } : { upstream: holder }),
        ...(why === undefined ? {} : { unavailable: `no domain server offers ${tool}: ${why}` }),
      });
      listed.push(placeholder);
    }
  }
  return { byName, listed, errors, warnings };
}

/** The connection of a tool no server of any SOP offers (no server at all): every call fails without being sent. */
function unconnected(tool: string): UpstreamConnection {
  return {
    spec: { kind: 'http', name: '(none)', url: new URL('http://0.0.0.0/'), headers: {}, timeoutMs: 0, key: `(none) ${tool}` },
    status: () => ({ state: 'closed', lastError: 'no server' }),
    tools: () => [],
    started: Promise.resolve(),
    call: async () => ({ kind: 'failed', reached: 'no', reason: `no domain server offers ${tool}`, ms: 0 }),
    close: async () => {},
  };
}
