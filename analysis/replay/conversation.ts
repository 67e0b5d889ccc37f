/**
 * A finished conversation as `sop replay` checks it: the ordered events of one transcript, whatever it was
 * written as (a run's audit log, chat messages with tool calls, a Claude Code session log, OpenAI Responses
 * items). Readers turn their format into this; the checker and the aligner only read this.
 */
import type { RecordedResult } from '../../contract/run/call-results.js';

/** Where an event is in the input, so a finding can point at it. */
export type EventPlace =
  /** A list of chat messages: the message's index in the list (0-based) and, for a call, its tool call id. */
  | { readonly message: number; readonly tool_call_id?: string }
  /** An audit log: the entry's `seq`. */
  | { readonly seq: number }
  /** A log with one entry a line (a Claude Code session): the line number (1-based) and, for a call, its id. */
  | { readonly line: number; readonly tool_call_id?: string }
  /** OpenAI Responses items: the item's index in the list (0-based) and, for a call, its `call_id`. */
  | { readonly item: number; readonly tool_call_id?: string };

export type ConversationEvent =
  | { readonly kind: 'user'; readonly text: string; readonly place: EventPlace }
  /** Text the agent said to the user (an assistant message's content). */
  | { readonly kind: 'say'; readonly text: string; readonly place: EventPlace }
  | ToolCallEvent;

export interface ToolCallEvent {
  readonly kind: 'call';
  /** The tool as named in the input, without an MCP client's prefix (`mcp__sop__`) in front of a known tool. */
  readonly tool: string;
  /** The parsed arguments; null when they could not be read (`argsProblem` says why). */
  readonly args: Readonly<Record<string, unknown>> | null;
  readonly argsProblem?: string;
  /** What the answer said, where the input records it: `valid` of a `goto_node` answer. */
  readonly recorded?: { readonly valid?: boolean };
  /** The answer was an error (Anthropic `is_error`, τ²-bench `error`, a Responses MCP call's `error`). */
  readonly failed?: true;
  /**
   * What the call answered, where the input records it: the answer's text (a tool message's content, a `tool_result`
   * block's text parts joined), its structured content when the input keeps it (an audit log of a gateway), and
   * `isError` when it failed. Absent when the input holds no answer for the call.
   */
  readonly result?: RecordedResult;
  /** The call may have reached its server and no answer came (a gateway's audit: a timeout, a crash mid-call). */
  readonly unknown?: true;
  /** A gateway's audit log: the user's yes for this call (asked through the client), the confirmation step used, or the user's no. */
  readonly confirmed?: 'yes' | 'step' | 'no';
  /**
   * A move the conformance check inferred from the calls around it (no such call is in the input): it moves the
   * run like an accepted `goto_node` but is not a step. `forced` when the move went past a visit limit.
   */
  readonly inferred?: true;
  readonly forced?: true;
  readonly place: EventPlace;
}

export type InputFormat = 'messages' | 'audit';

/** Which reader understood the input (for the report; the events are the same whatever the reader). */
export type InputReader = 'chat' | 'claude-code' | 'openai-responses' | 'tau2-bench';

export interface Conversation {
  readonly format: InputFormat;
  readonly events: readonly ConversationEvent[];
  /** From an audit log: the run, its agent and the SOP version it was pinned to. */
  readonly run?: { readonly runId: string; readonly agent: string; readonly sourceHash: string };
  readonly reader?: InputReader;
  /** What the reader left out or could not tell, one sentence each (kept-apart sidechains, bookkeeping lines). */
  readonly notes?: readonly string[];
  /** An audit log of a gateway (`sop serve --gateway`): it holds the run's domain calls too, with their confirmations. */
  readonly domainCalls?: true;
}

/** Separators MCP clients put between a server's name and its tool's (`mcp__srv__t`, `mcp_srv_t`, `srv.t`, `srv-t`, …). */
const SEPARATORS = new Set(['_', '-', '.', '/', ':']);

/** Where a client's prefix may end in a tool name: the tail after a run of separators, and that run (`__`, `-`, `.`). */
export interface SeparatorCut {
  /** The name from the cut on: `cancel_pending_order` of `mcp__retail__cancel_pending_order`. */
  readonly tail: string;
  /** The separators right before the tail: `__`. */
  readonly separator: string;
}

/** A prefix may end at `at`: a separator there, something before it, and after it something not a separator. */
function cutsAt(name: string, at: number): boolean {
  return at >= 1 && at < name.length - 1 && SEPARATORS.has(name[at]!) && !SEPARATORS.has(name[at + 1]!);
}

/**
 * Every place a name could be cut into a prefix and a tool, left to right (so the longest tail first): after each
 * run of separators that something precedes and something follows. `knownToolName` looks for a known tool among
 * them; `sop discover` infers the prefixes of a log's tools from them (`analysis/discover/tool-prefixes.ts`).
 */
export function separatorCuts(name: string): SeparatorCut[] {
  const cuts: SeparatorCut[] = [];
  for (let at = 1; at < name.length - 1; at++) {
    if (!cutsAt(name, at)) continue;
    let start = at;
    while (start > 0 && SEPARATORS.has(name[start - 1]!)) start--;
    cuts.push({ tail: name.slice(at + 1), separator: name.slice(start, at + 1) });
  }
  return cuts;
}

/**
 * The tool a name stands for: itself when known, else the longest known tool the name ends with after a
 * separator, which is how every MCP client prefixes a server's tools: Claude Code, Codex and opencode
 * `mcp__server__tool`, VS Code, Copilot CLI and Cursor `mcp_server_tool`, the Copilot SDK `server-tool`,
 * Gemini CLI `server__tool`, and `server.tool`, `server/tool`, `server:tool`, `functions.tool`. A name that ends
 * with no known tool is kept as it is (the report lists it as a tool the SOP does not know).
 */
export function knownToolName(name: string, known: ReadonlySet<string>): string {
  if (known.has(name)) return name;
  // Left to right: the first known tail is the longest one.
  for (let at = 1; at < name.length - 1; at++) {
    if (!cutsAt(name, at)) continue;
    const tail = name.slice(at + 1);
    if (known.has(tail)) return tail;
  }
  return name;
}

/** A place for people: `message 3, call call_04`, `line 12`, `audit seq 4`. */
export function placeText(place: EventPlace): string {
  if ('seq' in place) return `audit seq ${place.seq}`;
  const where = 'message' in place ? `message ${place.message}` : 'line' in place ? `line ${place.line}` : `item ${place.item}`;
  return place.tool_call_id === undefined ? where : `${where}, call ${place.tool_call_id}`;
}
