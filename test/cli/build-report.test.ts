/**
 * `sop build --report` end to end: the real CLI on a temp project prints, per agent, the tokens (o200k) of the system
 * prompt, of every node's prompt and of its `goto_node` answer, as text and (`--format json`) as `token_report`.
 * Every count is checked against an independent count: gpt-tokenizer's o200k encoder run here on the texts the real
 * server sends (an SDK Client drives it to each node along the path the report names, from a fresh run). The report
 * is the same whether the build planned the bundle or found it up to date, and a build without `--report` has none.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../contract/compiled-sop.js';
import type { AgentTokenReport } from '../../generator/tokens/token-report.js';
import { type Connected, connectInMemory, fixtureService } from '../runtime/helpers/mcp-client.js';
import { type CliResult, runCli } from '../support/run-cli.js';
import { BASE_SOP } from '../support/sop-text.js';

/** Long enough for a four-digit system prompt; non-ASCII text and examples; a node no edge reaches (ARCHIVE). */
const DESK_SOP = `---
agent: tokendesk
version: "1.0"
hubs: [ROUTE]
tools: [lookup, refund]
---

## Role
You help customers of a café in Zürich with orders and refunds — politely, in their language (日本語 too).

## Domain Reference
${Array.from({ length: 50 }, (_, i) => `- Rule ${i + 1}: a refund over ${(i + 1) * 7} € needs a receipt dated within ${i + 3} days.`).join('\n')}

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Customer writes]) --> ROUTE{What do they want?}
    ROUTE -->|an order question| LOOKUP["Look the order up"]
    ROUTE -->|a refund| REFUND["Confirm, then refund"]
    LOOKUP --> DONE([Done])
    REFUND --> DONE
    REFUND -.->|no confirmation| ROUTE
    ARCHIVE["Archive the ticket"] --> DONE
\`\`\`

## Node Prompts

### LOOKUP
\`\`\`yaml
tools: [lookup]
examples:
  - user: "Où est ma commande #A-17 ?"
    agent: "Je regarde tout de suite la commande #A-17."
\`\`\`
Find the order with \`lookup\` and read its status back exactly; never guess a delivery date. 🚚

### REFUND
\`\`\`yaml
tools: [refund]
\`\`\`
1. State the amount and the payment method.
2. Ask for an explicit "yes"; anything else is not a confirmation.
3. On "yes", call \`refund\` once.

### ARCHIVE
Archive the ticket.
`;

interface BuildJson {
  readonly status: string;
  readonly metadata: { readonly token_report?: readonly AgentTokenReport[] };
}

let dir: string;
let fresh: CliResult;
let cached: CliResult;
let text: CliResult;
let plain: CliResult;
let bundle: SopBundle;
const reportOf = (result: CliResult) => (JSON.parse(result.stdout) as BuildJson).metadata.token_report;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sop-report-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(join(dir, 'sops', 'tokendesk.md'), DESK_SOP);
  writeFileSync(join(dir, 'sops', 'demo.md'), BASE_SOP);
  fresh = runCli(['build', '--report', '--format', 'json'], dir); // counts the bundle the build planned
  cached = runCli(['build', '--report', '--format', 'json'], dir); // up to date: counts the bundle on disk
  text = runCli(['build', '--report'], dir);
  plain = runCli(['build'], dir);
  bundle = JSON.parse(readFileSync(join(dir, 'generated/sop-bundle.json'), 'utf8')) as SopBundle;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the real server sends: the system prompt from load_graph, and each node's goto_node answer and prompt. */
interface Served {
  readonly systemPrompt: string;
  /** The text of the last answer of each walk, and the prompt it carries. */
  readonly answers: ReadonlyMap<string, { readonly text: string; readonly prompt: string | undefined }>;
}

async function serve(agent: string, walks: ReadonlyMap<string, readonly string[]>): Promise<Served> {
  const service = fixtureService({ bundle, projectRoot: dir });
  let connected: Connected | undefined;
  try {
    connected = await connectInMemory({ service });
    let systemPrompt = '';
    const answers = new Map<string, { text: string; prompt: string | undefined }>();
    for (const [node, walk] of walks) {
      const loaded = await connected.call('load_graph', { agent }); // a fresh run, the session's current one
      expect(loaded.isError).toBe(false);
      systemPrompt = loaded.answer.system_prompt as string;
      let last: Awaited<ReturnType<Connected['client']['callTool']>> | undefined;
      for (const step of walk) {
        last = await connected.client.callTool({ name: 'goto_node', arguments: { node_id: step } });
        expect((last.structuredContent as { valid?: boolean }).valid, `${walk.join(' → ')}: ${step}`).toBe(true);
      }
      const content = last!.content as { text: string }[];
      answers.set(node, { text: content[0]!.text, prompt: (last!.structuredContent as { node: { prompt?: string } }).node.prompt });
    }
    return { systemPrompt, answers };
  } finally {
    await connected?.close();
    await service.close();
  }
}

describe('sop build --report', () => {
  it('reports every agent; each count is o200k of the text the real server sends', async () => {
    expect(fresh.code, fresh.stderr).toBe(0);
    const reports = reportOf(fresh)!;
    expect(reports.map((r) => r.agent)).toEqual(['demo', 'tokendesk']);
    for (const report of reports) {
      const sop = bundle.agents[report.agent]!;
      expect(report.encoding).toBe('o200k_base');
      expect(report.nodes.map((n) => n.node)).toEqual(sop.nodeIds);
      const walks = new Map(report.nodes.flatMap((n) => (n.path === null ? [] : [[n.node, n.path] as const])));
      const served = await serve(report.agent, walks);
      expect(report.system_prompt).toBe(countTokens(served.systemPrompt));
      for (const node of report.nodes) {
        const answer = served.answers.get(node.node);
        expect(node.goto_answer, node.node).toBe(answer === undefined ? null : countTokens(answer.text));
        const prompt = sop.prompts[node.node]?.prompt;
        expect(node.prompt, node.node).toBe(prompt === undefined ? null : countTokens(prompt));
        if (answer !== undefined) expect(answer.prompt, node.node).toBe(prompt); // the prompt counted is the one served
      }
      const largest = report.nodes.reduce((a, b) => ((b.goto_answer ?? -1) > (a.goto_answer ?? -1) ? b : a));
      expect(report.largest_goto_answer).toEqual({ node: largest.node, tokens: largest.goto_answer });
    }
  });

  it('walks each node along the shortest path from the entry node; a node no edge reaches has no answer', () => {
    const desk = reportOf(fresh)!.find((r) => r.agent === 'tokendesk')!;
    const byNode = Object.fromEntries(desk.nodes.map((n) => [n.node, n]));
    expect(byNode.START!.path).toEqual(['START']);
    expect(byNode.REFUND!.path).toEqual(['START', 'ROUTE', 'REFUND']);
    expect(byNode.DONE!.path).toEqual(['START', 'ROUTE', 'LOOKUP', 'DONE']); // the first of the two shortest ways
    expect(byNode.ARCHIVE).toMatchObject({ path: null, goto_answer: null });
    expect(byNode.ARCHIVE!.prompt).toBe(countTokens('Archive the ticket.'));
    expect(byNode.ROUTE!.prompt).toBeNull();
    // The prompts are the SOP's own text: the counts are of what the author wrote, as served.
    expect(bundle.agents.tokendesk!.prompts.LOOKUP!.prompt).toContain('never guess a delivery date. 🚚');
    expect(desk.system_prompt).toBeGreaterThan(1000);
  });

  it('prints the same counts as text, one table per agent', () => {
    expect(text.code).toBe(0);
    const number = (s: string) => (s === '-' ? null : Number(s.replaceAll(',', '')));
    for (const report of reportOf(fresh)!) {
      const block = text.stdout.split('\n\n').find((b) => b.startsWith(`tokens (o200k_base) of ${report.agent}:`));
      expect(block, text.stdout).toBeDefined();
      const [title, header, ...rows] = block!.split('\n');
      expect(title).toBe(`tokens (o200k_base) of ${report.agent}: system prompt ${report.system_prompt.toLocaleString('en')}`);
      expect(header!.trim().split(/\s{2,}/)).toEqual(['node', 'prompt', 'goto_node answer']);
      const table = rows.filter((row) => !row.includes('largest')).map((row) => row.trim().split(/\s+/));
      expect(table).toEqual(report.nodes.map((n) => [n.node, expect.any(String), expect.any(String)]));
      expect(table.map(([node, prompt, answer]) => ({ node, prompt: number(prompt!), goto_answer: number(answer!) }))).toEqual(
        report.nodes.map(({ node, prompt, goto_answer }) => ({ node, prompt, goto_answer })),
      );
      const largest = report.largest_goto_answer!;
      expect(rows).toContain(`  largest goto_node answer: ${largest.node} (${largest.tokens.toLocaleString('en')})`);
    }
    expect(text.stdout).toMatch(/sop build: 2 SOPs, .*up to date/);
  });

  it('is the same report from the planned bundle and from the one on disk, and absent without --report', () => {
    expect(cached.code).toBe(0);
    expect(JSON.parse(cached.stdout).metadata.status_detail).toMatch(/up to date/);
    expect(reportOf(cached)).toEqual(reportOf(fresh));
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('tokens (');
    expect(runCli(['build', '--format', 'json'], dir).stdout).not.toContain('token_report');
  });
});
