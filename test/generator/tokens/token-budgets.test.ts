/**
 * `token_budget` (`generator/tokens/token-budgets.ts`, run by `planBuild`): each overrun is one SOP057 warning
 * where the text to shorten is (a node's prompt heading, else its flowchart declaration; the system prompt's at its
 * budget), with the count (o200k, checked against gpt-tokenizer on the compiled text) and the budget; a count equal
 * to its budget is no warning, one over is. Warnings do not fail the build: `sop build` exits 0 and writes the
 * output. A budget that is not a whole number of tokens above 0, or an unknown key, is a frontmatter error (SOP003)
 * with its remediation.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { tokenReport } from '../../../generator/tokens/token-report.js';
import { type BuildPlan, planBuild } from '../../../generator/project/plan-build.js';
import { compileSop } from '../../../generator/compile-sop.js';
import { BUNDLE_PATH } from '../../../generator/emit/bundle-plan.js';
import type { Diagnostic } from '../../../generator/diagnostics/diagnostic.js';
import { runCli } from '../../support/run-cli.js';

const BODY = `
## Role
You answer questions about orders.

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Start]) --> ASK["Ask"]
    ASK --> LONG["Explain"]
    LONG --> DONE([Done])
\`\`\`

## Node Prompts

### ASK
Ask which order.

### LONG
\`\`\`yaml
tools: [lookup]
\`\`\`
${'Explain the status of the order in plain words. '.repeat(10).trim()}
`;

interface Budget {
  readonly node_prompt: number;
  readonly system_prompt: number;
  readonly goto_answer: number;
}

/**
 * The same SOP body under any agent name and budget (frontmatter only: the prompts and answers stay the same). The
 * budget is a `Budget`, or the lines of the `token_budget:` map as written.
 */
const sopText = (agent: string, budget: Budget | readonly string[] | null) => {
  const lines = budget === null ? [] : Array.isArray(budget) ? budget : Object.entries(budget).map(([key, limit]) => `  ${key}: ${limit}`);
  return [
    '---',
    `agent: ${agent}`,
    'version: "1.0"',
    'tools: [lookup]',
    ...(budget === null ? [] : ['token_budget:', ...lines]),
    '---',
    BODY,
  ].join('\n');
};

/** 1-based line and column of `needle` in `text` (its first occurrence). */
function position(text: string, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  expect(line, needle).toBeGreaterThanOrEqual(0);
  return { line: line + 1, column: lines[line]!.indexOf(needle) + 1 };
}

const budgetWarnings = (build: BuildPlan, file: string): Diagnostic[] =>
  build.diagnostics.filter((d) => d.file === file && d.code === 'SOP057');
const bundleOf = (build: BuildPlan) => JSON.parse(build.outputs.find((f) => f.path === BUNDLE_PATH)!.content) as SopBundle;

const TINY: Budget = { node_prompt: 1, system_prompt: 1, goto_answer: 1 };
let measured: BuildPlan;

beforeAll(async () => {
  // Every count over a budget of 1; and the same SOP with no budget at all.
  measured = await planBuild([
    { file: 'sops/tiny.md', raw: sopText('tiny', TINY) },
    { file: 'sops/free.md', raw: sopText('free', null) },
  ]);
});

describe('token budgets', () => {
  it('warns of every overrun at the text to shorten, with the count and the budget', () => {
    const text = sopText('tiny', TINY);
    const sop = bundleOf(measured).agents.tiny!;
    const answers = Object.fromEntries(tokenReport(sop, countTokens).nodes.map((n) => [n.node, n.goto_answer]));
    const budgetLine = (key: string) => position(text, `  ${key}:`).line;
    const at = (needle: string) => ({ file: 'sops/tiny.md', severity: 'warning', ...position(text, needle) });
    const over = (key: keyof Budget) => `over \`token_budget.${key}\` (1, line ${budgetLine(key)}).`;
    const answer = (node: string, path: string) =>
      `The goto_node answer for \`${node}\` (reached by ${path}) is ${answers[node]} tokens (o200k), ${over('goto_answer')}`;

    expect(budgetWarnings(measured, 'sops/tiny.md')).toEqual(
      [
        // The system prompt at its budget: it is every section before the node prompts.
        {
          ...at('  system_prompt: 1'),
          column: '  system_prompt: '.length + 1,
          message: `The system prompt is ${countTokens(sop.systemPrompt)} tokens (o200k), ${over('system_prompt')}`,
        },
        // A node without a prompt at its flowchart declaration; one with a prompt at its heading.
        { ...at('START(['), message: answer('START', 'START') },
        { ...at('DONE(['), message: answer('DONE', 'START → ASK → LONG → DONE') },
        { ...at('### ASK'), message: `The prompt of \`ASK\` is ${countTokens('Ask which order.')} tokens (o200k), ${over('node_prompt')}` },
        { ...at('### ASK'), message: answer('ASK', 'START → ASK') },
        {
          ...at('### LONG'),
          message: `The prompt of \`LONG\` is ${countTokens(sop.prompts.LONG!.prompt!)} tokens (o200k), ${over('node_prompt')}`,
        },
        { ...at('### LONG'), message: answer('LONG', 'START → ASK → LONG') },
      ].map((d) => expect.objectContaining({ ...d, code: 'SOP057', remediation: expect.stringContaining('sop build --report') })),
    );
    expect(sop.prompts.LONG!.prompt).toMatch(/^Explain the status/);
    expect(Object.values(answers).every((n) => n !== null && n > 1)).toBe(true);
  });

  it('measures only SOPs that declare a budget', () => {
    expect(budgetWarnings(measured, 'sops/free.md')).toEqual([]);
    expect(measured.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a count equal to its budget is within it; one token less is an overrun', async () => {
    const sop = bundleOf(measured).agents.tiny!;
    const prompts = Object.values(sop.prompts).flatMap((p) => (p?.prompt ? [countTokens(p.prompt)] : []));
    const answers = tokenReport(sop, countTokens).nodes.flatMap((n) => (n.goto_answer === null ? [] : [n.goto_answer]));
    const most = (counts: number[]) => {
      const max = Math.max(...counts);
      expect(
        counts.filter((c) => c === max),
        'the largest count is one node',
      ).toHaveLength(1);
      return max;
    };
    const exact: Budget = { node_prompt: most(prompts), system_prompt: countTokens(sop.systemPrompt), goto_answer: most(answers) };
    const tight: Budget = {
      node_prompt: exact.node_prompt - 1,
      system_prompt: exact.system_prompt - 1,
      goto_answer: exact.goto_answer - 1,
    };
    const build = await planBuild([
      { file: 'sops/exact.md', raw: sopText('exact', exact) },
      { file: 'sops/tight.md', raw: sopText('tight', tight) },
    ]);
    expect(budgetWarnings(build, 'sops/exact.md')).toEqual([]);
    expect(budgetWarnings(build, 'sops/tight.md').map((d) => d.message.split(' is ')[0])).toEqual([
      'The system prompt',
      'The prompt of `LONG`',
      'The goto_node answer for `LONG` (reached by START → ASK → LONG)',
    ]);
  });

  it('does not fail the build: sop build exits 0, writes the output and prints the warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sop-budget-'));
    try {
      mkdirSync(join(dir, 'sops'));
      writeFileSync(join(dir, 'sops', 'tiny.md'), sopText('tiny', TINY));
      const result = runCli(['build'], dir);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const long = position(sopText('tiny', TINY), '### LONG');
      expect(result.stdout).toContain(`sops/tiny.md:${long.line}:1 warning SOP057 The prompt of \`LONG\` is`);
      expect(result.stdout).toMatch(/sop build: 1 SOP, 0 errors, 7 warnings; \d+ files written/);
      expect(readdirSync(join(dir, 'generated', 'tiny')).sort()).toEqual(['graph.ts', 'ids.ts', 'machine.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bad budgets', () => {
  const remediation =
    'Use `token_budget: {node_prompt: N, system_prompt: N, goto_answer: N}` with whole numbers of tokens (any of the three).';

  it.each([
    ['node_prompt', '0', 'Too small: expected number to be >0'],
    ['system_prompt', '-40', 'Too small: expected number to be >0'],
    ['goto_answer', '"400"', 'Invalid input: expected number, received string'],
    ['goto_answer', '2.5', 'Invalid input: expected int, received number'],
  ])('%s: %s is a frontmatter error at the value, with the remediation', (key, value, message) => {
    const line = `  ${key}: ${value}`;
    const text = sopText('bad', [key === 'node_prompt' ? '  goto_answer: 100' : '  node_prompt: 100', line]);
    expect(compileSop('sops/bad.md', text).diagnostics).toEqual([
      expect.objectContaining({
        code: 'SOP003',
        severity: 'error',
        line: position(text, line).line,
        column: line.indexOf(value) + 1,
        message: `Frontmatter key \`token_budget.${key}\`: ${message}.`,
        remediation,
      }),
    ]);
  });

  it('an unknown key is a frontmatter error at that key, naming the key meant', () => {
    const text = sopText('bad', ['  node_prompt: 100', '  goto_answers: 100']);
    expect(compileSop('sops/bad.md', text).diagnostics).toEqual([
      expect.objectContaining({
        code: 'SOP003',
        severity: 'error',
        line: position(text, '  goto_answers: 100').line,
        column: 3,
        message: 'Frontmatter key `token_budget` has no key `goto_answers`.',
        remediation: 'Did you mean `goto_answer`?',
      }),
    ]);
  });
});
