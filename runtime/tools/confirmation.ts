/**
 * A user's confirmation is for one call: the tool and a digest of its arguments. The digest is of the arguments
 * in a canonical form (object keys sorted at every depth), so `{a, b}` and `{b, a}` are the same call and any
 * changed value is another call. The question shown to the user names the agent, the node, the tool and every
 * argument (long values cut), so they can tell what they are allowing.
 */
import { createHash } from 'node:crypto';

/** What the user is asked: a form with one boolean. */
export interface ConfirmationQuestion {
  /** Sent as the call's request state; the answer must come back with it. */
  readonly id: string;
  readonly message: string;
  readonly requestedSchema: {
    type: 'object';
    properties: { confirm: { type: 'boolean'; title: string; description: string } };
    required: string[];
  };
}

/** The key of the question in a 2026-07-28 `input_required` result (and of its answer). */
export const CONFIRMATION_INPUT_KEY = 'confirm';

const MAX_VALUE = 200;
const MAX_MESSAGE = 1500;

export function callDigest(tool: string, args: unknown): string {
  return `sha256:${createHash('sha256')
    .update(canonicalJson([tool, args]))
    .digest('hex')}`;
}

export function confirmationQuestion(
  id: string,
  agent: string,
  node: string,
  tool: string,
  args: Readonly<Record<string, unknown>>,
): ConfirmationQuestion {
  const shown = Object.entries(args).map(([key, value]) => `${key}: ${cut(JSON.stringify(value) ?? String(value))}`);
  const what = shown.length === 0 ? `${tool} (no arguments)` : `${tool} with ${shown.join(', ')}`;
  const message = `The ${agent} agent, at step ${node} of its procedure, asks to call ${what}. Allow this one call?`;
  return {
    id,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message,
    requestedSchema: {
      type: 'object',
      properties: {
        confirm: { type: 'boolean', title: 'Allow this call', description: `Yes sends ${tool} once, with exactly these arguments.` },
      },
      required: ['confirm'],
    },
  };
}

/** JSON with object keys sorted at every depth. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function cut(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
