/**
 * Reads a Claude Code session log (`~/.claude/projects/<project>/<session>.jsonl`) as Claude Code writes it: one
 * JSON object a line, the conversation in `user` / `assistant` lines that wrap an Anthropic Messages `message`
 * (tool results inside user messages, thinking blocks, one line per content block of a long answer) with `uuid`,
 * `parentUuid`, `isSidechain` and `sessionId`, and between them lines that are not the conversation (`summary`,
 * `queue-operation`, `file-history-snapshot`, `system`, `attachment`, `progress`, and whatever a later version adds).
 *
 * The conversation is the thread that ends at the last line of the main chain, followed back through `parentUuid`:
 *   - lines that are not on it are left out: an abandoned branch (a message edited and sent again), and the
 *     sidechains (`isSidechain: true`, a subagent's own conversation), which are kept apart and counted; a log
 *     that holds nothing but a sidechain (a subagent's own file) is read as that conversation;
 *   - a compaction starts a new root (`system` `compact_boundary`, `parentUuid: null`) whose `logicalParentUuid`
 *     links it back, and the thread goes on through it; its summary message is not the user speaking;
 *   - a resumed session's file repeats the lines it continues (same uuids, the older `sessionId`): a uuid is read
 *     once. When the thread reaches a parent that is not in the file (a session that continues another file), it
 *     starts there and says so; `session` carries what a batch needs to join or drop such files.
 * Tool results come back as `tool_result` blocks in user lines (their text is the call's answer); a line's
 * `toolUseResult` that holds a structured value for one of the SOP's tools is kept as the answer's structured content.
 * Meta lines (`isMeta`), and slash-command envelopes, are Claude Code talking, not the user. A line that is not
 * JSON (a log cut off mid-write) is left out and counted.
 */
import type { ConversationEvent } from './conversation.js';
import { readMessages } from './read-messages.js';

/** What a batch needs to tell that one session log continues another. */
export interface ClaudeSession {
  /** The `sessionId` of the thread's last line. */
  readonly id: string | null;
  /** Other sessions whose lines the thread repeats: this log resumed them (they are superseded by it). */
  readonly resumes: readonly string[];
  /** The uuid of the thread's last line. */
  readonly leaf: string | null;
  /** The parent the thread's first line names but the file does not hold (it continues another log), or null. */
  readonly continues: string | null;
}

export type ClaudeCodeRead =
  | {
      readonly ok: true;
      readonly events: readonly ConversationEvent[];
      readonly notes: readonly string[];
      readonly session: ClaudeSession;
    }
  | { readonly ok: false; readonly error: string };

/** One parsed line: its 1-based number and its value (undefined when the line is not JSON). */
export interface LogLine {
  readonly line: number;
  readonly value: unknown;
}

type Entry = Record<string, unknown> & { readonly uuid?: unknown; readonly parentUuid?: unknown };

/** Whether parsed lines look like a Claude Code session log: wrapper lines, not bare messages. */
export function isClaudeCodeLog(values: readonly unknown[]): boolean {
  return values.some((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const entry = value as Record<string, unknown>;
    if (typeof entry.type !== 'string' || typeof entry.role === 'string') return false;
    const wrapsMessage = (entry.type === 'user' || entry.type === 'assistant') && typeof entry.message === 'object';
    return wrapsMessage || 'sessionId' in entry || 'leafUuid' in entry || 'parentUuid' in entry;
  });
}

export function readClaudeCode(lines: readonly LogLine[], knownTools: ReadonlySet<string>): ClaudeCodeRead {
  const byUuid = new Map<string, { readonly line: number; readonly entry: Entry }>();
  const conversational: { readonly line: number; readonly entry: Entry }[] = [];
  const other = new Map<string, number>();
  let broken = 0;
  let repeated = 0;
  for (const { line, value } of lines) {
    if (value === undefined) {
      broken += 1;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      other.set('(not an object)', (other.get('(not an object)') ?? 0) + 1);
      continue;
    }
    const entry = value as Entry;
    if (typeof entry.uuid === 'string') {
      if (byUuid.has(entry.uuid)) {
        repeated += 1;
        continue;
      }
      byUuid.set(entry.uuid, { line, entry });
    }
    if (isMessageLine(entry)) conversational.push({ line, entry });
    else {
      const kind = typeof entry.type === 'string' ? entry.type : '(no type)';
      other.set(kind, (other.get(kind) ?? 0) + 1);
    }
  }
  const main = conversational.filter(({ entry }) => entry.isSidechain !== true);
  const sidechain = conversational.length - main.length;
  const readingSidechain = main.length === 0 && sidechain > 0;
  const candidates = readingSidechain ? conversational : main;
  const notes: string[] = [];
  if (broken > 0)
    notes.push(
      `${broken} line${broken === 1 ? ' is' : 's are'} not JSON (a log cut off mid-write?) and ${broken === 1 ? 'was' : 'were'} left out`,
    );
  if (readingSidechain) notes.push('the log holds only a sidechain (a subagent’s conversation): it is read as the conversation');
  else if (sidechain > 0) notes.push(`${sidechain} sidechain line${sidechain === 1 ? '' : 's'} (a subagent’s conversation) kept apart`);
  if (repeated > 0) notes.push(`${repeated} line${repeated === 1 ? '' : 's'} repeating a uuid already read (a resumed session) read once`);
  const leaf = candidates.at(-1);
  if (leaf === undefined) {
    return { ok: false, error: 'the Claude Code log holds no user or assistant message' };
  }

  // The thread, from the last line back to its root.
  const thread: { readonly line: number; readonly entry: Entry }[] = [];
  const seen = new Set<string>();
  let at: { readonly line: number; readonly entry: Entry } | undefined = leaf;
  let continues: string | null = null;
  while (at !== undefined) {
    const uuid = typeof at.entry.uuid === 'string' ? at.entry.uuid : null;
    if (uuid !== null) {
      if (seen.has(uuid)) break;
      seen.add(uuid);
    }
    thread.push(at);
    const parent: unknown =
      at.entry.parentUuid === null && typeof at.entry.logicalParentUuid === 'string' ? at.entry.logicalParentUuid : at.entry.parentUuid;
    if (typeof parent !== 'string') break;
    const next = byUuid.get(parent);
    if (next === undefined) continues = parent;
    at = next;
  }
  thread.reverse();
  const messages = thread.filter(({ entry }) => isMessageLine(entry) && !isClaudeCodeTalking(entry));
  const onThread = messages.length;
  const offThread = candidates.length - thread.filter(({ entry }) => isMessageLine(entry)).length;
  if (offThread > 0)
    notes.push(
      `${offThread} message line${offThread === 1 ? '' : 's'} off the thread that ends at line ${leaf.line} (an abandoned branch) left out`,
    );
  if (continues !== null)
    notes.push(
      `the thread starts at line ${thread[0]!.line}, whose parent ${continues} is not in this file: it continues another session log`,
    );
  const otherKinds = [...other].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (otherKinds.length > 0)
    notes.push(`lines that are not messages left out: ${otherKinds.map(([kind, count]) => `${kind} ×${count}`).join(', ')}`);

  const read = readMessages(
    // A message without its role has the line's type for one.
    messages.map(({ entry }) => {
      const message = entry.message as Record<string, unknown>;
      return typeof message.role === 'string' ? message : { ...message, role: entry.type };
    }),
    knownTools,
    { place: (index) => ({ line: messages[index]!.line }), label: (index) => `line ${messages[index]!.line}` },
  );
  if (!read.ok) return read;
  const events = withStructuredResults(read.events, messages, knownTools);
  const sessionOf = (entry: Entry): string | null => (typeof entry.sessionId === 'string' ? entry.sessionId : null);
  const id = sessionOf(leaf.entry);
  const resumes = [...new Set(thread.map(({ entry }) => sessionOf(entry)).filter((s): s is string => s !== null && s !== id))].sort();
  return {
    ok: true,
    events,
    notes: onThread === 0 ? [...notes, 'the thread holds no message'] : notes,
    session: { id, resumes, leaf: typeof leaf.entry.uuid === 'string' ? leaf.entry.uuid : null, continues },
  };
}

/**
 * The answers of the SOP's tools with what the line kept beside the `tool_result` block (`toolUseResult`) when that
 * is a structured value (an MCP tool's structured content), not Claude Code's text forms (a string, a text block, a
 * list of content blocks) nor a built-in tool's own record (those tools are not known).
 */
function withStructuredResults(
  events: readonly ConversationEvent[],
  lines: readonly { readonly entry: Entry }[],
  knownTools: ReadonlySet<string>,
): readonly ConversationEvent[] {
  const structured = new Map<string, unknown>();
  for (const { entry } of lines) {
    const value = entry.toolUseResult;
    if (entry.type !== 'user' || !isStructured(value)) continue;
    const content = (entry.message as { content?: unknown }).content;
    const results = Array.isArray(content) ? content.filter((block) => (block as { type?: unknown } | null)?.type === 'tool_result') : [];
    const id = results.length === 1 ? (results[0] as { tool_use_id?: unknown }).tool_use_id : undefined;
    if (typeof id === 'string') structured.set(id, value);
  }
  if (structured.size === 0) return events;
  return events.map((event) => {
    if (event.kind !== 'call' || !knownTools.has(event.tool) || !('tool_call_id' in event.place)) return event;
    const id = event.place.tool_call_id;
    if (id === undefined || !structured.has(id)) return event;
    return { ...event, result: { ...event.result, structured: structured.get(id) } };
  });
}

function isStructured(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const isBlock = (item: unknown) => item !== null && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string';
  if (Array.isArray(value)) return !value.every(isBlock);
  const { type, text } = value as { type?: unknown; text?: unknown };
  return !(type === 'text' && typeof text === 'string');
}

function isMessageLine(entry: Entry): boolean {
  return (entry.type === 'user' || entry.type === 'assistant') && entry.message !== null && typeof entry.message === 'object';
}

/** Lines written by Claude Code in the user's place: meta lines, compaction summaries, slash-command envelopes. */
function isClaudeCodeTalking(entry: Entry): boolean {
  if (entry.isMeta === true || entry.isCompactSummary === true || entry.isVisibleInTranscriptOnly === true) return true;
  if (entry.type !== 'user') return false;
  const content = (entry.message as { content?: unknown }).content;
  return typeof content === 'string' && /^\s*<(command-name|command-message|local-command-stdout|local-command-caveat)>/.test(content);
}
