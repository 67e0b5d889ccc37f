/**
 * `sop lsp` through a real LSP client speaking JSON-RPC over the server's stdio (`test/support/lsp-client.ts`),
 * on copies of the repository's SOPs and on broken ones, in a temp project: diagnostics on open, on change, for files
 * no editor has open, and coalesced under fast typing; hover, definition, references, highlights, rename (and its
 * refusals), completion, quick fixes and the outline; and a run over the fuzzer's inputs, after which the server
 * still answers and has logged no failure of its own.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CodeAction,
  CompletionItem,
  DocumentHighlight,
  DocumentSymbol,
  Hover,
  Location,
  Position,
  Range,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { toLspDiagnostic } from '../../../authoring/lsp/lsp-diagnostics.js';
import { toolkitDocsUrl } from '../../../authoring/lsp/toolkit-docs.js';
import { compileDocument } from '../../../generator/project/compile-document.js';
import { openProject } from '../../../generator/project/open-project.js';
import { readCorpus } from '../../../fuzz/corpus.js';
import { mutate } from '../../../fuzz/mutations.js';
import { random } from '../../../fuzz/random.js';
import { RECIPES } from '../../../fuzz/recipes.js';
import { applyEdits, editsFor, type LspClient, startLspClient } from '../../support/lsp-client.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

let dir: string;
let client: LspClient;
const file = (name: string) => join(dir, 'sops', name);
const RETAIL = 'retail_customer_support.md';
const HELPDESK = 'it_helpdesk_password_reset.md';
const repo = (name: string) => readFileSync(join(PROJECT_ROOT, 'sops', name), 'utf8');
/** BASE_SOP with a misspelt prompt heading (SOP020) and a node tool missing from the frontmatter (SOP040). */
const BROKEN = withLine(19, '### ASKK', BASE_SOP).replace('```yaml\ntools: [lookup]', '```yaml\ntools: [lookup, fetch_order]');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sop-lsp-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(join(dir, 'package.json'), '{"name":"lsp-test","private":true}\n');
  for (const name of [RETAIL, HELPDESK]) copyFileSync(join(PROJECT_ROOT, 'sops', name), file(name));
  writeFileSync(file('broken.md'), BROKEN.replace('agent: demo', 'agent: broken'));
  client = await startLspClient(dir);
}, 60_000);

afterAll(async () => {
  const code = await client?.stop();
  expect(code).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

/** The LSP position of the `nth` occurrence of `needle` in `text`, `delta` characters into it. */
function at(text: string, needle: string, nth = 0, delta = 0): Position {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`${needle} (#${nth}) not found`);
  }
  const before = text.slice(0, index + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - (before.lastIndexOf('\n') + 1) };
}

function textOf(text: string, range: Range): string {
  const lines = text.split('\n');
  if (range.start.line !== range.end.line) throw new Error('multi-line range');
  return lines[range.start.line]!.slice(range.start.character, range.end.character);
}

const request = <R>(method: string, path: string, params: object = {}) =>
  client.request<R>(method, { textDocument: { uri: client.uri(path) }, ...params });

describe('diagnostics', () => {
  it('publishes on open what sop build reports, with exact ranges and codes linked to the docs', async () => {
    const path = file('broken.md');
    const text = readFileSync(path, 'utf8');
    await client.open(path, text);
    const published = await client.diagnostics(path, 1);
    const project = openProject({ root: dir, sopsDir: join(dir, 'sops'), outDir: join(dir, 'generated'), paths: false });
    const check = await project.check(project.readSources());
    const expected = (check.diagnostics.get('sops/broken.md') ?? []).map((d) => toLspDiagnostic(d, toolkitDocsUrl()));
    expect(published).toEqual(expected);
    const sop020 = published.find((d) => d.code === 'SOP020')!;
    expect(sop020).toMatchObject({
      range: { start: { line: 18, character: 0 }, end: { line: 18, character: 8 } },
      severity: 1,
      source: 'sop',
    });
    expect(sop020.message).toBe('Node prompt `ASKK` does not match any node of the flowchart.\nhelp: Did you mean `ASK`?');
    const docs = sop020.codeDescription!.href;
    expect(docs).toMatch(/\/docs\/sop-format\.md#node-prompts$/);
    expect(existsSync(fileURLToPath(docs.replace(/#.*/, '')))).toBe(true);
    expect(published.find((d) => d.code === 'SOP040')).toMatchObject({ severity: 2, range: { start: { line: 20, character: 16 } } });
  });

  it('publishes the repository SOPs clean, follows an edit, and clears when it is fixed', async () => {
    const path = file(RETAIL);
    const text = repo(RETAIL);
    await client.open(path, text);
    expect(await client.diagnostics(path, 1)).toEqual([]);
    const heading = at(text, '### COLLECT_CANCEL', 0, 17);
    const broken = client.edit(path, { start: heading, end: { line: heading.line, character: heading.character + 1 } }, 'X');
    const diagnostics = await client.diagnostics(path, broken);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([['SOP020', heading.line]]);
    expect(diagnostics[0]!.message).toContain('help: Did you mean `COLLECT_CANCEL`?');
    const fixed = client.edit(path, { start: heading, end: { line: heading.line, character: heading.character + 1 } }, 'L');
    expect(await client.diagnostics(path, fixed)).toEqual([]);
  });

  it('checks the files no editor has open, across files: a duplicate agent shows in both, and goes from both', async () => {
    writeFileSync(file('twin.md'), BASE_SOP.replace('agent: demo', 'agent: twin_agent'));
    const path = file('first.md');
    const text = BASE_SOP.replace('agent: demo', 'agent: twin_agent');
    await client.open(path, text);
    // The server sees twin.md once its watch of the folder has: the open file's diagnostics follow then.
    await waitFor(() =>
      client.published.filter((p) => p.uri === client.uri(path)).find((p) => p.diagnostics.some((d) => d.code === 'SOP032')),
    );
    const theirs = await waitFor(() => client.published.filter((p) => p.uri === client.uri(file('twin.md'))).at(-1));
    expect(theirs.version).toBeUndefined();
    expect(theirs.diagnostics.map((d) => d.code)).toContain('SOP032');
    const agent = at(text, 'twin_agent');
    const renamed = client.edit(
      path,
      { start: agent, end: { line: agent.line, character: agent.character + 'twin_agent'.length } },
      'first_agent',
    );
    expect((await client.diagnostics(path, renamed)).map((d) => d.code)).not.toContain('SOP032');
    await waitFor(() => {
      const last = client.published.filter((p) => p.uri === client.uri(file('twin.md'))).at(-1);
      return last !== undefined && !last.diagnostics.some((d) => d.code === 'SOP032') ? last : undefined;
    });
    client.close(path);
  });

  it('folds fast typing into few checks, and publishes the last version', async () => {
    const path = file('typing.md');
    const text = BASE_SOP.replace('agent: demo', 'agent: typing');
    await client.open(path, text);
    await client.diagnostics(path, 1);
    const end = at(text, 'Ask the question.', 0, 'Ask the question.'.length);
    let version = 1;
    const typed = ' Then confirm it';
    for (let i = 0; i < typed.length; i++) {
      version = client.edit(
        path,
        { start: { line: end.line, character: end.character + i }, end: { line: end.line, character: end.character + i } },
        typed[i]!,
      );
    }
    expect(await client.diagnostics(path, version)).toEqual([]);
    const checks = client.published.filter((p) => p.uri === client.uri(path) && (p.version ?? 0) > 1).length;
    expect(checks).toBeLessThan(typed.length / 2);
    client.close(path);
  });
});

describe('navigation', () => {
  const path = () => file(RETAIL);
  const text = repo(RETAIL);

  it('hovers a node id with its type, label, prompt, tools, edges and the policies guarding it', async () => {
    const route = await request<Hover>('textDocument/hover', path(), { position: at(text, 'ROUTE{Intent?}', 0, 2) });
    const value = (route.contents as { value: string }).value;
    expect(value).toContain('**ROUTE** · `rhombus` · “Intent?” · hub, decision');
    expect(value).toContain('→ `CHK_CANCEL` if “cancel a pending order”');
    expect(value).toContain('← `AUTH`');
    const doCancel = await request<Hover>('textDocument/hover', path(), { position: at(text, '### DO_CANCEL', 0, 6) });
    const cancel = (doCancel.contents as { value: string }).value;
    expect(cancel).toContain('**Tools:** `calculate`, `cancel_pending_order`');
    expect(cancel).toContain('**Guarded by policy `status_checked_before_changes`:** every path here passes `IS_PENDING_C`');
    expect(cancel).toMatch(/^> /m); // the prompt excerpt
    const hub = await request<Hover>('textDocument/hover', path(), { position: at(text, 'hubs: [ROUTE]', 0, 8) });
    expect(hub.range).toEqual({ start: at(text, 'hubs: [ROUTE]', 0, 7), end: at(text, 'hubs: [ROUTE]', 0, 12) });
  });

  it('hovers a tool with the nodes that offer it, and a key with its documentation', async () => {
    const tool = await request<Hover>('textDocument/hover', path(), { position: at(text, '  - cancel_pending_order', 0, 6) });
    expect((tool.contents as { value: string }).value).toContain('Offered at `DO_CANCEL`.');
    const key = await request<Hover>('textDocument/hover', path(), { position: at(text, 'token_budget:', 0, 3) });
    expect((key.contents as { value: string }).value).toMatch(
      /^\*\*token_budget\*\*: Optional\. Token limits .*\n\n\[docs\/sop-format\.md\]\(file:.*#token-budgets\)$/s,
    );
    const policy = await request<Hover>('textDocument/hover', path(), { position: at(text, '  authenticate_first:', 0, 4) });
    expect((policy.contents as { value: string }).value).toContain('passes `AUTH` first');
    const helpdesk = repo(HELPDESK);
    await client.open(file(HELPDESK), helpdesk);
    const visits = await request<Hover>('textDocument/hover', file(HELPDESK), { position: at(helpdesk, 'max_visits: 3', 0, 2) });
    expect((visits.contents as { value: string }).value).toContain('How many moves into this node a run may make');
    expect(
      await request<Hover | null>('textDocument/hover', path(), { position: at(text, 'You are the customer support agent', 0, 3) }),
    ).toBeNull();
  });

  it('goes from a reference to the declaration, from the declaration to the prompt, from a node tool to the frontmatter', async () => {
    const fromEdge = await request<Location[]>('textDocument/definition', path(), { position: at(text, '    AUTH --> ROUTE', 0, 5) });
    expect(fromEdge.map((l) => l.range.start)).toEqual([at(text, 'AUTH["Authenticate')]);
    const fromDeclaration = await request<Location[]>('textDocument/definition', path(), {
      position: at(text, 'AUTH["Authenticate', 0, 1),
    });
    expect(fromDeclaration.map((l) => l.range)).toEqual([{ start: at(text, '### AUTH', 0, 4), end: at(text, '### AUTH', 0, 8) }]);
    const tool = await request<Location[]>('textDocument/definition', path(), {
      position: at(text, 'tools: [calculate, cancel_pending_order]', 0, 22),
    });
    expect(tool.map((l) => l.range.start)).toEqual([at(text, '  - cancel_pending_order', 0, 4)]);
  });

  it('finds every reference of a node id: flowchart, prompt heading, policies, the prose', async () => {
    const refs = await request<Location[]>('textDocument/references', path(), {
      position: at(text, '### AUTH', 0, 5),
      context: { includeDeclaration: true },
    });
    expect(refs.every((r) => textOf(text, r.range) === 'AUTH')).toBe(true);
    const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
    expect(refs.map((r) => r.range.start.line + 1)).toEqual([
      lineOf('START([User contacts Agent]) --> AUTH'),
      lineOf('every_path_to: { except: [START, AUTH] }'),
      lineOf('    passes: AUTH'),
      lineOf('(node AUTH)'),
      lineOf('    AUTH --> ROUTE{Intent?}'),
      lineOf('### AUTH'),
    ]);
    const highlights = await request<DocumentHighlight[]>('textDocument/documentHighlight', path(), {
      position: at(text, '### AUTH', 0, 5),
    });
    expect(highlights).toHaveLength(6);
    const withoutDeclaration = await request<Location[]>('textDocument/references', path(), {
      position: at(text, '### AUTH', 0, 5),
      context: { includeDeclaration: false },
    });
    expect(withoutDeclaration).toHaveLength(5);
  });

  it('finds a node named as a `when` key, and a tool read by a condition, and hovers the key with its condition', async () => {
    const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle));
    const refs = await request<Location[]>('textDocument/references', path(), {
      position: at(text, 'DENY_CANCEL([Cannot', 0, 2),
      context: { includeDeclaration: true },
    });
    expect(refs.every((r) => textOf(text, r.range) === 'DENY_CANCEL')).toBe(true);
    expect(refs.map((r) => r.range.start.line)).toContain(lineOf('  DENY_CANCEL: get_order_details.status != pending'));
    const tool = await request<Location[]>('textDocument/references', path(), {
      position: at(text, '  - get_order_details', 0, 5),
      context: { includeDeclaration: false },
    });
    expect(tool.every((r) => textOf(text, r.range) === 'get_order_details')).toBe(true);
    const conditions = tool.filter((r) => /: get_order_details\.status [!=]= /.test(text.split('\n')[r.range.start.line]!));
    expect(conditions).toHaveLength(9);
    expect(conditions[0]!.range.start).toEqual(at(text, '  COLLECT_CANCEL: get_order_details', 0, 18));
    const hover = await request<Hover>('textDocument/hover', path(), { position: at(text, '  MOD_TYPE: get_order_details', 0, 3) });
    const value = (hover.contents as { value: string }).value;
    expect(value).toMatch(/^\*\*when\*\* `IS_PENDING_M` → `MOD_TYPE`: only if `get_order_details\.status == pending`/);
    expect(value).toContain('**MOD_TYPE** · `rhombus`');
    const decision = await request<Hover>('textDocument/hover', path(), { position: at(text, '### IS_PENDING_C', 0, 5) });
    expect((decision.contents as { value: string }).value).toContain(
      '- → `COLLECT_CANCEL` if “yes” · when `get_order_details.status == pending`',
    );
    const toolHover = await request<Hover>('textDocument/hover', path(), { position: at(text, '  - get_order_details', 0, 6) });
    expect((toolHover.contents as { value: string }).value).toContain(
      'Its answer decides edges of `IS_PENDING_C`, `IS_PENDING_M`, `IS_DELIVERED_R`, `IS_DELIVERED_E` (`when`).',
    );
  });
});

describe('rename', () => {
  /** Renames at `position` and returns the renamed text (the edit applied to the client's copy). */
  async function rename(path: string, position: Position, newName: string): Promise<string> {
    const edit = await request<WorkspaceEdit>('textDocument/rename', path, { position, newName });
    return applyEdits(client.text(path), editsFor(edit, client.uri(path)));
  }

  it('renames a node id in the flowchart, its prompt, the policies and the hubs, as one edit that compiles', async () => {
    const text = repo(RETAIL);
    const prepared = await request<{ range: Range; placeholder: string }>('textDocument/prepareRename', file(RETAIL), {
      position: at(text, 'AUTH --> ROUTE', 0, 1),
    });
    expect(prepared).toEqual({ range: { start: at(text, 'AUTH --> ROUTE'), end: at(text, 'AUTH --> ROUTE', 0, 4) }, placeholder: 'AUTH' });
    const renamed = await rename(file(RETAIL), at(text, 'AUTH --> ROUTE', 0, 1), 'VERIFY_USER');
    expect(renamed).toContain('every_path_to: { except: [START, VERIFY_USER] }');
    expect(renamed).toContain('passes: VERIFY_USER\n');
    expect(renamed).toContain('### VERIFY_USER\n');
    expect(renamed).toContain('START([User contacts Agent]) --> VERIFY_USER["Authenticate');
    expect(renamed).toContain('(node VERIFY_USER)'); // prose mentions are references too
    expect(renamed).not.toMatch(/\bAUTH\b/);
    const before = compileDocument('sops/retail.md', text).compiled;
    const after = compileDocument('sops/retail.md', renamed).compiled;
    expect(after.diagnostics).toEqual([]);
    expect(after.model!.nodes.map((n) => n.id)).toEqual(before.model!.nodes.map((n) => (n.id === 'AUTH' ? 'VERIFY_USER' : n.id)));

    const router = await rename(file(RETAIL), at(text, 'ROUTE{Intent?}', 0, 1), 'ROUTER');
    expect(router).toContain('hubs: [ROUTER]');
    expect(compileDocument('sops/retail.md', router).compiled.diagnostics).toEqual([]);
  });

  it('renames a node in the style, class and click statements that name it, and only there where it is that node', async () => {
    const path = file('styled.md');
    const styled = BASE_SOP.replace(
      '```\n',
      '    style ASK fill:#fde68a\n    classDef hot stroke:#b45309\n    class START,ASK hot\n    click ASK "https://example.com/ask"\n```\n',
    );
    expect(styled).toContain('class START,ASK hot');
    await client.open(path, styled);
    const renamed = await rename(path, at(styled, 'style ASK', 0, 7), 'QUESTION');
    expect(renamed).toContain('style QUESTION fill:#fde68a');
    expect(renamed).toContain('class START,QUESTION hot');
    expect(renamed).toContain('click QUESTION "https://example.com/ask"');
    expect(renamed).toContain('classDef hot stroke'); // a class name is not a node
    expect(renamed).not.toMatch(/\bASK\b/);
    expect(compileDocument('sops/styled.md', renamed).compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('renames escalation nodes and node_prompts keys, and a tool everywhere it is named', async () => {
    const text = repo(HELPDESK);
    const hold = await rename(file(HELPDESK), at(text, 'escalate_to: SECURITY_HOLD', 0, 14), 'LOCKED');
    expect(hold).toContain('escalate_to: LOCKED');
    expect(hold).toContain('\n  LOCKED:\n');
    const handoff = await rename(file(HELPDESK), at(text, 'escalation_node: HANDOFF', 0, 17), 'HUMAN_HANDOFF');
    expect(handoff).toContain('escalation_node: HUMAN_HANDOFF');
    expect(handoff).toContain('\n  HUMAN_HANDOFF:\n');
    expect(handoff).toContain('go to\n        HUMAN_HANDOFF.'); // a mention in a prompt, across a line break
    for (const renamed of [hold, handoff]) expect(compileDocument('sops/helpdesk.md', renamed).compiled.diagnostics).toEqual([]);

    const retail = repo(RETAIL);
    const tool = await rename(file(RETAIL), at(retail, '  - cancel_pending_order', 0, 5), 'cancel_order');
    expect(tool).not.toContain('cancel_pending_order`'.slice(0, 0) + '- cancel_pending_order');
    expect(tool).toContain('tools: [calculate, cancel_order]');
    expect(compileDocument('sops/retail.md', tool).compiled.diagnostics).toEqual([]);
  });

  it('renames a node named as a `when` key, and a tool inside the conditions that read it', async () => {
    const text = repo(RETAIL);
    const deny = await rename(file(RETAIL), at(text, 'DENY_CANCEL([Cannot', 0, 2), 'REFUSE_CANCEL');
    expect(deny).toContain('  REFUSE_CANCEL: get_order_details.status != pending');
    expect(deny).not.toContain('DENY_CANCEL');
    expect(compileDocument('sops/retail.md', deny).compiled.diagnostics).toEqual([]);
    const tool = await rename(file(RETAIL), at(text, '  - get_order_details', 0, 5), 'read_order');
    expect(tool).toContain('  COLLECT_CANCEL: read_order.status == pending');
    expect(tool).toContain('  DENY_EXCH: read_order.status != delivered');
    expect(tool).toContain('evidence: { tools: [read_order], about: order_id }');
    // Prose is not a reference: what stays is in the prompts' text.
    expect(tool).not.toMatch(/^ {2}- get_order_details$|tools: \[.*get_order_details|: get_order_details\./m);
    const compiled = compileDocument('sops/retail.md', tool).compiled;
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.model!.prompts.flatMap((p) => p.when.map((w) => w.condition?.tool.name))).toEqual(Array(9).fill('read_order'));
  });

  it('refuses to rename a tool a condition names where its characters cannot be placed (an escape), saying why', async () => {
    const path = file('escaped.md');
    const escaped = BASE_SOP.replace('agent: demo', 'agent: escaped').replace(
      '```yaml\ntools: [lookup]\n```',
      '```yaml\ntools: [lookup]\nwhen:\n  DONE: "look\\u0075p.status == done"\n```',
    );
    expect(compileDocument('sops/escaped.md', escaped).compiled.diagnostics).toEqual([]);
    await client.open(path, escaped);
    await expect(request('textDocument/rename', path, { position: at(escaped, 'tools: [lookup]', 0, 9), newName: 'find' })).rejects.toThrow(
      /would break the SOP: SOP068 The condition `lookup\.status == done` reads `lookup`, which is not a tool of this SOP/,
    );
  });

  it('refuses a taken or invalid id, and a place where nothing can be renamed, saying why', async () => {
    const text = repo(RETAIL);
    await expect(
      request('textDocument/rename', file(RETAIL), { position: at(text, 'ROUTE{Intent?}', 0, 1), newName: 'AUTH' }),
    ).rejects.toThrow(
      new RegExp(
        `\`AUTH\` is already a node of the flowchart \\(line ${text.split('\n').findIndex((line) => line.includes('--> AUTH[')) + 1}\\)`,
      ),
    );
    await expect(
      request('textDocument/rename', file(RETAIL), { position: at(text, 'ROUTE{Intent?}', 0, 1), newName: 'two words' }),
    ).rejects.toThrow(/letters, digits and underscores/);
    await expect(
      request('textDocument/rename', file(RETAIL), { position: at(text, 'ROUTE{Intent?}', 0, 1), newName: 'end' }),
    ).rejects.toThrow(/would break the SOP: SOP0/);
    await expect(request('textDocument/prepareRename', file(RETAIL), { position: at(text, 'You are the customer', 0, 2) })).rejects.toThrow(
      /Only a node id or a tool name can be renamed here/,
    );
  });
});

describe('completion, quick fixes, outline', () => {
  it('completes node ids in the flowchart and in prompt headings, tools in a node, keys and hubs in the frontmatter', async () => {
    const path = file('complete.md');
    const text = BASE_SOP.replace('agent: demo', 'agent: complete');
    await client.open(path, text);
    await client.diagnostics(path, 1);
    // A new edge in the flowchart.
    const edgeAt = at(text, '    ASK --> DONE([Done])\n', 0, '    ASK --> DONE([Done])\n'.length);
    client.edit(path, { start: edgeAt, end: edgeAt }, '    ASK --> D\n');
    const nodes = await client.completion(path, { line: edgeAt.line, character: 13 });
    expect(nodes.map((i) => i.label)).toEqual(['START', 'ASK', 'DONE']);
    expect(nodes.find((i) => i.label === 'DONE')).toMatchObject({ detail: 'stadium · Done', textEdit: { newText: 'DONE' } });
    const resolved = await client.request<CompletionItem>(
      'completionItem/resolve',
      nodes.find((i) => i.label === 'ASK'),
    );
    expect((resolved.documentation as { value: string }).value).toContain('**Tools:** `lookup`');
    // A new prompt heading: the nodes without a prompt first.
    const endAt = { line: client.text(path).split('\n').length - 1, character: 0 };
    client.edit(path, { start: endAt, end: endAt }, '\n### ');
    const headings = await client.completion(path, { line: endAt.line + 1, character: 4 });
    expect(headings.sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1)).map((i) => i.label)).toEqual(['D', 'DONE', 'START', 'ASK']); // D: the bare node of the edge typed above
    // A tool in a node's yaml block: the frontmatter's tools.
    const tools = await client.completion(path, at(client.text(path), 'tools: [lookup]', 1, 8));
    expect(tools.map((i) => i.label)).toEqual(['lookup']);
    // A new frontmatter key, and a hub.
    const keyAt = at(client.text(path), 'tools: [lookup]\n---', 0, 'tools: [lookup]\n'.length);
    client.edit(path, { start: keyAt, end: keyAt }, 'hubs: [\n');
    const hubs = await client.completion(path, { line: keyAt.line, character: 7 });
    expect(hubs.map((i) => i.label)).toEqual(['START', 'ASK', 'DONE', 'D']);
    client.edit(path, { start: keyAt, end: { line: keyAt.line, character: 7 } }, 'e');
    const keys = await client.completion(path, { line: keyAt.line, character: 1 });
    expect(keys.map((i) => i.label)).toEqual([
      'description',
      'entry_node',
      'hubs',
      'model',
      'mcp_servers',
      'escalation_node',
      'policies',
      'token_budget',
      'renames',
    ]);
    expect(keys.find((i) => i.label === 'entry_node')).toMatchObject({
      insertTextFormat: 2,
      textEdit: { newText: 'entry_node: ${1:START}' },
    });
    client.close(path);
  });

  it("completes a node's successors as the keys of its `when`, and a tool at the start of a condition", async () => {
    const path = file('decide.md');
    const text = BASE_SOP.replace('agent: demo', 'agent: decide')
      .replace('    ASK --> DONE([Done])', '    ASK --> DONE([Done])\n    ASK --> STOP([Stop])')
      .replace('```yaml\ntools: [lookup]\n```', '```yaml\ntools: [lookup]\nwhen:\n  DONE: lookup.ok == true\n  \n```');
    await client.open(path, text);
    await client.diagnostics(path, 1);
    const blank = at(text, '  \n```', 0, 2);
    expect((await client.completion(path, blank)).map((i) => i.label)).toEqual(['STOP']);
    const edited = client.edit(path, { start: blank, end: blank }, 'STOP: l');
    expect(edited).toBeGreaterThan(1);
    const tools = await client.completion(path, { line: blank.line, character: blank.character + 'STOP: l'.length });
    expect(tools.map((i) => i.label)).toEqual(['lookup']);
    client.close(path);
  });

  it('completes node ids in policies and escalate_to, and policy keys', async () => {
    const retail = repo(RETAIL);
    const helpdesk = repo(HELPDESK);
    for (const [name, text] of [
      [RETAIL, retail],
      [HELPDESK, helpdesk],
    ] as const) {
      if (!client.published.some((p) => p.uri === client.uri(file(name)) && p.version !== undefined)) await client.open(file(name), text);
      await client.diagnostics(file(name));
    }
    const passes = await client.completion(file(RETAIL), at(retail, '    passes: AUTH\n', 0, '    passes: AUTH'.length));
    expect(passes.map((i) => i.label)).toEqual(expect.arrayContaining(['AUTH', 'ROUTE', 'DO_CANCEL']));
    const escalation = await client.completion(file(HELPDESK), at(helpdesk, 'escalate_to: SECURITY_HOLD', 0, 'escalate_to: SEC'.length));
    expect(escalation.map((i) => i.label)).toContain('SECURITY_HOLD');
    const keys = await client.completion(file(RETAIL), at(retail, '    passes: AUTH\n', 0, 4));
    // description and every_path_to are written; passes is the key on this line, being retyped.
    expect(keys.map((i) => i.label)).toEqual(['passes', 'confirmation', 'severity']);
  });

  it('offers the remediation as a quick fix, and the fixed text compiles without it', async () => {
    const path = file('broken.md');
    const published = await client.diagnostics(path, 1);
    const heading = published.find((d) => d.code === 'SOP020')!;
    const [fix] = await request<CodeAction[]>('textDocument/codeAction', path, {
      range: heading.range,
      context: { diagnostics: [heading] },
    });
    expect(fix).toMatchObject({ title: 'Change `ASKK` to `ASK`', kind: 'quickfix', isPreferred: true });
    const tool = published.find((d) => d.code === 'SOP040')!;
    const [add] = await request<CodeAction[]>('textDocument/codeAction', path, { range: tool.range, context: { diagnostics: [tool] } });
    expect(add).toMatchObject({ title: 'Add `fetch_order` to the frontmatter `tools`' });
    let text = client.text(path);
    for (const action of [fix!, add!]) text = applyEdits(text, editsFor(action.edit!, client.uri(path)));
    expect(text).toContain('### ASK\n');
    expect(text).toContain('tools: [lookup, fetch_order]\n---');
    const version = client.edit(
      path,
      { start: { line: 0, character: 0 }, end: { line: client.text(path).split('\n').length, character: 0 } },
      text,
    );
    expect(await client.diagnostics(path, version)).toEqual([]);
  });

  it('fixes the most common typo (SOP046) and a prompt naming a missing node (SOP048), through the server', async () => {
    const path = file('typos.md');
    const typos = withLine(14, '    ASK --> DONE([Done])\n    ASK -->|again| AKS', BASE_SOP)
      .replace('agent: demo', 'agent: typos')
      .replace('Ask the question.', 'Ask the question, then go to DOEN.');
    writeFileSync(path, typos);
    await client.open(path, typos);
    const published = await client.diagnostics(path, 1);
    expect(published.map((d) => d.code).sort()).toEqual(['SOP046', 'SOP048']);
    let text = typos;
    for (const diagnostic of published) {
      const [fix] = await request<CodeAction[]>('textDocument/codeAction', path, {
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
      });
      expect(fix?.title).toMatch(diagnostic.code === 'SOP046' ? 'Change `AKS` to `ASK`' : 'Change `DOEN` to `DONE`');
      text = applyEdits(text, editsFor(fix!.edit!, client.uri(path)));
    }
    const version = client.edit(path, { start: { line: 0, character: 0 }, end: { line: typos.split('\n').length, character: 0 } }, text);
    expect(await client.diagnostics(path, version)).toEqual([]);
  });

  it('outlines the frontmatter, the sections, the nodes and the prompts', async () => {
    const symbols = await request<DocumentSymbol[]>('textDocument/documentSymbol', file(RETAIL));
    expect(symbols.map((s) => s.name)).toEqual([
      'retail_customer_support',
      'Role',
      'Global Rules',
      'Domain Reference',
      'How to Use the SOP Graph',
      'SOP Flowchart',
      'Node Prompts',
    ]);
    expect(symbols[0]!.children!.map((c) => c.name)).toEqual([
      'authenticate_first',
      'status_checked_before_changes',
      'order_read_before_changes',
      'confirm_before_changes',
    ]);
    const chart = symbols.find((s) => s.name === 'SOP Flowchart')!;
    expect(chart.children!.find((c) => c.name === 'ROUTE')).toMatchObject({ kind: 10, detail: 'rhombus · Intent?' });
    expect(chart.children!.find((c) => c.name === 'DENY_CANCEL')).toMatchObject({ kind: 24 });
    const prompts = symbols.find((s) => s.name === 'Node Prompts')!;
    expect(prompts.children!.map((c) => c.name)).toContain('DO_CANCEL');
  });
});

describe('robustness', () => {
  it('answers every request on the fuzzer inputs without a failure of its own, and keeps publishing', { timeout: 240_000 }, async () => {
    const base = repo(RETAIL);
    const corpus = readCorpus(PROJECT_ROOT);
    const inputs = [
      ...RECIPES.map((r) => r.build(base, 20_000)),
      ...Array.from({ length: 30 }, (_, i) => {
        const rng = random(20261126 + i);
        return mutate(rng.pick(corpus).text, rng, 32 * 1024).text;
      }),
    ];
    const path = file('fuzzed.md');
    await client.open(path, base);
    await client.diagnostics(path, 1);
    for (const [n, input] of inputs.entries()) {
      const lines = client.text(path).split('\n');
      const version = client.edit(path, { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } }, input);
      await client.diagnostics(path, version, 60_000);
      const rng = random(n);
      const inputLines = input.split('\n');
      for (let k = 0; k < 4; k++) {
        const line = rng.below(inputLines.length);
        const position = { line, character: rng.below((inputLines[line]?.length ?? 0) + 1) };
        const ask = (method: string, extra: object = {}) => request(method, path, { position, ...extra });
        await Promise.all([
          ask('textDocument/hover'),
          ask('textDocument/definition'),
          ask('textDocument/references', { context: { includeDeclaration: true } }),
          ask('textDocument/documentHighlight'),
          ask('textDocument/completion'),
          ask('textDocument/prepareRename').catch((error: Error) => expect(error.message).toMatch(/renamed here/)),
          request('textDocument/codeAction', path, { range: { start: position, end: position }, context: { diagnostics: [] } }),
          request('textDocument/documentSymbol', path),
        ]);
      }
    }
    expect(client.stderr()).not.toMatch(/failed \(answered with nothing\)|internal error/);
    expect(await request<Hover>('textDocument/hover', file(RETAIL), { position: at(repo(RETAIL), 'ROUTE{Intent?}', 0, 1) })).not.toBeNull();
    client.close(path);
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out\n${client.stderr()}`);
}
