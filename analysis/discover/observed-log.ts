/**
 * What the mining pass keeps of the logs: per conversation, its domain calls as small integers (the tool, whether
 * the call found something, whether the user's yes came right before it), and over all of them a few counts the
 * draft's rules are mined from (how often each change names an entity a read named first) and a few example
 * exchanges per tool for the prompts. The conversations themselves are dropped once observed, so memory grows by a
 * few bytes per call, whatever the logs weigh.
 *
 * And the data each change was decided on (`answer-fields.ts`).
 *
 * Tool ids are given in order of first sight while reading, then renumbered by name (`finish`), so the draft does not
 * depend on which file was read first. A tool is named without a client's prefix: Claude Code's `mcp__server__`
 * (`minedName`), and the prefixes `tool-prefixes.ts` inferred from an earlier reading of the same logs (`unprefixed`).
 */
import { answerKind, type ReadAnswer, readAnswer } from '../../contract/run/call-results.js';
import { DEFAULT_CONFIRMATION } from '../../generator/model/policy-model.js';
import type { ConversationEvent, ToolCallEvent } from '../replay/conversation.js';
import { AnswerFields } from './answer-fields.js';
import type { Transcript } from '../replay/read-conversation.js';
import { minedName, type ToolKind, toolKind } from './tool-kinds.js';
import { serverName, type Unprefixed } from './tool-prefixes.js';

/** How a call came out, as far as the log shows. */
export const FOUND = 0;
export const EMPTY = 1;
export const FAILED = 2;
export const UNSEEN = 3;

export interface ObservedConversation {
  readonly name: string;
  /** The domain calls' tools (ids into `tools`), in order, repeats kept. */
  readonly calls: Int32Array;
  /** Per call: FOUND, EMPTY, FAILED or UNSEEN. */
  readonly outcome: Uint8Array;
  /**
   * Per call: 1 when the user's last message since the previous domain call, after the agent spoke, is an explicit
   * yes, or a gateway's audit log records the user's yes for it.
   */
  readonly confirmed: Uint8Array;
  readonly success: boolean | null;
  /**
   * Per change call (by position) with scalar arguments: the argument names it gave, and those whose value a read
   * named earlier in the conversation (read order A, then change order A).
   */
  readonly named?: ReadonlyMap<number, { readonly names: readonly string[]; readonly readFirst: readonly string[] }>;
  /** A Claude Code session log's session id and the sessions it resumed (those repeat its lines: not mined twice). */
  readonly session?: { readonly id: string | null; readonly resumes: readonly string[] };
}

/** An exchange around a call, for a node's prompt: what the user said before it and the agent after. */
export interface Example {
  readonly conversation: number;
  /** The call's position among the conversation's domain calls. */
  readonly call: number;
  readonly user: string;
  readonly agent: string;
}

const EXAMPLES_PER_TOOL = 8;
const EXAMPLE_CHARACTERS = 200;
const YES = new RegExp(DEFAULT_CONFIRMATION, 'i');

export class ObservedLog {
  /** Tool names by id. */
  tools: string[] = [];
  kinds: ToolKind[] = [];
  readonly conversations: ObservedConversation[] = [];
  /** Per argument name, the reads that take it. */
  readonly readArguments = new Map<string, Set<string>>();
  /** Up to EXAMPLES_PER_TOOL exchanges per tool, first seen first. */
  examples = new Map<string, Example[]>();
  /** The fields of the reads' answers the changes followed (`answer-fields.ts`). */
  readonly fields = new AnswerFields();
  /** Calls left out of mining: the toolkit's own tools and a client's built-ins, by name. */
  readonly leftOut = new Map<string, { readonly kind: 'toolkit' | 'client'; count: number }>();
  /** The MCP servers the logs' prefixed tool names came from (`mcp__retail-tools__…`). */
  readonly servers = new Set<string>();
  /** The clients' prefixes taken off the tools' names (`mcp_retail-tools_`): the tools behind each and their calls. */
  readonly prefixes = new Map<string, { readonly tools: Set<string>; calls: number }>();
  /** Conversations per reader (`chat`, `claude-code`, …). */
  readonly readers = new Map<string, number>();
  private readonly ids = new Map<string, number>();
  private readonly kindOf = new Map<string, ToolKind>();

  /**
   * `known`: the tools a reader was told of (in a Claude Code log, the others without `mcp__` are Claude Code's own);
   * `unprefixed`: what prefixed names stand for (`inferToolPrefixes`), keyed by the name `minedName` gives.
   */
  constructor(
    private readonly known: ReadonlySet<string>,
    private readonly unprefixed: ReadonlyMap<string, Unprefixed> = new Map(),
  ) {}

  /** Keeps what mining needs of one conversation. */
  add(name: string, transcript: Transcript, success: boolean | null): void {
    const { conversation } = transcript;
    const reader = conversation.reader ?? 'audit';
    this.readers.set(reader, (this.readers.get(reader) ?? 0) + 1);
    const events = conversation.events;
    const calls: number[] = [];
    const outcomes: number[] = [];
    const confirmed: number[] = [];
    const read = new Map<string, Set<string>>();
    const named = new Map<number, { names: string[]; readFirst: string[] }>();
    const answers = this.fields.conversation();
    let previousCall = -1;
    for (const [index, event] of events.entries()) {
      if (event.kind !== 'call') continue;
      let mined = minedName(event.tool, conversation.reader, this.known);
      if (mined.kind !== 'domain') {
        const entry = this.leftOut.get(mined.tool) ?? { kind: mined.kind, count: 0 };
        entry.count += 1;
        this.leftOut.set(mined.tool, entry);
        continue;
      }
      const alias = this.unprefixed.get(mined.tool);
      if (alias !== undefined) mined = { kind: 'domain', tool: alias.tool, server: serverName(alias.prefix) };
      if (mined.server !== undefined) {
        this.servers.add(mined.server);
        this.prefixTaken(alias?.prefix ?? `mcp__${mined.server}__`, mined.tool);
      }
      const tool = this.idOf(mined.tool);
      calls.push(tool);
      // A read's answer is read whole once (its fields may decide a change); a change's only as far as found goes.
      const answer =
        this.kindOfTool(mined.tool) === 'read' && event.result !== undefined && event.failed !== true
          ? readAnswer(event.result)
          : undefined;
      outcomes.push(outcomeOf(event, answer));
      // The user's yes: said in the conversation, or recorded by a gateway that asked (its audit log).
      confirmed.push(event.confirmed === 'yes' || event.confirmed === 'step' || userSaidYes(events, previousCall, index) ? 1 : 0);
      this.fields.follow(mined.tool, this.kindOfTool(mined.tool), event, answer, answers, success === true ? 0 : 1);
      const names = this.namesOf(mined.tool, event, read);
      if (names !== undefined) named.set(calls.length - 1, names);
      this.keepExample(mined.tool, events, previousCall, index, calls.length - 1);
      previousCall = index;
    }
    this.conversations.push({
      name,
      calls: Int32Array.from(calls),
      outcome: Uint8Array.from(outcomes),
      confirmed: Uint8Array.from(confirmed),
      success,
      ...(named.size === 0 ? {} : { named }),
      ...(transcript.session === undefined ? {} : { session: { id: transcript.session.id, resumes: transcript.session.resumes } }),
    });
  }

  /**
   * Renumbers the tools by name (so the draft does not depend on which file came first) and drops the conversations a
   * later Claude Code log resumed (its lines repeat theirs). Returns the names of the conversations dropped.
   */
  finish(): string[] {
    const order = this.tools.map((_, id) => id).sort((a, b) => compare(this.tools[a]!, this.tools[b]!));
    const renumbered = new Int32Array(order.length);
    for (const [next, id] of order.entries()) renumbered[id] = next;
    this.tools = order.map((id) => this.tools[id]!);
    this.kinds = this.tools.map(toolKind);
    for (const conversation of this.conversations)
      for (let i = 0; i < conversation.calls.length; i++) conversation.calls[i] = renumbered[conversation.calls[i]!]!;
    this.ids.clear();
    for (const [id, tool] of this.tools.entries()) this.ids.set(tool, id);
    const resumed = new Set(this.conversations.flatMap((c) => c.session?.resumes.filter((id) => id !== c.session?.id) ?? []));
    const dropped: string[] = [];
    const moved = new Int32Array(this.conversations.length).fill(-1);
    const kept: ObservedConversation[] = [];
    for (const [i, c] of this.conversations.entries()) {
      const id = c.session?.id;
      if (id !== undefined && id !== null && resumed.has(id)) dropped.push(c.name);
      else {
        moved[i] = kept.length;
        kept.push(c);
      }
    }
    this.conversations.length = 0;
    for (const c of kept) this.conversations.push(c);
    for (const [tool, examples] of this.examples)
      this.examples.set(
        tool,
        examples.flatMap((e) => (moved[e.conversation]! < 0 ? [] : [{ ...e, conversation: moved[e.conversation]! }])),
      );
    return dropped;
  }

  /** The id of a tool, or undefined when the logs never called it. */
  toolId(tool: string): number | undefined {
    return this.ids.get(tool);
  }

  private prefixTaken(prefix: string, tool: string): void {
    const entry = this.prefixes.get(prefix) ?? { tools: new Set<string>(), calls: 0 };
    entry.tools.add(tool);
    entry.calls += 1;
    this.prefixes.set(prefix, entry);
  }

  /** A tool's kind, worked out once per name. */
  private kindOfTool(tool: string): ToolKind {
    let kind = this.kindOf.get(tool);
    if (kind === undefined) {
      kind = toolKind(tool);
      this.kindOf.set(tool, kind);
    }
    return kind;
  }

  private idOf(tool: string): number {
    let id = this.ids.get(tool);
    if (id === undefined) {
      id = this.tools.length;
      this.ids.set(tool, id);
      this.tools.push(tool);
    }
    return id;
  }

  /**
   * A read remembers the values it named (and which reads take which argument); a change returns its argument names
   * and those whose value a read named first.
   */
  private namesOf(
    tool: string,
    event: ToolCallEvent,
    read: Map<string, Set<string>>,
  ): { names: string[]; readFirst: string[] } | undefined {
    if (event.args === null) return undefined;
    const kind = this.kindOfTool(tool);
    const names: string[] = [];
    const readFirst: string[] = [];
    for (const [name, value] of Object.entries(event.args)) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const text = JSON.stringify(value);
      if (kind === 'read') {
        const values = read.get(name) ?? new Set<string>();
        values.add(text);
        read.set(name, values);
        const readers = this.readArguments.get(name) ?? new Set<string>();
        readers.add(tool);
        this.readArguments.set(name, readers);
        continue;
      }
      names.push(name);
      if (read.get(name)?.has(text) === true) readFirst.push(name);
    }
    return names.length === 0 ? undefined : { names, readFirst };
  }

  private keepExample(tool: string, events: readonly ConversationEvent[], previousCall: number, index: number, call: number): void {
    const kept = this.examples.get(tool) ?? [];
    if (kept.length >= EXAMPLES_PER_TOOL) return;
    let user: string | undefined;
    for (let i = index - 1; i > previousCall && user === undefined; i--) {
      const event = events[i]!;
      if (event.kind === 'user') user = event.text;
    }
    let agent: string | undefined;
    for (let i = index + 1; i < events.length && agent === undefined; i++) {
      const event = events[i]!;
      if (event.kind === 'user') break;
      if (event.kind === 'say' && event.text.trim() !== '') agent = event.text;
    }
    if (user === undefined || agent === undefined) return;
    kept.push({ conversation: this.conversations.length, call, user: oneLine(user), agent: oneLine(agent) });
    this.examples.set(tool, kept);
  }
}

function outcomeOf(event: ToolCallEvent, answer: ReadAnswer | undefined): number {
  if (event.unknown === true || event.failed === true) return FAILED;
  if (event.result === undefined) return UNSEEN;
  const kind = answer?.kind ?? answerKind(event.result);
  return kind === 'found' ? FOUND : kind === 'empty' ? EMPTY : FAILED;
}

/** The user's last message between the previous domain call and this one is an explicit yes, and the agent spoke before it. */
function userSaidYes(events: readonly ConversationEvent[], previousCall: number, index: number): boolean {
  for (let i = index - 1; i > previousCall; i--) {
    const event = events[i]!;
    if (event.kind !== 'user') continue;
    if (!YES.test(event.text.trim())) return false;
    for (let j = i - 1; j > previousCall; j--) if (events[j]!.kind === 'say') return true;
    return false;
  }
  return false;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXAMPLE_CHARACTERS ? `${line.slice(0, EXAMPLE_CHARACTERS - 1)}…` : line;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
