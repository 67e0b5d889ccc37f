/**
 * A conversation as the log formats write it: what the user said, what the agent said, and each tool call with the
 * answer it got (absent when none came back). Every writer takes these; the writers differ only in shape.
 */
import type { RecordedResult } from '../../../../contract/run/call-results.js';
import { TOOLKIT_TOOLS } from '../../../../analysis/replay/check-conversation.js';

export type Turn =
  | { readonly user: string }
  | { readonly say: string }
  | { readonly call: string; readonly args: Readonly<Record<string, unknown>>; readonly answer?: RecordedResult };

/** What a writer is told about the conversation besides its turns; `n` numbers it (ids, times), so files differ. */
export interface WriteOptions {
  readonly n: number;
}

/** The MCP server a tool comes from, as a client names it in its prefixes (`mcp__sop__goto_node`). */
export const serverOf = (tool: string): string => ((TOOLKIT_TOOLS as readonly string[]).includes(tool) ? 'sop' : 'retail-tools');
