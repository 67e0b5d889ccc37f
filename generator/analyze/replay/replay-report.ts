/**
 * The result of `sop replay`, as JSON (`sop-replay/1`) and as text, with the procedural score:
 *
 *   score        = compliant steps / steps: the share of the agent's moves and domain tool calls that broke no
 *                  rule (a refused move counts: the agent attempted it);
 *   prefix_score = steps before the first non-compliant one / steps: how far the agent followed the procedure in
 *                  order before it first left it (1 when it never did).
 * A conversation with no steps scores 0. The verdict is `pass` when no finding is an error, so a conversation that
 * does not end on a terminal node fails even with every step compliant. No times, no absolute paths: the same
 * transcript and SOP give the same bytes.
 */
import type { ConversationCheck, Finding, Step } from './check-conversation.js';
import type { EventPlace, InputFormat } from './conversation.js';

export const REPLAY_FORMAT = 'sop-replay/1';

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
  /** What the input let the replay check; an audit log records neither domain tools nor what was said. */
  readonly checked: { readonly moves: true; readonly domain_tools: boolean; readonly confirmations: boolean };
  readonly findings: readonly Finding[];
  readonly timeline: readonly Step[];
}

export interface ReportContext {
  readonly file: string;
  readonly input: InputFormat;
  readonly agent: string;
  readonly sourceHash: string;
  readonly run: { readonly runId: string; readonly sourceHash: string } | null;
}

export function replayReport(context: ReportContext, check: ConversationCheck): ReplayReport {
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
    checked: { moves: true, domain_tools: check.checked.domainTools, confirmations: check.checked.confirmations },
    findings: check.findings,
    timeline: check.steps,
  };
}

/** For people: the verdict line, what could not be checked, then one line per finding. */
export function renderReplayText(report: ReplayReport): string {
  const lines = [
    `sop replay: ${report.file} (${report.input === 'audit' ? 'audit log' : 'chat messages'}) against ${report.agent} ${report.source_hash}`,
    `${report.verdict.toUpperCase()}  score ${report.score.toFixed(4)} (${report.steps.compliant}/${report.steps.total} steps compliant), ` +
      `prefix ${report.prefix_score.toFixed(4)}; ${report.terminal === null ? 'no terminal node reached at the end' : `ended at ${report.terminal}`}` +
      (report.terminals_reached.length > 0 ? `; terminals reached: ${report.terminals_reached.join(', ')}` : ''),
  ];
  if (!report.checked.domain_tools) lines.push('not checked: domain tool calls and user confirmations (an audit log records neither)');
  for (const finding of report.findings) {
    const step = finding.step === null ? '' : `step ${finding.step} `;
    const place = finding.at === null ? '' : `(${placeText(finding.at)}) `;
    const rule = finding.policy === undefined ? finding.rule : `${finding.rule} [${finding.policy}]`;
    lines.push(`  ${step}${place}${finding.severity} ${rule}: ${finding.message}`);
  }
  return `${lines.join('\n')}\n`;
}

function placeText(place: EventPlace): string {
  if ('seq' in place) return `audit seq ${place.seq}`;
  return place.tool_call_id === undefined ? `message ${place.message}` : `message ${place.message}, call ${place.tool_call_id}`;
}
