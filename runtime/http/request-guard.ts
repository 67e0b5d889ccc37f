/**
 * DNS-rebinding protection for the HTTP transport: the `Host` header must name this server, and an `Origin`
 * header, when present, must too. The SDK checks only `Host`, so a page on a foreign origin whose DNS name was
 * rebound to 127.0.0.1 would still get in with a good Host; the MCP spec requires 403 for an invalid Origin.
 *
 * Hostnames compare without ports (any local port may front the server; the port is not what a rebinding
 * attack changes). Requests without an Origin (non-browser clients) pass the Origin check. `Origin: null`
 * (sandboxed frames, file:) is refused.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendJsonRpcError, SERVER_ERROR } from './json-rpc-error.js';

export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether binding to `host` keeps the server reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

export interface RequestGuardOptions {
  /** Hostnames (no port; IPv6 in brackets) accepted in `Host` and in `Origin`. */
  readonly hostnames: readonly string[];
  /** Extra origins accepted verbatim (`https://app.example.com`). */
  readonly origins?: readonly string[];
}

export function requestGuard(options: RequestGuardOptions): RequestHandler {
  const hostnames = new Set(options.hostnames.map((name) => name.toLowerCase()));
  const origins = new Set(options.origins ?? []);
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.headers.host;
    const hostname = host === undefined ? undefined : hostnameOf(`http://${host}`);
    if (hostname === undefined || !hostnames.has(hostname)) {
      sendJsonRpcError(res, 403, SERVER_ERROR, `Forbidden: Host ${host ?? '(missing)'} is not this server`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      const originHost = /^https?:\/\//i.test(origin) ? hostnameOf(origin) : undefined;
      if (originHost === undefined || !hostnames.has(originHost)) {
        sendJsonRpcError(res, 403, SERVER_ERROR, `Forbidden: Origin ${origin} is not allowed`);
        return;
      }
    }
    next();
  };
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
