/**
 * A finished conversation as `sop replay` checks it: the ordered events of one transcript, whatever it was
 * written as (a run's audit log, or chat messages with tool calls). Readers turn their format into this; the
 * checker only reads this.
 */

/** Where an event is in the input, so a finding can point at it. */
export type EventPlace =
  /** A chat transcript: the message's index in the list (0-based) and, for a call, its tool call id. */
  | { readonly message: number; readonly tool_call_id?: string }
  /** An audit log: the entry's `seq`. */
  | { readonly seq: number };

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
  readonly place: EventPlace;
}

export type InputFormat = 'messages' | 'audit';

export interface Conversation {
  readonly format: InputFormat;
  readonly events: readonly ConversationEvent[];
  /** From an audit log: the run, its agent and the SOP version it was pinned to. */
  readonly run?: { readonly runId: string; readonly agent: string; readonly sourceHash: string };
}

/** The tool a name stands for: itself when known, else what follows an MCP client's prefix (`mcp__sop__goto_node`). */
export function knownToolName(name: string, known: ReadonlySet<string>): string {
  if (known.has(name)) return name;
  for (const separator of ['__', '.', '/']) {
    const at = name.lastIndexOf(separator);
    const tail = at < 0 ? '' : name.slice(at + separator.length);
    if (known.has(tail)) return tail;
  }
  return name;
}
