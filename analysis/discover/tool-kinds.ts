/**
 * What a call in a log is, for mining: the domain tool it names (behind an MCP client's prefix), whether that is a
 * tool of the agent's domain at all (not the toolkit's own, not the client's built-ins), and whether it reads or
 * changes something.
 *
 * Without a SOP nothing says which tools change data, so the name does: a tool whose first word is a reading verb
 * (`get_order_details`, `find_user_id_by_email`, `list_all_product_types`, `check_verification_code`, `calculate`)
 * is a read; any other tool (`cancel_pending_order`, `transfer_to_human_agents`, `send_password_reset_link`) is a
 * change: what the agent does for the user. A read never ends an intent; a change may.
 */
import { TOOLKIT_TOOLS } from '../replay/check-conversation.js';

export type ToolKind = 'read' | 'change';

/** First words of tools that only read. Everything else counts as a change (the safer guess: a change gets a step of its own). */
const READING_VERBS: ReadonlySet<string> = new Set([
  'browse',
  'calculate',
  'check',
  'compare',
  'compute',
  'count',
  'describe',
  'estimate',
  'explain',
  'fetch',
  'find',
  'get',
  'has',
  'inspect',
  'is',
  'list',
  'locate',
  'look',
  'lookup',
  'preview',
  'query',
  'read',
  'retrieve',
  'search',
  'show',
  'summarize',
  'track',
  'validate',
  'verify',
  'view',
]);

const TOOLKIT: ReadonlySet<string> = new Set(TOOLKIT_TOOLS);

/** `read` when the tool's first word is a reading verb, else `change`. */
export function toolKind(tool: string): ToolKind {
  const first = words(tool)[0];
  return first !== undefined && READING_VERBS.has(first) ? 'read' : 'change';
}

/** The words of a tool name, lower case: `getOrderDetails`, `get-order.details` and `get_order_details` alike. */
export function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off: `Ändern` is `andern`
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** How a reader's tool name is mined: a domain tool (its name without a client's `mcp__server__` prefix), or left out and why. */
export interface MinedName {
  readonly kind: 'domain' | 'toolkit' | 'client';
  readonly tool: string;
  /** The server a client's `mcp__server__tool` prefix named, if any. */
  readonly server?: string;
}

/**
 * A reader's tool name as mining sees it. The readers already strip a client's prefix from the tools they were told
 * of (the toolkit's, a written SOP's); a name Claude Code or Codex gave a tool no one told them of keeps its
 * `mcp__server__` prefix, which is taken off here. In a Claude Code log, a tool without that prefix is one of Claude
 * Code's own (`Read`, `Bash`, `TodoWrite`), and the hosted tools of the Responses API (`web_search`) are OpenAI's:
 * neither is the agent's domain.
 */
export function minedName(name: string, reader: string | undefined, known: ReadonlySet<string>): MinedName {
  // A call that names no tool is nobody's to mine.
  if (name.trim() === '') return { kind: 'client', tool: '(no name)' };
  const prefixed = /^mcp__(.+?)__(.+)$/.exec(name);
  const tool = prefixed === null ? name : prefixed[2]!;
  if (TOOLKIT.has(tool)) return { kind: 'toolkit', tool };
  if (prefixed !== null) return { kind: 'domain', tool, server: prefixed[1]! };
  if (known.has(tool)) return { kind: 'domain', tool };
  if (reader === 'claude-code' || (reader === 'openai-responses' && HOSTED.has(tool))) return { kind: 'client', tool };
  return { kind: 'domain', tool };
}

/** The Responses API's hosted tools, as its reader names their calls (the item type without `_call`). */
const HOSTED: ReadonlySet<string> = new Set([
  'web_search',
  'file_search',
  'code_interpreter',
  'computer',
  'image_generation',
  'local_shell',
  'shell',
  'apply_patch',
]);
