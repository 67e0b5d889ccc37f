/**
 * Whether `sop serve --http` serves the live page, and behind which authentication:
 *   - without authentication (which `serveHttp` allows on loopback only) the page needs nothing: every run
 *     belongs to the principal `local`, and the page shows them all;
 *   - with authentication (MCP bearer tokens or OAuth), the page needs page tokens (`page-auth.ts`): each is a
 *     read-only credential for one principal, and the page shows that principal's runs only. Without page
 *     tokens the page stays off, on any address: there is no principal to show runs for.
 * The page is also off, saying so, when its assets (the page script and Mermaid, `dist/page/`) are not there:
 * the one-file server of `sop bundle` carries the server, not the 3.5 MB page.
 */
import type { Express } from 'express';
import type { HttpAuth } from '../http/auth.js';
import { findPageAssets } from './page-assets.js';
import { withPageTokens } from './page-auth.js';
import { PAGE_PATH } from './page-paths.js';
import { type RunsPageOptions, runsPageRoutes } from './page-routes.js';

export interface RunsPagePlanOptions extends RunsPageOptions {
  /** The server's MCP authentication, if any. */
  readonly auth?: HttpAuth | undefined;
  /** Page tokens, token → principal (`readTokenFile`). */
  readonly pageTokens?: ReadonlyMap<string, string> | undefined;
}

export type RunsPagePlan =
  | { readonly on: true; readonly routes: (app: Express) => void; readonly auth: HttpAuth | undefined; readonly path: string }
  | { readonly on: false; readonly auth: HttpAuth | undefined; readonly reason: string };

export function planRunsPage(options: RunsPagePlanOptions): RunsPagePlan {
  const { auth, pageTokens } = options;
  if ((options.assetsDir ?? findPageAssets()) === undefined) {
    return {
      on: false,
      auth,
      reason: 'its assets (dist/page: the page script and Mermaid) are not beside this server; `sop serve` has them',
    };
  }
  if (pageTokens !== undefined)
    return { on: true, routes: runsPageRoutes(options), auth: withPageTokens(auth, pageTokens), path: PAGE_PATH };
  if (auth === undefined) return { on: true, routes: runsPageRoutes(options), auth, path: PAGE_PATH };
  return {
    on: false,
    auth,
    reason: 'the server authenticates and no page token is configured (--page-tokens FILE gives read-only tokens per principal)',
  };
}
