/**
 * The runs of an agent that never moved (it calls its tools and never `goto_node`, as most agents do before they
 * are given the SOP's navigation): enforcement would refuse every call of them for want of a position, which says
 * nothing about the procedure. What a team wants to know of them is where the calls leave the SOP, so each is
 * replayed as `sop replay` would (`replay.ts`): along the walk that best explains its calls, with the audit's
 * answers, judged by the same step function. Its findings are summed per node and rule, like the report's rows.
 *
 * Pure: the bundle and the runs in, the rows out.
 */
import type { SopBundle } from '../../contract/compiled-sop.js';
import type { AuditEntry, StoredRun } from '../../runtime/store/run-store.js';
import { replay } from '../replay/replay.js';
import { createRowTally } from './row-tally.js';

export interface JudgedRow {
  readonly agent: string;
  /** Where the inferred walk stood, or null for the run as a whole (it did not finish). */
  readonly node: string | null;
  /** The replay's finding (`unconfirmed_call`, `skipped_required`, `against_data`, …). */
  readonly rule: string;
  readonly policy?: string;
  readonly count: number;
  readonly runs: number;
  readonly examples: readonly { readonly runId: string; readonly step: number | null; readonly reason: string }[];
}

export interface JudgedWalks {
  /** The runs that never moved, and how many of them the replay found nothing wrong with. */
  readonly runs: number;
  readonly clean: number;
  /** Runs that could not be replayed (their SOP is not in the bundle), with why. */
  readonly skipped: readonly { readonly runId: string; readonly why: string }[];
  readonly rows: readonly JudgedRow[];
}

/** Whether the run ever moved: a `goto_node` the run took. */
export function neverMoved(audit: readonly AuditEntry[]): boolean {
  return !audit.some((entry) => entry.tool === 'goto_node' && entry.outcome === 'ok');
}

export function judgeUnmovedRuns(
  bundle: SopBundle,
  runs: readonly { readonly run: StoredRun; readonly audit: readonly AuditEntry[] }[],
): JudgedWalks {
  const rows = createRowTally<Omit<JudgedRow, 'count' | 'runs' | 'examples'>, JudgedRow['examples'][number]>();
  const skipped: { runId: string; why: string }[] = [];
  let judged = 0;
  let clean = 0;
  for (const { run, audit } of runs) {
    if (!neverMoved(audit) || !audit.some((entry) => entry.tool !== 'load_graph')) continue;
    judged += 1;
    const outcome = replay({ bundle, text: JSON.stringify({ run, audit }), file: run.runId, agent: run.agent });
    if (!outcome.ok) {
      skipped.push({ runId: run.runId, why: outcome.error });
      continue;
    }
    const findings = outcome.report.findings.filter((finding) => finding.severity === 'error');
    if (findings.length === 0) clean += 1;
    for (const finding of findings) {
      rows.add(
        JSON.stringify([run.agent, finding.node, finding.rule, finding.policy ?? null]),
        () => ({
          agent: run.agent,
          node: finding.node,
          rule: finding.rule,
          ...(finding.policy === undefined ? {} : { policy: finding.policy }),
        }),
        run.runId,
        { runId: run.runId, step: finding.step, reason: finding.message },
      );
    }
  }
  return { runs: judged, clean, skipped, rows: rows.rows((row) => `${row.agent} ${row.node ?? ''} ${row.rule}`) };
}
