/**
 * `sop diff` end to end: the real CLI on a temp git repository (the real `git`, spawned), whose `main` holds the
 * golden case `compose` and whose working tree changes it as a pull request would: a prompt reworded, a node renamed
 * (declared), a node removed, the order-cancelling tool offered before the confirmation step with the policy that
 * forbade it removed, and a visit limit of the called authentication SOP raised. By default it compares the merge base
 * with main against the working tree; revisions and two files work too; markdown for a pull request, JSON for tools,
 * and `--fail-on` as the CI gate.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopDiff } from '../../analysis/diff/semantic-diff.js';
import { PROJECT_ROOT, runCli } from '../support/run-cli.js';

let repo: string;

function git(...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=SOP Test', '-c', 'user.email=sop@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

function edit(file: string, change: (text: string) => string): void {
  const path = join(repo, 'sops', file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`not in the SOP: ${from}`);
  return text.replace(from, to);
}

/** The pull request: every kind of change the diff should name. */
function change(): void {
  edit('retail_orders.md', (text) => {
    let t = replaced(text, 'Read the order back, ask the customer to confirm', 'Read the order back to the customer, ask them to confirm');
    t = replaced(
      t,
      '  confirm_before_changes:\n    every_path_to: { tools: [cancel_pending_order] }\n    passes: DO_CANCEL\n    confirmation: true\n',
      '',
    );
    t = replaced(
      t,
      '### CHK_CANCEL\n```yaml\ntools: [get_order_details]',
      '### CHK_CANCEL\n```yaml\ntools: [get_order_details, cancel_pending_order]',
    );
    t = t.replaceAll('IS_PENDING', 'ORDER_PENDING');
    t = replaced(t, '\npolicies:\n', '\nrenames: { IS_PENDING: ORDER_PENDING }\npolicies:\n');
    t = replaced(t, '    ROUTE -->|anything else| END_OTHER([Hand over to a colleague])\n', '    ROUTE -->|anything else| END_DENIED\n');
    return t;
  });
  edit('authenticate_customer.md', (text) => replaced(text, 'max_visits: 3', 'max_visits: 5'));
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'sop-diff-'));
  cpSync(join(PROJECT_ROOT, 'test/fixtures/golden/compose/sops'), join(repo, 'sops'), { recursive: true });
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'diff-app', private: true }));
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'SOPs');
  git('checkout', '-qb', 'change');
  change();
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

function diffJson(...args: string[]): SopDiff {
  const run = runCli(['diff', ...args, '--format', 'json'], repo);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as SopDiff;
}

describe('sop diff', () => {
  it('compares the merge base with main against the working tree, compiled, and names the risks', () => {
    const diff = diffJson();
    expect(diff.base.label).toMatch(/^main \(merge base [0-9a-f]{7}\)$/);
    expect(diff.head.label).toBe('working tree');
    expect(diff.agents.map((a) => [a.agent, a.status])).toEqual([
      ['authenticate_customer', 'changed'],
      ['incident_triage', 'unchanged'],
      ['retail_orders', 'changed'],
    ]);
    const retail = diff.agents.find((a) => a.agent === 'retail_orders')!;
    expect(retail.nodes).toMatchObject({ added: [], removed: ['END_OTHER'], renamed: [{ from: 'IS_PENDING', to: 'ORDER_PENDING' }] });
    expect(retail.edges.added).toEqual([{ from: 'ROUTE', to: 'END_DENIED', condition: 'anything else' }]);
    expect(retail.edges.removed).toEqual([{ from: 'ROUTE', to: 'END_OTHER', condition: 'anything else' }]);
    expect(retail.prompts).toEqual([
      {
        node: 'DO_CANCEL',
        change: 'changed',
        lines_added: 1,
        lines_removed: 1,
        hunks: [
          {
            removed: ['Read the order back, ask the customer to confirm with an explicit yes, then cancel it.'],
            added: ['Read the order back to the customer, ask them to confirm with an explicit yes, then cancel it.'],
          },
        ],
      },
    ]);
    expect(retail.prose).toBeNull();
    expect(retail.tools).toEqual([{ node: 'CHK_CANCEL', added: ['cancel_pending_order'], removed: [] }]);
    expect(retail.policies).toEqual([{ id: 'confirm_before_changes', change: 'removed', details: [] }]);
    expect(retail.paths.disappeared.some((path) => path.includes('END_OTHER'))).toBe(true);
    const auth = diff.agents.find((a) => a.agent === 'authenticate_customer')!;
    expect(auth.limits).toEqual([{ node: 'VERIFY', before: 'max_visits 3, then LOCKED_OUT', after: 'max_visits 5, then LOCKED_OUT' }]);
    expect(diff.risks.map((risk) => [risk.agent, risk.kind, risk.node ?? risk.policy ?? null])).toEqual([
      ['authenticate_customer', 'limit-relaxed', 'VERIFY'],
      ['retail_orders', 'removed-node', 'END_OTHER'],
      ['retail_orders', 'renamed-node', 'ORDER_PENDING'],
      ['retail_orders', 'tool-before-confirmation', 'CHK_CANCEL'],
      ['retail_orders', 'policy-weakened', 'confirm_before_changes'],
    ]);
    expect(diff.risks.find((risk) => risk.kind === 'tool-before-confirmation')?.message).toBe(
      "cancel_pending_order is offered at CHK_CANCEL before the confirmation step (DO_CANCEL) the old version's policy confirm_before_changes required: START → AUTHENTICATE → AUTHENTICATE.START → AUTHENTICATE.IDENTIFY → AUTHENTICATE.FOUND → AUTHENTICATE.VERIFY → AUTHENTICATE.CODE_OK → AUTHENTICATE.AUTHENTICATED → ROUTE → CHK_CANCEL",
    );
  });

  it('writes markdown for a pull request comment, risks first', () => {
    const run = runCli(['diff'], repo);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^## SOP changes: main \(merge base [0-9a-f]{7}\) → working tree\n\n\*\*5 risks\*\* · 2 SOPs changed · 1 unchanged\n\n### Risks\n/,
    );
    expect(run.stdout).toContain('- ⚠️ `retail_orders`: node END_OTHER removed');
    expect(run.stdout).toContain('- **nodes renamed**: `IS_PENDING` → `ORDER_PENDING`');
    expect(run.stdout).toContain('- **prompts**: `DO_CANCEL` changed (+1 −1 lines)');
    expect(run.stdout).toContain('- **tools**: `CHK_CANCEL` +cancel_pending_order');
    expect(run.stdout.indexOf('### Risks')).toBeLessThan(run.stdout.indexOf('### `retail_orders`'));
  });

  it('shows the changed prompt and prose lines and the golden paths collapsed, and a removed node the text still names', () => {
    const old = git('show', 'main:sops/retail_orders.md');
    const now = replaced(
      replaced(
        replaced(old, '    ROUTE -->|anything else| END_OTHER([Hand over to a colleague])\n', '    ROUTE -->|anything else| END_DENIED\n'),
        'Ask for the order id and look the order up.',
        'Ask for the order id and look the order up.\nFor anything else, go to END_OTHER.',
      ),
      '## Role\n',
      '## Role\nAlways greet the customer by name.\n',
    );
    writeFileSync(join(repo, 'old-orders.md'), old);
    writeFileSync(join(repo, 'new-orders.md'), now);
    const json = diffJson('old-orders.md', 'new-orders.md');
    const agent = json.agents.find((a) => a.agent === 'retail_orders')!;
    expect(agent.prose).toEqual({
      lines_added: 1,
      lines_removed: 0,
      hunks: [{ removed: [], added: ['Always greet the customer by name.'] }],
    });
    expect(agent.prompts).toEqual([
      {
        node: 'CHK_CANCEL',
        change: 'changed',
        lines_added: 1,
        lines_removed: 0,
        hunks: [{ removed: [], added: ['For anything else, go to END_OTHER.'] }],
      },
    ]);
    const line = now.split('\n').indexOf('For anything else, go to END_OTHER.') + 1;
    expect(json.risks.find((risk) => risk.kind === 'mentioned-node')?.message).toBe(
      `node END_OTHER removed, but the prose or a prompt still names it (new-orders.md:${line}:26): the agent would look for a step that is not there`,
    );
    const markdown = runCli(['diff', 'old-orders.md', 'new-orders.md'], repo).stdout;
    expect(markdown).toContain('- ⚠️ `retail_orders`: node END_OTHER removed, but the prose or a prompt still names it');
    expect(markdown).toContain('- **prose**: the system prompt changed (+1 −0 lines)');
    expect(markdown).toContain('- **prompts**: `CHK_CANCEL` changed (+1 −0 lines)');
    expect(markdown).toContain(
      [
        '<details><summary>What the prompts and the prose say now (2 changed)</summary>',
        '',
        '**prose** (the system prompt)',
        '',
        '```diff',
        '+ Always greet the customer by name.',
        '```',
        '',
        '`CHK_CANCEL` changed',
        '',
        '```diff',
        '+ For anything else, go to END_OTHER.',
        '```',
        '',
        '</details>',
      ].join('\n'),
    );
    expect(markdown).toMatch(
      /<details><summary>Golden paths: 4 appeared, 4 disappeared<\/summary>\n\n(- \+ `START → [^`]*`\n){4}(- − `START → [^`]*`\n){4}\n<\/details>/,
    );
    expect(markdown).toMatch(/- − `START → [^`]* → ROUTE → END_OTHER`/);
    expect(markdown).not.toMatch(/^ {2}- − /m); // the paths are no longer listed open under the summary line
  });

  it('is a CI gate with --fail-on risk or change', () => {
    expect(runCli(['diff', '--fail-on', 'risk'], repo).code).toBe(1);
    expect(runCli(['diff', '--fail-on', 'change'], repo).code).toBe(1);
    expect(runCli(['diff', 'main', 'main', '--fail-on', 'change'], repo).code).toBe(0);
    expect(runCli(['diff', 'main', 'main'], repo).stdout).toContain('No SOP changed');
  });

  it('compares two revisions, and two files', () => {
    git('commit', '-qam', 'the change');
    const revisions = diffJson('main', 'HEAD');
    expect(revisions.head.label).toMatch(/^HEAD \([0-9a-f]{7}\)$/);
    expect(revisions.risks).toHaveLength(5);
    writeFileSync(join(repo, 'old-retail.md'), git('show', 'main:sops/retail_orders.md'));
    const files = diffJson('old-retail.md', 'sops/retail_orders.md');
    expect(files.agents.filter((a) => a.status !== 'unchanged').map((a) => a.agent)).toEqual(['retail_orders']);
    expect(files.risks.map((risk) => risk.kind)).toEqual(['removed-node', 'renamed-node', 'tool-before-confirmation', 'policy-weakened']);
  });

  it('says so when a side does not build, and fails cleanly outside git or on an unknown revision', () => {
    edit('retail_orders.md', (text) => replaced(text, '### DO_CANCEL', '### DO_CANCELL'));
    const broken = diffJson('main');
    expect(broken.risks[0]).toMatchObject({ agent: null, kind: 'does-not-build' });
    expect(broken.risks[0]?.message).toContain('SOP020');
    // The agent is not removed: it does not build, and the diff says that instead of comparing it.
    expect(broken.risks.map((risk) => risk.kind)).not.toContain('agent-removed');
    expect(broken.agents.find((a) => a.agent === 'retail_orders')?.status).toBe('unbuilt');
    // The same with two files, whose paths differ: the broken file still declares the agent.
    writeFileSync(join(repo, 'old-retail.md'), git('show', 'main:sops/retail_orders.md'));
    const files = diffJson('old-retail.md', 'sops/retail_orders.md');
    expect(files.risks.map((risk) => risk.kind)).toEqual(['does-not-build']);
    expect(runCli(['diff', 'old-retail.md', 'sops/retail_orders.md'], repo).stdout).toContain(
      'Does not build in the new version (was version 2.0): not compared.',
    );
    const unknown = runCli(['diff', 'no-such-branch'], repo);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no-such-branch');
    const outside = mkdtempSync(join(tmpdir(), 'sop-diff-nogit-'));
    writeFileSync(join(outside, 'package.json'), '{}');
    const noGit = runCli(['diff'], outside);
    expect(noGit.code).toBe(2);
    expect(noGit.stderr).toMatch(/sop diff: git .*not a git repository/i);
    rmSync(outside, { recursive: true, force: true });
  });
});
