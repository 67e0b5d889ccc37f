/**
 * Practice against the written SOP (`--against`): the retail corpus aligned to `sops/retail_customer_support.md` by
 * replay's alignment; each planted kind shows up as the deviation the gateway would have refused it by, at its
 * node, with its transcripts as examples; what practice never used is listed. And outcomes: with
 * `--only-successes` only what worked is mined, without it the variants that fail most are listed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileWritten } from '../../../analysis/discover/compile-draft.js';
import { discover, renderPracticeMarkdown } from '../../../analysis/discover/index.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { type CorpusEntry, corpus, type PlantedKind } from '../../support/corpus/index.js';

/** The deviations each planted kind must show against the written SOP (one of them). */
const EXPECTED: Readonly<Record<PlantedKind, readonly string[]>> = {
  auth_after_change: ['skipped_required'],
  no_auth: ['skipped_required'],
  empty_lookup: ['skipped_required'],
  against_data: ['against_data'],
  other_entity: ['unproven_entity'],
  unread_change: ['skipped_required', 'unexpected_call'],
  no_confirmation: ['unconfirmed_call'],
  unknown_retry: ['unsettled_change'],
  // With goto_node: a change called one step early. The alignment explains it by a move the agent did not declare
  // (and the declared one it then did not take), or by a call where the step does not offer it.
  wrong_step: ['unexpected_call', 'undeclared_move', 'declared_move_off_walk'],
};

const WRITTEN = 'sops/retail_customer_support.md';
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sop-discover-practice-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function folder(name: string, entries: readonly CorpusEntry[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const e of entries) writeFileSync(join(dir, e.file), e.text);
  return dir;
}

const written = compileWritten(WRITTEN, readFileSync(join(PROJECT_ROOT, WRITTEN), 'utf8'));
if (!written.ok) throw new Error(written.error);
const against = { sop: written.sop, file: WRITTEN };
const entries = corpus({ seed: 1, count: 30, modes: ['inferred', 'declared'], formats: ['claude-code'] });

describe('--against the written retail SOP', () => {
  it.each(Object.entries(EXPECTED))('finds %s', (kind, expected) => {
    const planted = entries.filter((e) => e.label === kind);
    expect(planted.length).toBeGreaterThan(0);
    const result = discover({ inputs: [folder(kind, planted)], root: work, agent: 'practice', file: 'sops/practice.md', against });
    if (!result.ok) throw new Error(result.error);
    const found = result.report.differences!.filter((d) => expected.includes(d.kind) && d.count > 0);
    expect(found.length, JSON.stringify(result.report.differences!.filter((d) => d.count > 0))).toBeGreaterThan(0);
    // Every planted conversation is named by one of them, and nothing else is.
    const named = new Set(found.flatMap((d) => d.examples));
    expect(found.reduce((sum, d) => sum + d.conversations, 0)).toBeGreaterThanOrEqual(planted.length);
    for (const example of named) expect(planted.map((e) => `${kind}/${e.file}`)).toContain(example);
  });

  it('finds nothing of those in the clean conversations, and lists what practice never used', () => {
    const clean = entries.filter((e) => e.label === 'clean');
    const result = discover({ inputs: [folder('clean', clean)], root: work, agent: 'practice', file: 'sops/practice.md', against });
    if (!result.ok) throw new Error(result.error);
    const kinds = new Set(Object.values(EXPECTED).flat());
    expect(result.report.differences!.filter((d) => kinds.has(d.kind) && d.count > 0)).toEqual([]);
    expect(result.report.against).toMatchObject({ agent: 'retail_customer_support', file: WRITTEN, conversations: clean.length });
    const unused = result.report.differences!.filter((d) => d.kind === 'unused_edge');
    // The clean corpus denies no modification or exchange, never refuses a gift card, never turns a return into an exchange.
    expect(unused.map((d) => `${d.node} -> ${d.to}`)).toEqual(
      expect.arrayContaining(['IS_PENDING_M -> DENY_MOD', 'IS_GC_OK -> DENY_PAY', 'COLLECT_RETURN -> CHK_EXCH']),
    );
    expect(result.report.differences!.some((d) => d.kind === 'unused_tool')).toBe(true);
    const markdown = renderPracticeMarkdown(result.report);
    expect(markdown).toContain(`## Practice against ${WRITTEN} (retail_customer_support)`);
    expect(markdown).toContain('### What practice never used');
    expect(markdown).toContain('IS_GC_OK → DENY_PAY');
  });

  it('refuses a written SOP that does not compile or calls sub-flows, saying why', () => {
    const broken = compileWritten('sops/broken.md', '---\nagent: broken\n---\n');
    expect(broken.ok).toBe(false);
  });
});

describe('outcomes', () => {
  const inferred = entries.filter((e) => e.mode === 'inferred');
  const outcomes = { table: new Map(inferred.map((e) => [e.file, e.label === 'clean'])), name: 'outcomes.json' };

  it('--only-successes mines what worked, and the failures left out fit it less', () => {
    const dir = folder('outcomes', inferred);
    const result = discover({ inputs: [dir], root: work, agent: 'what_works', file: 'sops/what_works.md', outcomes, onlySuccesses: true });
    if (!result.ok) throw new Error(result.error);
    const successes = inferred.filter((e) => e.label === 'clean').length;
    expect(result.report.conversations).toBe(successes);
    expect(result.report.read).toBe(inferred.length);
    expect(result.report.outcomes).toMatchObject({ source: '--outcomes outcomes.json', successes, failures: inferred.length - successes });
    expect(result.report.fit.left_out).toBe(inferred.length - successes);
    expect(result.report.fit.left_out_fitness!).toBeLessThan(result.report.fitness!);
  });

  it('without --only-successes, lists the variants that fail most, failures first', () => {
    const result = discover({ inputs: [join(work, 'outcomes')], root: work, agent: 'all_of_it', file: 'sops/all_of_it.md', outcomes });
    if (!result.ok) throw new Error(result.error);
    expect(result.report.conversations).toBe(inferred.length);
    const variants = result.report.fit.variants;
    expect(variants.length).toBeGreaterThan(0);
    for (const v of variants) expect(v.failures).toBeGreaterThan(0);
    for (let i = 1; i < variants.length; i++) expect(variants[i - 1]!.failures).toBeGreaterThanOrEqual(variants[i]!.failures);
    expect(variants[0]!.variant).toMatch(/^[A-Z_]+( > [A-Z_0-9]+)*$/);
  });
});
