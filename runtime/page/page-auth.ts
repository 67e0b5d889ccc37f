/**
 * Who may read the live page when the server authenticates. A page token is a read-only credential for one
 * principal: it shows that principal's runs on the page, and nothing else; it is not accepted at `/mcp`, so
 * handing it to a person watching the runs does not let them call tools. MCP tokens are not accepted by the
 * page either: credentials given to agents stay out of browsers. Page tokens come from a file of
 * `principal token` lines, like MCP bearer tokens (`sop serve --page-tokens FILE`).
 *
 * `serve-http` authenticates every route after its guard with one middleware; this one sends the page's data
 * paths to the page tokens, lets the page's shell and assets through (they hold no data), and everything else
 * to the MCP authentication as before. A missing or unknown page token is 401 with `WWW-Authenticate`, from the
 * SDK's bearer middleware.
 */
import type { NextFunction, Request, Response } from 'express';
import { type HttpAuth, staticTokenAuth } from '../http/auth.js';
import { isPagePath, isPublicPagePath } from './page-paths.js';

export function withPageTokens(mcp: HttpAuth | undefined, pageTokens: ReadonlyMap<string, string>): HttpAuth {
  const page = staticTokenAuth(pageTokens, `${pageTokens.size} page token(s)`);
  return {
    middleware(req: Request, res: Response, next: NextFunction) {
      if (isPublicPagePath(req.path)) return next();
      if (isPagePath(req.path)) return page.middleware(req, res, next);
      return mcp === undefined ? next() : mcp.middleware(req, res, next);
    },
    ...(mcp?.publicRoutes === undefined ? {} : { publicRoutes: mcp.publicRoutes }),
    description: `${mcp?.description ?? 'no authentication for MCP'}; the runs page with ${page.description}`,
  };
}
