/**
 * `sop discover` on logs made from known SOPs: the retail corpus (`test/support/corpus/`: conversations with the
 * real domain server's answers, clean and with planted deviations, in every log format) and the golden paths of
 * the IT helpdesk SOP (`test/support/golden-path-logs.ts`), so the miner is fit to more than one shape. The draft
 * mined from the clean logs compiles, accepts them (fitness ≥ 0.95) and scores every planted deviation lower than
 * the clean conversation it was planted in; the same logs in any format give the same draft, and the same logs
 * the same bytes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { conformance } from '../../../analysis/conformance/conformance.js';
import { compileDraft } from '../../../analysis/discover/compile-draft.js';
import { type DiscoverOutcome, discover } from '../../../analysis/discover/index.js';
import { renderDiscoverText } from '../../../analysis/discover/render-discover.js';
import { MAX_TOOLS_PER_STEP } from '../../../analysis/discover/steps.js';
import { toolKind } from '../../../analysis/discover/tool-kinds.js';
import { readTranscripts } from '../../../analysis/replay/read-conversation.js';
import { call, chat, repositoryBundle, say, user } from '../../support/chat-transcripts.js';
import { type CorpusEntry, corpus, FORMATS, RETAIL_TOOL_NAMES } from '../../support/corpus/index.js';
import { goldenPathLogs } from '../../support/golden-path-logs.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sop-discover-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function folder(name: string, files: readonly { readonly file: string; readonly text: string }[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const { file, text } of files) writeFileSync(join(dir, file), text);
  return dir;
}

function mined(dir: string, agent = 'mined_agent'): Extract<DiscoverOutcome, { ok: true }> {
  const result = discover({ inputs: [dir], root: work, agent, file: `sops/${agent}.md` });
  if (!result.ok) throw new Error(result.error);
  return result;
}

function compiled(draft: string): CompiledSop {
  const result = compileDraft('sops/mined_agent.md', draft);
  if (!result.ok) throw new Error(result.error);
  return result.sop;
}

/** The fitness of one log against a compiled draft, by replay's alignment, on its domain calls. */
function fitness(sop: CompiledSop, text: string): number {
  const read = readTranscripts(text, new Set(sop.tools));
  if (!read.ok) throw new Error(read.error);
  const conversation = read.transcripts[0]!.conversation;
  const events = conversation.events.filter((e) => e.kind !== 'call' || !['goto_node', 'load_graph', 'todo', 'inspect'].includes(e.tool));
  return conformance(sop, { ...conversation, events }).conformance.fitness;
}

/**
 * The audit log a gateway (`sop serve --gateway`) would have kept of a corpus conversation: load_graph, then each
 * domain call with what it answered (a lost answer: a forwarding no answer follows) and the user's yes for a change.
 */
function auditOf(entry: CorpusEntry): string {
  const detail = (phase: string, extra: object) => ({
    kind: 'domain',
    server: 'retail-tools',
    rule: 'node-tools',
    sop: 'sha256:1',
    phase,
    ...extra,
  });
  const audit: unknown[] = [
    { seq: 1, tool: 'load_graph', input: { agent: 'retail_customer_support' }, outcome: 'ok', detail: { kind: 'start', gateway: true } },
  ];
  for (const call of entry.calls) {
    const seq = audit.length + 1;
    if (call.lost === true) {
      audit.push({ seq, tool: call.tool, input: call.args, outcome: 'pending', detail: detail('forwarding', {}) });
      continue;
    }
    const change = toolKind(call.tool) === 'change' && call.tool !== 'transfer_to_human_agents';
    audit.push({
      seq,
      tool: call.tool,
      input: call.args,
      outcome: call.result.isError === true ? 'error' : 'ok',
      detail: detail('answered', { read: !change, result: call.result, ...(change ? { confirmation: 'yes' } : {}) }),
    });
  }
  return JSON.stringify({ run: { runId: `run-${entry.id}`, agent: 'retail_customer_support', sourceHash: 'sha256:1' }, audit });
}

describe('the retail corpus', () => {
  const entries = corpus({ seed: 1, count: 60, modes: ['inferred'], formats: [...FORMATS] });
  const clean = entries.filter((e) => e.label === 'clean');
  let result: Extract<DiscoverOutcome, { ok: true }>;
  let sop: CompiledSop;
  beforeAll(() => {
    result = mined(folder('retail-clean', clean));
    sop = compiled(result.draft);
  });

  it('drafts a SOP that compiles: START, AUTH, the ROUTE hub, an END per intent, a node per step with few tools', () => {
    expect(result.report.conversations).toBe(clean.length);
    expect(result.report.warnings).toEqual([]);
    expect(sop.transitions.entry).toBe('START');
    expect(sop.transitions.hubs).toEqual(['ROUTE']);
    expect(sop.edges.START!.map((e) => e.to)).toEqual(['AUTH']);
    expect([...sop.toolsByNode.AUTH!].sort()).toEqual(['find_user_id_by_email', 'find_user_id_by_name_zip']);
    expect(result.report.intents.map((i) => i.name)).toEqual(
      expect.arrayContaining([
        'CANCEL_PENDING_ORDER',
        'RETURN_DELIVERED_ORDER_ITEMS',
        'EXCHANGE_DELIVERED_ORDER_ITEMS',
        'MODIFY_USER_ADDRESS',
      ]),
    );
    for (const intent of result.report.intents) expect(sop.terminalNodes).toContain(intent.end);
    for (const node of sop.nodeIds) expect(sop.toolsByNode[node]!.length).toBeLessThanOrEqual(MAX_TOOLS_PER_STEP);
    // The draft states what the clean logs kept: authentication found someone, the change's order read, its status, the yes.
    expect(sop.evidence?.AUTH).toBeDefined();
    expect(sop.conditions?.READ_CANCEL_PENDING_ORDER?.CANCEL_PENDING_ORDER?.text).toBe('get_order_details.status == "pending"');
    expect(sop.policies?.map((p) => [p.id, p.confirmation !== null])).toEqual([
      ['confirm_before_changes', true],
      ['changes_at_their_steps', false],
    ]);
  });

  it('accepts the clean logs: every one fits (≥ 0.95)', () => {
    expect(result.report.fitness).toBeGreaterThanOrEqual(0.95);
    expect(result.report.fit.fitting).toBe(clean.length);
    const low = clean.filter((e) => fitness(sop, e.text) < 0.95).map((e) => e.id);
    expect(low).toEqual([]);
  });

  it('scores every planted deviation lower than the clean conversation it came from, in every format', () => {
    const byId = new Map(entries.map((e) => [e.id, e]));
    const planted = entries.filter((e) => e.label !== 'clean');
    expect(new Set(planted.map((e) => e.label)).size).toBe(8);
    const notLower = planted.filter((e) => fitness(sop, e.text) >= fitness(sop, byId.get(e.pairedWith!)!.text)).map((e) => e.id);
    expect(notLower).toEqual([]);
  });

  it('mines the same procedure from each log format alone, audit logs of a gateway included', () => {
    const formats = [...FORMATS, 'audit'] as const;
    const drafts = formats.map((format) => {
      const files =
        format === 'audit'
          ? clean.filter((e) => e.format === 'openai-chat').map((e) => ({ file: e.file, text: auditOf(e) }))
          : clean.filter((e) => e.format === format);
      const draft = mined(folder(`retail-${format}`, files)).draft;
      // Only Claude Code's tool names say which server they came from; the example exchanges are what was said
      // around a call, which formats that join consecutive messages (Anthropic's alternating roles) join, and an
      // audit log does not keep.
      return draft.replace(/^# {3}the logs name: .*\n/m, '').replace(/^examples:\n {2}- user: .*\n {4}agent: .*\n/gm, '');
    });
    for (const [i, draft] of drafts.entries()) expect(draft, formats[i]).toBe(drafts[0]);
  });

  it('is deterministic: the same logs give the same draft and report, whether the first pass kept them or not', () => {
    const again = mined(join(work, 'retail-clean'));
    expect(again.draft).toBe(result.draft);
    expect(again.report).toEqual(result.report);
    const reread = discover({
      inputs: [join(work, 'retail-clean')],
      root: work,
      agent: 'mined_agent',
      file: 'sops/mined_agent.md',
      keptBytes: 0,
    });
    if (!reread.ok) throw new Error(reread.error);
    expect(reread.draft).toBe(result.draft);
    expect(reread.report).toEqual(result.report);
  });
});

/** The clients' spellings of a retail tool's name, each with the prefix the report names. */
const SPELLINGS: readonly (readonly [string, (tool: string) => string])[] = [
  ['mcp__retail-tools__', (t) => `mcp__retail-tools__${t}`],
  ['mcp_retail-tools_', (t) => `mcp_retail-tools_${t}`],
  ['retail-tools-', (t) => `retail-tools-${t}`],
  ['retail-tools.', (t) => `retail-tools.${t}`],
  ['retail-tools__', (t) => `retail-tools__${t}`],
  ['retail_tools/', (t) => `retail_tools/${t}`],
];

/** An OpenAI chat log with its retail tools renamed. */
function renamed(entry: CorpusEntry, spell: (tool: string) => string): { file: string; text: string } {
  const messages = JSON.parse(entry.text) as { tool_calls?: { function: { name: string } }[] }[];
  for (const message of messages)
    for (const c of message.tool_calls ?? []) if (RETAIL_TOOL_NAMES.has(c.function.name)) c.function.name = spell(c.function.name);
  return { file: entry.file, text: JSON.stringify(messages) };
}

/** The draft without the servers the tools' names named (a comment). */
const withoutServers = (draft: string): string => draft.replace(/^# {3}the logs name: .*\n/m, '');

describe('tools named with a client’s prefix', () => {
  const clean = corpus({ seed: 1, count: 60, modes: ['inferred'], formats: ['openai-chat'] }).filter((e) => e.label === 'clean');
  let bare: Extract<DiscoverOutcome, { ok: true }>;
  beforeAll(() => {
    bare = mined(folder('prefix-bare', clean));
  });

  it.each(SPELLINGS)('mines %s<tool> as the bare tools: the same draft, the prefix in the report', (prefix, spell) => {
    const result = mined(
      folder(
        `prefix-${spell('x').replace(/[^a-z_-]/g, '+')}`,
        clean.map((e) => renamed(e, spell)),
      ),
    );
    expect(withoutServers(result.draft)).toBe(withoutServers(bare.draft));
    const server = prefix.startsWith('retail_') ? 'retail_tools' : 'retail-tools';
    expect(result.draft).toContain(`#   the logs name: ${server}\n`);
    expect(result.report.nodes).toEqual(bare.report.nodes);
    expect(result.report.rules).toEqual(bare.report.rules);
    expect(result.report.fit).toEqual(bare.report.fit);
    expect(result.report.tool_prefixes.map((p) => [p.prefix, p.server])).toEqual([[prefix, server]]);
    expect(result.report.tool_prefixes[0]!.tools).toEqual([...new Set(result.report.nodes.flatMap((n) => n.tools))].sort());
    expect(renderDiscoverText(result.report)).toContain(`tool prefixes taken off: ${prefix} (`);
  });

  it('mines logs that mix the spellings as the bare tools, whether the first pass kept them or not', () => {
    const mixed = clean.map((e, i) => (i % 7 === 0 ? e : renamed(e, SPELLINGS[i % 7 === 0 ? 0 : (i % 7) - 1]![1])));
    const dir = folder('prefix-mixed', mixed);
    const result = mined(dir);
    expect(withoutServers(result.draft)).toBe(withoutServers(bare.draft));
    expect(result.report.fit).toEqual(bare.report.fit);
    expect(result.report.tool_prefixes.map((p) => p.prefix)).toEqual(SPELLINGS.map(([p]) => p).sort());
    const reread = discover({ inputs: [dir], root: work, agent: 'mined_agent', file: 'sops/mined_agent.md', keptBytes: 0 });
    if (!reread.ok) throw new Error(reread.error);
    expect(reread.draft).toBe(result.draft);
    expect(reread.report).toEqual(result.report);
  });

  it('keeps tools whose names only look prefixed: get_order beside get_order_details', () => {
    const conversations = Array.from({ length: 12 }, (_, n) =>
      chat(
        user(`where is my order #W${n}?`),
        call('get_order', { order_id: `#W${n}` }, { order_id: `#W${n}`, status: 'pending' }),
        call('get_order_details', { order_id: `#W${n}` }, { order_id: `#W${n}`, status: 'pending', items: [{ id: n }] }),
        say('Shall I cancel it?'),
        user('Yes, go ahead.'),
        call('cancel_pending_order', { order_id: `#W${n}` }, { order_id: `#W${n}`, status: 'cancelled' }),
        say('Done.'),
      ),
    );
    const result = mined(
      folder(
        'prefix-lookalikes',
        conversations.map((messages, n) => ({ file: `n${n}.json`, text: JSON.stringify(messages) })),
      ),
    );
    expect([...compiled(result.draft).tools].sort()).toEqual(['cancel_pending_order', 'get_order', 'get_order_details']);
    expect(result.report.tool_prefixes).toEqual([]);
  });
});

describe('data rules are about an entity’s state, not which entity', () => {
  /** `get_order_details`' answer: the order, echoing the argument, its customer's id and its status. */
  const order = (id: string, customer: string, status: string) => ({ order_id: id, customer_id: customer, status });
  /** Conversations that cancel a pending order (its id `cancelled(n)`, always sara's) and return a delivered one (yusuf's). */
  function logs(name: string, cancelled: (n: number) => string): string {
    const conversations = Array.from({ length: 16 }, (_, n) => {
      const returned = `#W5${n}`;
      const cancel = [
        user('I want to cancel an order.'),
        call('get_order_details', { order_id: cancelled(n) }, order(cancelled(n), 'sara_doe_496', 'pending')),
        say('Shall I cancel it?'),
        user('Yes, go ahead.'),
        call(
          'cancel_pending_order',
          { order_id: cancelled(n), reason: 'no longer needed' },
          { order_id: cancelled(n), status: 'cancelled' },
        ),
        say('Done.'),
      ];
      const ret = [
        user('And I want to return an order.'),
        call('get_order_details', { order_id: returned }, order(returned, 'yusuf_rossi_9620', 'delivered')),
        say('Shall I return it?'),
        user('Yes, go ahead.'),
        call('return_delivered_order_items', { order_id: returned, item_ids: ['1'] }, { order_id: returned, status: 'return requested' }),
        say('Done.'),
      ];
      return chat(
        user('Hello, I am sara.doe@example.com'),
        call('find_user_id_by_email', { email: 'sara.doe@example.com' }, 'sara_doe_496'),
        ...(n % 2 === 0 ? [...cancel, ...ret] : [...ret, ...cancel]),
      );
    });
    return folder(
      name,
      conversations.map((messages, n) => ({ file: `n${n}.json`, text: JSON.stringify(messages) })),
    );
  }

  it('proposes the status the changed orders had, never an identifier field (order_id, customer_id)', () => {
    const result = mined(logs('rules-many-orders', (n) => `#W${1000 + n}`));
    expect(result.report.rules.conditions.map((c) => [c.node, c.target, c.when])).toEqual([
      ['READ_CANCEL_PENDING_ORDER', 'CANCEL_PENDING_ORDER', 'get_order_details.status == "pending"'],
      ['READ_RETURN_DELIVERED_ORDER_ITEMS', 'RETURN_DELIVERED_ORDER_ITEMS', 'get_order_details.status == "delivered"'],
    ]);
  });

  it('proposes no rule a single entity showed, however often: one order cancelled in every conversation', () => {
    const result = mined(logs('rules-one-order', () => '#W7342738'));
    expect(result.report.rules.evidence.map((e) => e.node)).toContain('READ_CANCEL_PENDING_ORDER');
    expect(result.report.rules.conditions.map((c) => c.when)).toEqual(['get_order_details.status == "delivered"']);
    expect(result.draft).not.toMatch(/order_id ==|customer_id ==|W7342738"/);
  });
});

describe('a second SOP: the IT helpdesk, from its golden paths', () => {
  const helpdesk = repositoryBundle().agents.it_helpdesk!;
  const logs = goldenPathLogs(helpdesk, { count: 120 });
  let result: Extract<DiscoverOutcome, { ok: true }>;
  let sop: CompiledSop;
  beforeAll(() => {
    result = mined(
      folder(
        'helpdesk-clean',
        logs.filter((l) => l.label === 'clean'),
      ),
    );
    sop = compiled(result.draft);
  });

  it('finds its opening (a ticket, the directory, the code sent and checked, again when wrong) and its intents', () => {
    expect(result.report.nodes.filter((n) => n.part === 'opening' && n.kind === 'step').map((n) => n.tools)).toEqual([
      ['create_ticket'],
      ['search_directory'],
      ['send_verification_code'],
      ['check_verification_code'],
    ]);
    expect(result.report.nodes.some((n) => n.part === 'opening' && n.kind === 'decision')).toBe(true);
    expect(result.report.intents.map((i) => i.name)).toEqual(
      expect.arrayContaining(['UNLOCK_ACCOUNT', 'RESET_MFA_ENROLLMENT', 'SEND_PASSWORD_RESET_LINK', 'TRANSFER_TO_SERVICE_DESK']),
    );
    expect(sop.conditions?.READ_UNLOCK_ACCOUNT?.UNLOCK_ACCOUNT?.text).toBe('get_account_status.status == "locked"');
  });

  it('accepts the clean logs (mean fitness ≥ 0.95) and scores every planted deviation lower than its clean twin', () => {
    expect(result.report.fitness).toBeGreaterThanOrEqual(0.95);
    const byId = new Map(logs.map((l) => [l.id, l]));
    const planted = logs.filter((l) => l.label !== 'clean');
    expect(new Set(planted.map((l) => l.label)).size).toBe(3);
    const notLower = planted.filter((l) => fitness(sop, l.text) >= fitness(sop, byId.get(l.pairedWith!)!.text)).map((l) => l.id);
    expect(notLower).toEqual([]);
  });
});

describe('names from the logs are data', () => {
  it('drafts a SOP that compiles whatever the tools are called', () => {
    const names = ['__proto__', 'constructor', 'end', 'get order (v2)', 'toString', 'lookup.customer', 'Ändern-Bestellung', '1st_call'];
    const conversations = Array.from({ length: 12 }, (_, n) =>
      chat(
        user(`hello ${n}`),
        call('lookup.customer', { id: `c${n}` }, { id: `c${n}`, status: 'found' }),
        call('get order (v2)', { id: `c${n}` }, { id: `c${n}`, status: 'open' }),
        say('Shall I go ahead?'),
        user('Yes, go ahead.'),
        call(names[n % 4 === 0 ? 0 : n % 4 === 1 ? 1 : n % 4 === 2 ? 2 : 4]!, { id: `c${n}` }, { ok: true }),
        say('Done.'),
        call(n % 2 === 0 ? 'Ändern-Bestellung' : '1st_call', { id: `c${n}` }, { ok: true }),
      ),
    );
    const dir = folder(
      'names',
      conversations.map((messages, n) => ({ file: `n${n}.json`, text: JSON.stringify(messages) })),
    );
    const result = mined(dir);
    const sop = compiled(result.draft);
    expect([...sop.tools].sort()).toEqual([...names].sort());
    expect(result.report.fitness).toBeGreaterThanOrEqual(0.95);
    for (const id of sop.nodeIds) expect(id).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });
});
