/**
 * Where conversation state lives between calls, keyed by conversation id (the `Mcp-Session-Id` on HTTP, one
 * id per process on stdio). Asynchronous on purpose: an embedded database or Redis can implement it as is.
 * The server serialises the calls of one conversation (see `keyed-queue.ts`), so a store need not.
 */
import type { SessionState } from './session-state.js';

export interface SessionStore {
  /** The stored state, or undefined for a conversation that has stored nothing yet. */
  get(id: string): Promise<SessionState | undefined>;
  set(id: string, state: SessionState): Promise<void>;
  /** Forget a conversation (its HTTP session ended, or its stdio connection closed). */
  delete(id: string): Promise<void>;
}
