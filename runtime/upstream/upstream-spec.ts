/**
 * How the gateway reaches one domain server, resolved from the SOP's `mcp_servers` entry when it starts: the
 * entry's `${VAR}` references expanded from the gateway's environment (an unset variable is an error naming it),
 * `cwd` resolved against the app root, and the environment a stdio server gets made of the SDK's safe default
 * variables (PATH, HOME, …) plus exactly what the entry names: the gateway's own environment, and the client's
 * credentials, are never passed on.
 *
 * Two SOPs naming the same server (same name, same resolved address and settings) share one connection: `key`
 * says when they do.
 */
import { isAbsolute, resolve } from 'node:path';
import type { McpServerRef } from '../../contract/compiled-sop.js';
import { expandEnvRefs } from '../../contract/env-refs.js';

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

interface SpecBase {
  readonly name: string;
  readonly timeoutMs: number;
  /** Equal for two entries that can share one connection. */
  readonly key: string;
}

export interface StdioSpec extends SpecBase {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Only the variables the entry names (the SDK adds its safe defaults when it spawns). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

export interface HttpSpec extends SpecBase {
  readonly kind: 'http';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** The legacy HTTP+SSE transport (`transport: sse`, or a url ending in `/sse`); else Streamable HTTP. */
  readonly sse?: true;
}

export type UpstreamSpec = StdioSpec | HttpSpec;

export type SpecResolution = { readonly ok: true; readonly spec: UpstreamSpec } | { readonly ok: false; readonly error: string };

export function resolveUpstream(
  ref: McpServerRef,
  root: string,
  environment: Readonly<Record<string, string | undefined>>,
): SpecResolution {
  const problems: string[] = [];
  const expand = (text: string, where: string): string => {
    const expanded = expandEnvRefs(text, environment);
    if (expanded.ok) return expanded.value;
    problems.push(`${where}: ${expanded.error}`);
    return '';
  };
  const expandMap = (map: Readonly<Record<string, string>> | undefined, where: string): Record<string, string> => {
    const out: Record<string, string> = Object.create(null);
    for (const [key, value] of Object.entries(map ?? {})) out[key] = expand(value, `${where}.${key}`);
    return out;
  };
  const timeoutMs = ref.timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS;
  const failed = (): SpecResolution => ({ ok: false, error: `server ${ref.name}: ${problems.join('; ')}` });
  if (ref.command !== undefined) {
    const command = expand(ref.command, 'command');
    const args = (ref.args ?? []).map((arg, i) => expand(arg, `args[${i}]`));
    const env = expandMap(ref.env, 'env');
    const cwdText = ref.cwd === undefined ? '.' : expand(ref.cwd, 'cwd');
    if (problems.length > 0) return failed();
    const cwd = isAbsolute(cwdText) ? cwdText : resolve(root, cwdText);
    const key = JSON.stringify(['stdio', ref.name, command, args, Object.entries(env).sort(), cwd, timeoutMs]);
    return { ok: true, spec: { kind: 'stdio', name: ref.name, command, args, env, cwd, timeoutMs, key } };
  }
  if (ref.url !== undefined) {
    const text = expand(ref.url, 'url');
    const headers = expandMap(ref.headers, 'headers');
    if (problems.length > 0) return failed();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, error: `server ${ref.name}: url ${JSON.stringify(text)} is not a URL` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { ok: false, error: `server ${ref.name}: url ${url.href} is not http(s)` };
    }
    const sse = ref.transport === 'sse' || (ref.transport === undefined && /\/sse\/?$/.test(url.pathname));
    const key = JSON.stringify(['http', ref.name, url.href, Object.entries(headers).sort(), timeoutMs, sse]);
    return { ok: true, spec: { kind: 'http', name: ref.name, url, headers, timeoutMs, key, ...(sse ? { sse: true as const } : {}) } };
  }
  return { ok: false, error: `server ${ref.name} has neither command nor url` };
}

/** How the server is reached, for messages: `node tools/server.js` or the URL without credentials. */
export function describeSpec(spec: UpstreamSpec): string {
  if (spec.kind === 'stdio') return [spec.command, ...spec.args].join(' ');
  const shown = new URL(spec.url.href);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  return spec.sse === true ? `${shown.href}, HTTP+SSE` : shown.href;
}
