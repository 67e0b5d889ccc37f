/**
 * The contract's page sizes, in one place for every store: `list` returns 50 runs unless asked, never fewer
 * than 1 nor more than 500; `audit` returns up to 1000 entries unless asked. A limit that is not a number
 * falls back to the default; a negative audit limit reads nothing.
 */
import type { RunListQuery } from './run-store.js';

export function listLimit(query: RunListQuery): number {
  const asked = Math.floor(query.limit ?? 50);
  return Number.isFinite(asked) ? Math.min(Math.max(asked, 1), 500) : 50;
}

export function auditLimit(limit: number | undefined): number {
  const asked = Math.floor(limit ?? 1000);
  return Number.isFinite(asked) ? Math.max(asked, 0) : 1000;
}
