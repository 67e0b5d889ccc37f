/**
 * Reads the file `sop replay` is given and tells its format apart. One file holds one conversation, or several:
 *   - a run's audit log (`{run, audit}`, from `sop runs show RUN --format json`);
 *   - chat messages (OpenAI Chat Completions, Anthropic Messages, τ²-bench): a list, `{messages: [...]}` (a
 *     τ²-bench simulation, an API request), or JSON Lines of messages;
 *   - a Claude Code session log (JSON Lines of wrapper lines: `read-claude-code.ts`);
 *   - OpenAI Responses items: a list of items, a response (`{object: 'response', output}`), `{input, output}`, or an
 *     items list (`{object: 'list', data}`, in either order);
 *   - several conversations: τ²-bench results (`{simulations: [...]}`, each with its reward) or JSON Lines of
 *     conversations (`{"messages": [...]}` a line, as fine-tuning data is kept).
 */
import type { ClaudeSession, LogLine } from './read-claude-code.js';
import { isClaudeCodeLog, readClaudeCode } from './read-claude-code.js';
import type { Conversation, InputReader } from './conversation.js';
import { readAudit } from './read-audit.js';
import { readMessages } from './read-messages.js';
import { isResponsesItems, readResponses } from './read-responses.js';

/** One conversation of a file, with what the file says about it besides its events. */
export interface Transcript {
  /** Set when the file holds several: the τ²-bench simulation's id, or `line N` of JSON Lines of conversations. */
  readonly id?: string;
  readonly conversation: Conversation;
  /** The task's reward the input records (a τ²-bench simulation's `reward_info.reward`). */
  readonly reward?: number;
  /** A Claude Code session log's thread ends (a batch joins or drops resumed sessions with them). */
  readonly session?: ClaudeSession;
}

export type TranscriptsRead =
  | { readonly ok: true; readonly transcripts: readonly Transcript[] }
  | { readonly ok: false; readonly error: string };
export type ConversationRead = { readonly ok: true; readonly conversation: Conversation } | { readonly ok: false; readonly error: string };

const SHAPES =
  'a run (sop runs show RUN --format json), chat messages (a list, {"messages": [...]}, or JSON Lines), a Claude Code session log, OpenAI Responses items, or τ²-bench results';

/** The one conversation of a file; a file of several is an error naming how many (a batch reads them). */
export function readConversation(text: string, knownTools: ReadonlySet<string>): ConversationRead {
  const read = readTranscripts(text, knownTools);
  if (!read.ok) return read;
  const [first, ...more] = read.transcripts;
  if (first === undefined) return { ok: false, error: 'the file holds no conversation' };
  if (more.length > 0) return { ok: false, error: `the file holds ${read.transcripts.length} conversations; replay them as a batch` };
  return { ok: true, conversation: first.conversation };
}

export function readTranscripts(text: string, knownTools: ReadonlySet<string>): TranscriptsRead {
  const parsed = parseJson(text);
  if (parsed === undefined) return { ok: false, error: `the file is neither JSON nor JSON Lines; expected ${SHAPES}` };
  if (parsed.lines !== undefined) return fromList(parsed.lines, knownTools);
  const value = parsed.value;
  if (Array.isArray(value))
    return fromList(
      value.map((v, i) => ({ line: i + 1, value: v })),
      knownTools,
    );
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('audit' in object && 'run' in object) return one(readAudit({ run: object.run, audit: object.audit }));
    if (Array.isArray(object.simulations)) return simulations(object.simulations, knownTools);
    if (Array.isArray(object.messages))
      return one(chat(object.messages, knownTools, isSimulation(object) ? 'tau2-bench' : 'chat'), rewardOf(object));
    if (Array.isArray(object.output) || (object.object === 'list' && Array.isArray(object.data)))
      return one(responsesObject(object, knownTools));
    if (typeof object.role === 'string') return one(chat([object], knownTools, 'chat'));
    if (isClaudeCodeLog([object])) return fromList([{ line: 1, value: object }], knownTools);
  }
  return { ok: false, error: `the file holds no conversation; expected ${SHAPES}` };
}

/** A list of values (JSON array items or JSON Lines, `value` undefined for a line that is not JSON). */
function fromList(lines: readonly LogLine[], knownTools: ReadonlySet<string>): TranscriptsRead {
  const values = lines.flatMap(({ value }) => (value === undefined ? [] : [value]));
  if (isClaudeCodeLog(values)) {
    const read = readClaudeCode(lines, knownTools);
    if (!read.ok) return read;
    const conversation: Conversation = { format: 'messages', events: read.events, reader: 'claude-code', notes: read.notes };
    return { ok: true, transcripts: [{ conversation, session: read.session }] };
  }
  const broken = lines.find(({ value }) => value === undefined);
  if (broken !== undefined) return { ok: false, error: `the file is neither JSON nor JSON Lines; expected ${SHAPES}` };
  if (values.length > 0 && values.every(isConversationObject)) {
    const transcripts: Transcript[] = [];
    for (const [index, value] of values.entries()) {
      const object = value as Record<string, unknown>;
      const read = chat(object.messages as unknown[], knownTools, isSimulation(object) ? 'tau2-bench' : 'chat');
      if (!read.ok) return { ok: false, error: `line ${lines[index]!.line}: ${read.error}` };
      const reward = rewardOf(object);
      const id = typeof object.id === 'string' ? object.id : `line ${lines[index]!.line}`;
      transcripts.push({ id, conversation: read.conversation, ...(reward === undefined ? {} : { reward }) });
    }
    return { ok: true, transcripts };
  }
  if (isResponsesItems(values)) return one(responses(values, knownTools));
  return one(chat(values, knownTools, 'chat'));
}

/** τ²-bench results: one transcript per simulation, named by its id, with its reward. */
function simulations(list: readonly unknown[], knownTools: ReadonlySet<string>): TranscriptsRead {
  const transcripts: Transcript[] = [];
  for (const [index, value] of list.entries()) {
    const simulation = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const id = typeof simulation.id === 'string' ? simulation.id : `simulation ${index}`;
    if (!Array.isArray(simulation.messages))
      return { ok: false, error: `simulation ${id} has no messages (a full-duplex run keeps ticks, which this replay does not read)` };
    const read = chat(simulation.messages, knownTools, 'tau2-bench');
    if (!read.ok) return { ok: false, error: `simulation ${id}: ${read.error}` };
    const reward = rewardOf(simulation);
    transcripts.push({ id, conversation: read.conversation, ...(reward === undefined ? {} : { reward }) });
  }
  return { ok: true, transcripts };
}

function one(read: ConversationRead, reward?: number): TranscriptsRead {
  if (!read.ok) return read;
  return {
    ok: true,
    transcripts: [reward === undefined ? { conversation: read.conversation } : { conversation: read.conversation, reward }],
  };
}

function chat(list: readonly unknown[], knownTools: ReadonlySet<string>, reader: InputReader): ConversationRead {
  const read = readMessages(list, knownTools);
  return read.ok ? { ok: true, conversation: { format: 'messages', events: read.events, reader } } : read;
}

function responses(items: readonly unknown[], knownTools: ReadonlySet<string>): ConversationRead {
  const read = readResponses(items, knownTools);
  return read.ok ? { ok: true, conversation: { format: 'messages', events: read.events, reader: 'openai-responses' } } : read;
}

/** A response (`output`, after its `input` when the file keeps both) or an items list, oldest first. */
function responsesObject(object: Record<string, unknown>, knownTools: ReadonlySet<string>): ConversationRead {
  if (Array.isArray(object.output)) {
    const input = Array.isArray(object.input)
      ? object.input
      : typeof object.input === 'string'
        ? [{ role: 'user', content: object.input }]
        : [];
    return responses([...input, ...object.output], knownTools);
  }
  const data = object.data as unknown[];
  return responses(newestFirst(data) ? [...data].reverse() : data, knownTools);
}

/** Whether an items list is newest first (the API's default order): an output comes before the call it answers. */
function newestFirst(items: readonly unknown[]): boolean {
  const seen = new Map<string, string>();
  for (const item of items) {
    const { type, call_id } = (item ?? {}) as { type?: unknown; call_id?: unknown };
    if (typeof call_id !== 'string') continue;
    if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      if (!seen.has(call_id)) return true;
    } else seen.set(call_id, String(type));
  }
  return false;
}

function isConversationObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Array.isArray((value as { messages?: unknown }).messages) && !('role' in value);
}

function isSimulation(object: Record<string, unknown>): boolean {
  return 'task_id' in object || 'reward_info' in object || 'termination_reason' in object;
}

function rewardOf(object: Record<string, unknown>): number | undefined {
  const info = object.reward_info;
  const reward = info !== null && typeof info === 'object' ? (info as { reward?: unknown }).reward : undefined;
  return typeof reward === 'number' && Number.isFinite(reward) ? reward : undefined;
}

/** The file as one JSON value, or as JSON Lines (each line's value, undefined for a line that is not JSON). */
function parseJson(text: string): { readonly value: unknown; readonly lines?: undefined } | { readonly lines: LogLine[] } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    const lines: LogLine[] = [];
    let parsedAny = false;
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        lines.push({ line: index + 1, value: JSON.parse(line) as unknown });
        parsedAny = true;
      } catch {
        lines.push({ line: index + 1, value: undefined });
      }
    }
    return parsedAny ? { lines } : undefined;
  }
}
