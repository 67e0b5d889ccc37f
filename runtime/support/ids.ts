/**
 * Run and session ids. A run id is a capability: whoever holds it (and is its principal) may use the run, so it
 * carries 128 random bits from the OS's CSPRNG, written base64url (visible ASCII, as MCP wants for session ids).
 * The prefix only makes logs readable; nothing parses it.
 */
import { randomBytes } from 'node:crypto';

export function newRunId(): string {
  return `run_${randomBytes(16).toString('base64url')}`;
}

export function newSessionId(): string {
  return `ses_${randomBytes(16).toString('base64url')}`;
}
