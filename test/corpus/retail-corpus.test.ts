/**
 * The retail corpus (`test/support/corpus/`): deterministic (same seed, same bytes); every domain answer is what
 * the real retail MCP server answers to the same calls in the same order (replayed through an SDK client linked
 * in-process to the server of `examples/retail-tools`, on a fresh database); every planted kind is there, paired
 * with its clean conversation; the patterns real agents show are there; and every file reads back, through the
 * replay's readers, into the calls and answers it was generated with.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import type { RecordedResult } from '../../contract/run/call-results.js';
import { openStore } from '../../examples/retail-tools/retail-db.js';
import { createRetailServerFactory, createToolSwitch } from '../../examples/retail-tools/retail-server.js';
import { readTranscripts } from '../../analysis/replay/read-conversation.js';
import { knownTools } from '../../analysis/replay/replay.js';
import { repositoryBundle } from '../support/chat-transcripts.js';
import {
  type CorpusEntry,
  corpus,
  DECLARED_ONLY,
  FORMATS,
  lostAnswer,
  MODES,
  PLANTED_KINDS,
  RETAIL_TOOL_NAMES,
  retailSeedText,
} from '../support/corpus/index.js';

const KNOWN = knownTools(repositoryBundle());
const DEFAULT = corpus();
/** One entry per conversation (the formats write the same calls). */
const CONVERSATIONS = DEFAULT.filter((entry) => entry.format === 'openai-chat');
const CHANGES = new Set([
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
  'exchange_delivered_order_items',
]);

/** A real retail server on a fresh copy of the seed, and an SDK client linked to it in-process. */
async function retailServer(): Promise<{ call(tool: string, args: unknown): Promise<RecordedResult>; close(): Promise<void> }> {
  const store = openStore(retailSeedText());
  if (!store.ok) throw new Error(store.error);
  const server = createRetailServerFactory({
    store: store.value,
    faults: { delayMs: 0, hangOn: undefined, crashOn: undefined },
    toolSwitch: createToolSwitch(),
    log: () => {},
    exit: (code) => {
      throw new Error(`the retail server exited (${code})`);
    },
  })(true);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'corpus-test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    async call(tool, args) {
      const answer = (await client.callTool({ name: tool, arguments: args as Record<string, unknown> })) as {
        structuredContent?: unknown;
        content?: { type: string; text?: string }[];
        isError?: boolean;
      };
      const text = (answer.content ?? []).map((part) => part.text ?? '').join('');
      return { structured: answer.structuredContent, text, ...(answer.isError === true ? { isError: true as const } : {}) };
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** What a format keeps of an answer: its text, and whether it failed where the format can say so. */
function asWritten(format: CorpusEntry['format'], result: RecordedResult): RecordedResult {
  const keepsErrors = format !== 'openai-chat';
  return { text: result.text ?? '', ...(keepsErrors && result.isError === true ? { isError: true as const } : {}) };
}

describe('the retail corpus', () => {
  it('is deterministic: the same options give the same bytes, another seed other conversations', () => {
    const options = { seed: 7, count: 12 };
    expect(JSON.stringify(corpus(options))).toBe(JSON.stringify(corpus(options)));
    const other = corpus({ ...options, seed: 8 });
    expect(other.map((e) => e.text)).not.toEqual(corpus(options).map((e) => e.text));
    // A subset of modes and formats is the same entries as the whole corpus holds.
    const subset = corpus({ ...options, modes: ['declared'], formats: ['claude-code'] });
    const whole = corpus(options).filter((e) => e.mode === 'declared' && e.format === 'claude-code');
    expect(subset).toEqual(whole);
  });

  it('holds every planted kind, each paired with its clean conversation, in both modes (wrong_step declared only)', () => {
    for (const mode of MODES) {
      for (const kind of PLANTED_KINDS) {
        const planted = CONVERSATIONS.filter((e) => e.mode === mode && e.label === kind);
        if (DECLARED_ONLY.has(kind) && mode === 'inferred') expect(planted, `${kind} ${mode}`).toEqual([]);
        else expect(planted.length, `${kind} ${mode}`).toBeGreaterThan(0);
      }
    }
    const byId = new Map(DEFAULT.map((entry) => [entry.id, entry]));
    for (const entry of DEFAULT.filter((e) => e.label !== 'clean')) {
      const clean = byId.get(entry.pairedWith ?? '');
      expect(clean, entry.id).toMatchObject({ label: 'clean', base: entry.base, mode: entry.mode, format: entry.format });
      expect(entry.text, entry.id).not.toBe(clean!.text);
    }
    expect(new Set(DEFAULT.map((e) => e.format))).toEqual(new Set(FORMATS));
    expect(new Set(DEFAULT.map((e) => e.id)).size).toBe(DEFAULT.length);
  });

  it('shows what real agents do: read first and decide after, two changes of one order, a failed lookup retried, yes before each change', () => {
    const clean = CONVERSATIONS.filter((e) => e.label === 'clean' && e.mode === 'declared');
    expect(new Set(clean.map((e) => e.pattern))).toEqual(new Set(['intents', 'read-first', 'two-changes']));
    const tools = (e: CorpusEntry) => e.calls.map((c) => c.tool);
    // Read first: the order read at INFO, then changed through ROUTE and its check step, with no read there.
    const readFirst = clean.find((e) => e.pattern === 'read-first' && tools(e).some((t) => CHANGES.has(t)))!;
    const moves = readFirst.calls.flatMap((c) =>
      c.tool === 'goto_node' ? [c.args.node_id] : c.tool === 'get_order_details' ? ['read'] : [],
    );
    expect(moves.slice(moves.indexOf('INFO'), moves.indexOf('INFO') + 2)).toEqual(['INFO', 'read']);
    expect(moves.lastIndexOf('read')).toBeLessThan(moves.lastIndexOf('ROUTE'));
    // Two changes of one order: its address, then its payment method, the order read once.
    const twice = clean.find((e) => e.pattern === 'two-changes')!;
    expect(tools(twice).filter((t) => CHANGES.has(t))).toEqual(['modify_pending_order_address', 'modify_pending_order_payment']);
    expect(tools(twice).filter((t) => t === 'get_order_details')).toHaveLength(1);
    // A lookup that finds no one, retried with the other details.
    const retried = CONVERSATIONS.find((e) => e.label === 'clean' && e.calls[0]?.result.isError === true)!;
    expect(retried.calls[0]!.tool).toMatch(/^find_user_id_by_/);
    expect(retried.calls[1]).toMatchObject({ tool: expect.stringMatching(/^find_user_id_by_/) });
    expect(retried.calls[1]!.result.isError).toBeUndefined();
    // Multi-intent conversations: two or three changes through the hub; todos in the declared mode.
    expect(clean.some((e) => tools(e).filter((t) => CHANGES.has(t)).length >= 2 && tools(e).includes('todo'))).toBe(true);
    // Every intent: each change, a question answered at INFO, a transfer to a human.
    const called = new Set(clean.flatMap(tools));
    for (const tool of [...CHANGES, 'transfer_to_human_agents']) expect(called.has(tool), tool).toBe(true);
    expect(clean.some((e) => e.calls.some((c) => c.tool === 'goto_node' && c.args.node_id === 'END_INFO'))).toBe(true);
    // In a clean conversation every change succeeds, right after the user's yes.
    for (const entry of clean) {
      const changes = entry.calls.filter((c) => CHANGES.has(c.tool));
      expect(
        changes.every((c) => c.result.isError !== true),
        entry.id,
      ).toBe(true);
      expect(entry.reward).toBe(1);
      const read = readTranscripts(entry.text, KNOWN);
      if (!read.ok) throw new Error(read.error);
      const events = read.transcripts[0]!.conversation.events;
      for (const [i, event] of events.entries()) {
        if (event.kind !== 'call' || !CHANGES.has(event.tool)) continue;
        const said = events.slice(0, i).findLast((e) => e.kind === 'user' || e.kind === 'say');
        expect(said?.kind === 'user' && /^(Yes|Sure)\b/.test(said.text), `${entry.id}: ${event.tool}`).toBe(true);
      }
    }
  });

  it('plants what each kind says, in what the server answered', () => {
    const planted = (kind: string) => CONVERSATIONS.filter((e) => e.label === kind);
    const changeResults = (e: CorpusEntry) => e.calls.filter((c) => CHANGES.has(c.tool));
    for (const e of planted('against_data')) {
      // The server refused the change: the order's status forbids it, as the read showed.
      const refused = changeResults(e).find((c) => c.result.isError === true)!;
      expect(refused.result.text, e.id).toMatch(
        /is \\"(delivered|pending \(item modified\)|processed|pending)\\": only (pending|delivered) orders/,
      );
      expect(e.reward).toBe(0);
    }
    for (const e of planted('other_entity')) {
      // Order A read, order B changed (a change B's status allows: the server did it).
      const change = changeResults(e).find((c) => !e.calls.slice(0, e.calls.indexOf(c)).some((r) => r.args.order_id === c.args.order_id))!;
      const reads = e.calls
        .slice(0, e.calls.indexOf(change))
        .filter((c) => c.tool === 'get_order_details')
        .map((c) => c.args.order_id);
      expect(reads.length, e.id).toBeGreaterThan(0);
      expect(reads, e.id).not.toContain(change.args.order_id);
      expect(change.result.isError, e.id).toBeUndefined();
    }
    for (const e of planted('unknown_retry')) {
      const lost = e.calls.findIndex((c) => c.lost === true);
      expect(e.calls[lost]!.result).toEqual(lostAnswer(e.calls[lost]!.tool));
      const retry = e.calls.slice(lost + 1).find((c) => RETAIL_TOOL_NAMES.has(c.tool));
      expect(retry, e.id).toMatchObject({ tool: e.calls[lost]!.tool, args: e.calls[lost]!.args });
    }
    for (const e of [...planted('no_auth'), ...planted('auth_after_change')]) {
      const first = e.calls.findIndex((c) => CHANGES.has(c.tool));
      expect(
        e.calls.slice(0, first).some((c) => c.tool.startsWith('find_user_id_by_')),
        e.id,
      ).toBe(false);
    }
    for (const e of planted('empty_lookup')) {
      const lookups = e.calls.filter((c) => c.tool.startsWith('find_user_id_by_'));
      expect(
        lookups.map((c) => c.result.isError),
        e.id,
      ).toEqual([true]);
    }
  });

  it('records every domain answer as the real server answers it, on a fresh database, in order', async () => {
    for (const entry of DEFAULT.filter((e) => e.format === 'openai-chat')) {
      const server = await retailServer();
      try {
        for (const call of entry.calls) {
          if (!RETAIL_TOOL_NAMES.has(call.tool)) continue;
          const answer = await server.call(call.tool, call.args);
          // A lost answer's call reached the server and took effect; the agent got the gateway's timeout error.
          expect(call.result, `${entry.id}: ${call.tool}`).toEqual(call.lost === true ? lostAnswer(call.tool) : answer);
        }
      } finally {
        await server.close();
      }
    }
  });

  it('reads every file back, through the replay’s readers, into the calls and answers it was generated with', () => {
    for (const entry of DEFAULT) {
      const read = readTranscripts(entry.text, KNOWN);
      if (!read.ok) throw new Error(`${entry.id}: ${read.error}`);
      expect(read.transcripts, entry.id).toHaveLength(1);
      const events = read.transcripts[0]!.conversation.events.flatMap((e) => (e.kind === 'call' ? [e] : []));
      expect(
        events.map((e) => [e.tool, e.args, e.result]),
        entry.id,
      ).toEqual(entry.calls.map((c) => [c.tool, c.args, asWritten(entry.format, c.result)]));
      if (entry.format.startsWith('tau2')) expect(read.transcripts[0]!.reward, entry.id).toBe(entry.reward);
    }
  });
});
