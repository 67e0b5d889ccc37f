/**
 * The result of `sop replay`, as JSON (`sop-replay/1`) and as text, with the procedural score:
 *
 *   score        = compliant steps / steps: the share of the agent's moves and domain tool calls that broke no
 *                  rule (a refused move counts: the agent attempted it);
 *   prefix_score = steps before the first non-compliant one / steps: how far the agent followed the procedure in
 *                  order before it first left it (1 when it never did).
 * A conversation with no steps scores 0. The verdict is `pass` when no finding is an error, so a conversation that
 * does not end on a terminal node fails even with every step compliant. Without goto_node calls the steps are the
 * calls of the SOP's tools, checked along the walk the alignment inferred.
 *
 * `conformance` is the alignment's view (`../conformance/conformance.ts`): fitness, deviations, the walk, how
 * ambiguous it is, and (with goto_node calls) the calls the declared moves place elsewhere than the walk. Fields are
 * only ever added to `sop-replay/1`. No times, no absolute paths: the same transcript and SOP give the same bytes.
 */
import type { Conformance } from '../conformance/conformance.js';
import type { ConversationCheck, Finding, Step } from './check-conversation.js';
import { type InputFormat, type InputReader, placeText } from './conversation.js';

export const REPLAY_FORMAT = 'sop-replay/1';

/** A call the declared moves place at one node and the walk at another. */
export interface Disagreement {
  readonly step: number;
  readonly tool: string;
  readonly declared: string | null;
  readonly inferred: string | null;
}

export interface ReplayReport {
  readonly format: typeof REPLAY_FORMAT;
  readonly file: string;
  readonly input: InputFormat;
  readonly agent: string;
  readonly source_hash: string;
  readonly run: { readonly run_id: string; readonly source_hash: string } | null;
  readonly verdict: 'pass' | 'fail';
  readonly score: number;
  readonly prefix_score: number;
  readonly steps: { readonly total: number; readonly compliant: number; readonly first_violation: number | null };
  readonly terminal: string | null;
  readonly terminals_reached: readonly string[];
  readonly final_path: readonly string[];
  /** What the input let the replay check: an audit log records no dialogue, and no domain calls unless a gateway's. */
  readonly checked: { readonly moves: boolean; readonly domain_tools: boolean; readonly confirmations: boolean };
  readonly findings: readonly Finding[];
  readonly timeline: readonly Step[];
  /** The reader that understood the input, and what it left out. */
  readonly reader: InputReader | 'audit';
  readonly notes: readonly string[];
  readonly conformance: Conformance & { readonly disagreements: readonly Disagreement[] };
}

export interface ReportContext {
  readonly file: string;
  readonly input: InputFormat;
  readonly reader: InputReader | 'audit';
  readonly notes: readonly string[];
  readonly agent: string;
  readonly sourceHash: string;
  readonly run: { readonly runId: string; readonly sourceHash: string } | null;
}

export function replayReport(
  context: ReportContext,
  check: ConversationCheck,
  conformance: Conformance & { readonly disagreements: readonly Disagreement[] },
): ReplayReport {
  const total = check.steps.length;
  const compliant = check.steps.filter((step) => step.ok).length;
  const firstBad = check.steps.findIndex((step) => !step.ok);
  const ratio = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 10_000) / 10_000);
  return {
    format: REPLAY_FORMAT,
    file: context.file,
    input: context.input,
    agent: context.agent,
    source_hash: context.sourceHash,
    run: context.run === null ? null : { run_id: context.run.runId, source_hash: context.run.sourceHash },
    verdict: check.findings.some((f) => f.severity === 'error') ? 'fail' : 'pass',
    score: ratio(compliant),
    prefix_score: ratio(firstBad < 0 ? total : firstBad),
    steps: { total, compliant, first_violation: firstBad < 0 ? null : firstBad + 1 },
    terminal: check.terminal,
    terminals_reached: check.terminalsReached,
    final_path: check.finalPath,
    checked: { moves: check.checked.moves, domain_tools: check.checked.domainTools, confirmations: check.checked.confirmations },
    findings: check.findings,
    timeline: check.steps,
    reader: context.reader,
    notes: context.notes,
    conformance,
  };
}

const READERS: Readonly<Record<ReplayReport['reader'], string>> = {
  audit: 'audit log',
  chat: 'chat messages',
  'tau2-bench': 'τ²-bench simulation',
  'claude-code': 'Claude Code session log',
  'openai-responses': 'OpenAI Responses items',
};

/**
 * For people: the verdict line, what could not be checked, one line per finding; then the conformance line
 * (fitness, the walk) with one line per deviation, the steps the log cannot place, and what the reader left out.
 */
export function renderReplayText(report: ReplayReport): string {
  const lines = [
    `sop replay: ${report.file} (${READERS[report.reader]}) against ${report.agent} ${report.source_hash}`,
    `${report.verdict.toUpperCase()}  score ${report.score.toFixed(4)} (${report.steps.compliant}/${report.steps.total} steps compliant), ` +
      `prefix ${report.prefix_score.toFixed(4)}; ${report.terminal === null ? 'no terminal node reached at the end' : `ended at ${report.terminal}`}` +
      (report.terminals_reached.length > 0 ? `; terminals reached: ${report.terminals_reached.join(', ')}` : ''),
  ];
  if (!report.checked.domain_tools)
    lines.push('not checked: domain tool calls and user confirmations (the audit log of a server that is not a gateway records neither)');
  for (const finding of report.findings) {
    const step = finding.step === null ? '' : `step ${finding.step} `;
    const place = finding.at === null ? '' : `(${placeText(finding.at)}) `;
    const rule = finding.policy === undefined ? finding.rule : `${finding.rule} [${finding.policy}]`;
    lines.push(`  ${step}${place}${finding.severity} ${rule}: ${finding.message}`);
  }
  const c = report.conformance;
  const optimal = c.ambiguity.optimal_alignments;
  lines.push(
    `conformance (${c.mode === 'declared' ? 'walk anchored by goto_node' : 'walk inferred from the calls'}): fitness ${c.fitness.toFixed(4)} ` +
      `(cost ${c.cost} of ${c.worst_cost}); ${optimal === 1 ? 'one optimal alignment' : `${c.ambiguity.capped ? 'at least ' : ''}${optimal} optimal alignments`}` +
      (c.search.exact
        ? ''
        : `; the search kept ${c.search.bound} states per step and cut before step ${c.search.cut_at_step ?? '?'}: not proved optimal`),
  );
  if (c.mode === 'inferred') lines.push(`  walk: ${c.walk.join(' > ') || '(none)'}`);
  // A deviation a finding already states (an inferred walk's checks run along the same walk) is not said twice.
  const said = new Set(report.findings.map((f) => `${f.step}|${f.message}`));
  for (const d of c.deviations) {
    if (said.has(`${d.step}|${d.message}`)) continue;
    const step = d.step === null ? 'after the last step' : `step ${d.step}`;
    const place = d.at === null ? '' : ` (${placeText(d.at)})`;
    lines.push(`  ${step}${place} ${d.kind}${d.policy === undefined ? '' : ` [${d.policy}]`}: ${d.message}`);
  }
  for (const u of c.ambiguity.undetermined)
    lines.push(`  step ${u.step ?? '?'} ${u.name}: the log cannot tell where (${u.nodes.join(' or ')})`);
  for (const d of c.disagreements)
    lines.push(`  step ${d.step} ${d.tool}: declared at ${d.declared ?? 'the start'}, the walk places it at ${d.inferred ?? 'the start'}`);
  for (const note of report.notes) lines.push(`  note: ${note}`);
  return `${lines.join('\n')}\n`;
}
