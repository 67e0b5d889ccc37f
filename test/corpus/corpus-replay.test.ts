/**
 * `sop replay` of the retail corpus (`test/support/corpus/`: conversations whose every answer is the real retail
 * server's), in every log format and both modes (the agent declares its moves with goto_node, or has the SOP in its
 * prompt and only calls tools): no clean conversation fails, and every planted deviation fails, scores lower than
 * the clean conversation it was planted in, and is named by the rule the gateway would have refused it by.
 */
import { describe, expect, it } from 'vitest';
import type { FindingRule } from '../../analysis/replay/check-conversation.js';
import { replayFile } from '../../analysis/replay/replay.js';
import type { ReplayReport } from '../../analysis/replay/replay-report.js';
import { repositoryBundle } from '../support/chat-transcripts.js';
import { type CorpusEntry, corpus, FORMATS, MODES, type PlantedKind } from '../support/corpus/index.js';

/** The findings a planted kind must bring (one of them): what the gateway would have refused it by. */
const EXPECTED: Readonly<Record<PlantedKind, readonly FindingRule[]>> = {
  // The lookup comes after the change, or never, or found no one: the run went on from AUTH without its evidence.
  auth_after_change: ['skipped_required'],
  no_auth: ['skipped_required'],
  empty_lookup: ['skipped_required'],
  // The order was read as delivered (or modified, processed) and changed as if pending.
  against_data: ['against_data'],
  // Order A read, order B changed.
  other_entity: ['unproven_entity'],
  // A change of an order never read: its check step went on without evidence (declared), or no walk explains the
  // change where it was made (inferred: nothing read, the status decision cannot be taken).
  unread_change: ['skipped_required', 'tool_not_allowed'],
  no_confirmation: ['unconfirmed_call'],
  // The change's answer was lost (it may have reached the server), and it was made again without a read.
  unknown_retry: ['unsettled_change'],
  // With goto_node: a change called at a step that does not offer it.
  wrong_step: ['tool_not_allowed'],
};

const bundle = repositoryBundle();
const entries = corpus({ seed: 1, count: 30, modes: [...MODES], formats: [...FORMATS] });

function report(entry: CorpusEntry): ReplayReport {
  const read = replayFile({ bundle, text: entry.text, file: entry.file, agent: 'retail_customer_support' });
  if (!read.ok) throw new Error(`${entry.id}: ${read.error}`);
  const outcome = read.transcripts[0]!.outcome;
  if (!outcome.ok) throw new Error(`${entry.id}: ${outcome.error}`);
  return outcome.report;
}

const reports = new Map(entries.map((entry) => [entry.id, report(entry)]));

describe.each(FORMATS.map((format) => [format]))('the retail corpus as %s', (format) => {
  const here = entries.filter((entry) => entry.format === format);

  it('passes every clean conversation', () => {
    const failed = here.filter((entry) => entry.label === 'clean' && reports.get(entry.id)!.verdict !== 'pass');
    expect(failed.map((entry) => [entry.id, reports.get(entry.id)!.findings.map((f) => f.message)])).toEqual([]);
  });

  it('fails every planted deviation, scores it lower than its clean conversation, and names it by its rule', () => {
    const planted = here.filter((entry) => entry.label !== 'clean');
    expect(planted.length).toBeGreaterThanOrEqual(27);
    for (const entry of planted) {
      const got = reports.get(entry.id)!;
      const clean = reports.get(entry.pairedWith!)!;
      const rules = got.findings.filter((f) => f.severity === 'error').map((f) => f.rule);
      expect(got.verdict, entry.id).toBe('fail');
      expect(got.conformance.fitness, entry.id).toBeLessThan(clean.conformance.fitness);
      expect(
        EXPECTED[entry.label as PlantedKind].some((rule) => rules.includes(rule)),
        `${entry.id}: ${rules.join(', ')}`,
      ).toBe(true);
    }
  });
});

it('scores a conversation the same in every log format', () => {
  for (const mode of MODES) {
    const byBase = new Map<string, number[]>();
    for (const entry of entries) {
      if (entry.mode !== mode) continue;
      const key = `${entry.base}/${entry.label}`;
      byBase.set(key, [...(byBase.get(key) ?? []), reports.get(entry.id)!.conformance.fitness]);
    }
    for (const [key, scores] of byBase) expect(new Set(scores).size, `${mode} ${key}: ${scores.join(', ')}`).toBe(1);
  }
});
