/**
 * The page a team reads before it switches the gateway from observing to enforcing (`sop runs report`): over the
 * audit logs of the runs, the calls and moves enforcement would have held back (observe mode's `would`), and those it
 * did hold back (enforce mode's refusals), summed per node and rule, each with the runs it happened in (a few, as
 * examples), the agent and the SOP version. A rule that fires on many runs at one node is either an agent that does
 * not follow the procedure there, or a procedure that does not say what the agent rightly does: read the examples.
 *
 * Pure: the runs and their audits in, the report out.
 */
import type { AuditEntry, StoredRun } from '../../runtime/store/run-store.js';
import { createRowTally } from './row-tally.js';

export interface RolloutRow {
  readonly agent: string;
  /** The step the run was at (a call's node, a move's node left), or null before the first move. */
  readonly node: string | null;
  /** `goto_node` for a move, else the tool called. */
  readonly what: 'move' | 'call';
  readonly rule: string;
  readonly policy?: string;
  /** Observe mode: enforcement would have refused (or asked the user first); enforce mode: it did. */
  readonly mode: 'would' | 'did';
  readonly decision: 'refuse' | 'ask';
  /** How many calls or moves, and in how many runs. */
  readonly count: number;
  readonly runs: number;
  readonly examples: readonly { readonly runId: string; readonly seq: number; readonly tool: string; readonly reason: string }[];
}

export interface RolloutReport {
  readonly runs: number;
  /** The calls and moves in those runs (their audit entries but load_graph). */
  readonly calls: number;
  readonly rows: readonly RolloutRow[];
}

export function rolloutReport(runs: readonly { readonly run: StoredRun; readonly audit: readonly AuditEntry[] }[]): RolloutReport {
  const rows = createRowTally<Omit<RolloutRow, 'count' | 'runs' | 'examples'>, RolloutRow['examples'][number]>();
  let calls = 0;
  for (const { run, audit } of runs) {
    // A change is audited twice (forwarding, then answered): one call, decided once. A read is audited once.
    const forwarded = new Map<string, number>();
    for (const entry of audit) {
      if (entry.detail?.kind === 'domain' && entry.detail.phase !== 'decided') {
        const call = JSON.stringify([entry.tool, entry.input]);
        const open = forwarded.get(call) ?? 0;
        if (entry.detail.phase === 'forwarding') forwarded.set(call, open + 1);
        else if (open > 0) {
          forwarded.set(call, open - 1);
          continue;
        }
      }
      if (entry.tool !== 'load_graph') calls += 1;
      const held = heldBy(entry);
      if (held === undefined) continue;
      rows.add(
        JSON.stringify([run.agent, entry.from, held.what, held.rule, held.policy ?? null, held.mode, held.decision]),
        () => ({
          agent: run.agent,
          node: entry.from,
          what: held.what,
          rule: held.rule,
          ...(held.policy === undefined ? {} : { policy: held.policy }),
          mode: held.mode,
          decision: held.decision,
        }),
        run.runId,
        { runId: run.runId, seq: entry.seq, tool: entry.tool, reason: held.reason },
      );
    }
  }
  return { runs: runs.length, calls, rows: rows.rows((row) => `${row.agent} ${row.node ?? ''} ${row.what} ${row.rule}`) };
}

/** What held an entry back, or would have: from its detail (a domain call's, or a move's). */
function heldBy(
  entry: AuditEntry,
): { what: 'move' | 'call'; rule: string; policy?: string; mode: 'would' | 'did'; decision: 'refuse' | 'ask'; reason: string } | undefined {
  const detail = entry.detail;
  const what = entry.tool === 'goto_node' ? 'move' : 'call';
  if (detail?.kind === 'domain' || detail?.kind === 'move') {
    if (detail.would !== undefined) {
      return {
        what,
        rule: detail.would.rule,
        ...(detail.would.policy === undefined ? {} : { policy: detail.would.policy }),
        mode: 'would',
        decision: detail.would.decision,
        reason: detail.would.reason,
      };
    }
  }
  if (entry.outcome !== 'refused') return undefined;
  if (detail?.kind === 'domain') {
    return {
      what,
      rule: detail.rule,
      ...(detail.policy === undefined ? {} : { policy: detail.policy }),
      mode: 'did',
      decision: 'refuse',
      reason: entry.error ?? '',
    };
  }
  // A move the transition rule refused (an illegal move, a visit limit) is the navigation's, not the gateway's.
  if (detail?.kind === 'move' && (detail.rule === 'evidence' || detail.rule === 'data')) {
    return { what, rule: detail.rule, mode: 'did', decision: 'refuse', reason: entry.error ?? '' };
  }
  return undefined;
}
