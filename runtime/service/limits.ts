/** The session service's clock and limits: what its parts (sessions, run commits, the sweep) read, fixed at creation. */

export interface Clock {
  now(): number;
}

export interface ServiceLimits {
  /** A run idle this long expires (default 24 h). */
  readonly runIdleMs: number;
  /** Sessions this process keeps open at most (default 10,000); `initialize` beyond it is refused. */
  readonly maxLiveSessions: number;
  /** Compare-and-set attempts per call before the call is answered "try again" (default 5). */
  readonly commitAttempts: number;
  /** Runs this process keeps in memory (default 1,024); the rest are read from the store when used. */
  readonly runCacheSize: number;
}

export const DEFAULT_LIMITS: ServiceLimits = Object.freeze({
  runIdleMs: 24 * 60 * 60 * 1000,
  maxLiveSessions: 10_000,
  commitAttempts: 5,
  runCacheSize: 1024,
});
