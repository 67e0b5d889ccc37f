/**
 * The in-memory `SessionStore`: a Map. State is conversation-scoped and dies with the process, which is what
 * the seed asks for ("no persistence across conversations").
 */
import type { SessionState } from './session-state.js';
import type { SessionStore } from './session-store.js';

export interface MemorySessionStore extends SessionStore {
  /** Number of conversations currently held (for tests and diagnostics). */
  readonly size: number;
}

export function createMemorySessionStore(): MemorySessionStore {
  const states = new Map<string, SessionState>();
  return {
    get size() {
      return states.size;
    },
    async get(id) {
      return states.get(id);
    },
    async set(id, state) {
      states.set(id, state);
    },
    async delete(id) {
      states.delete(id);
    },
  };
}
