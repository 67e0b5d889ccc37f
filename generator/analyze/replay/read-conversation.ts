/**
 * Reads the file `sop replay` is given and tells its format apart: an audit log (`{run, audit}`, from
 * `sop runs show RUN --format json`), a list of chat messages, an object with a `messages` list (a τ²-bench
 * simulation), or JSON Lines with one message per line.
 */
import type { Conversation } from './conversation.js';
import { readAudit } from './read-audit.js';
import { readMessages } from './read-messages.js';

export type ConversationRead = { readonly ok: true; readonly conversation: Conversation } | { readonly ok: false; readonly error: string };

const SHAPES = 'a run (sop runs show RUN --format json), a list of chat messages, {"messages": [...]}, or JSON Lines of messages';

export function readConversation(text: string, knownTools: ReadonlySet<string>): ConversationRead {
  const value = parseJson(text);
  if (value === undefined) return { ok: false, error: `the file is neither JSON nor JSON Lines; expected ${SHAPES}` };
  if (Array.isArray(value)) return messages(value, knownTools);
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('audit' in object && 'run' in object) return readAudit({ run: object.run, audit: object.audit });
    if (Array.isArray(object.messages)) return messages(object.messages, knownTools);
    // JSON Lines of one message parse as that message.
    if (typeof object.role === 'string') return messages([object], knownTools);
  }
  return { ok: false, error: `the file holds no conversation; expected ${SHAPES}` };
}

function messages(list: readonly unknown[], knownTools: ReadonlySet<string>): ConversationRead {
  const read = readMessages(list, knownTools);
  return read.ok ? { ok: true, conversation: { format: 'messages', events: read.events } } : read;
}

/** The file as one JSON value, or as JSON Lines (a list of the lines' values); undefined when it is neither. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
    if (lines.length === 0) return undefined;
    try {
      return lines.map((line) => JSON.parse(line) as unknown);
    } catch {
      return undefined;
    }
  }
}
