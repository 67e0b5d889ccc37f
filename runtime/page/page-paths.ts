/**
 * Where the live page lives on the HTTP server, and which of its paths carry data. The shell and its scripts
 * hold no data, so they are served to anyone who passes the Host/Origin guard (a browser cannot send a bearer
 * token when it navigates); the JSON API and the event stream answer only an authenticated principal (or, with
 * no authentication at all, on loopback, the principal `local`).
 */
export const PAGE_PATH = '/runs';
export const ASSETS_PATH = `${PAGE_PATH}/assets`;
export const API_PATH = `${PAGE_PATH}/api`;
export const EVENTS_PATH = `${PAGE_PATH}/events`;

/** Express matches routes case-insensitively, so these compare paths the same way. */
function normalised(path: string): string {
  return path.toLowerCase();
}

export function isPagePath(path: string): boolean {
  const lower = normalised(path);
  return lower === PAGE_PATH || lower.startsWith(`${PAGE_PATH}/`);
}

/** The shell and its static assets. */
export function isPublicPagePath(path: string): boolean {
  const lower = normalised(path);
  return lower === PAGE_PATH || lower === `${PAGE_PATH}/` || (lower.startsWith(`${ASSETS_PATH}/`) && !lower.includes('..'));
}
