/**
 * The forks of a run as the runs page shows them: each fork on the run's path with its branches (done and passed,
 * done and failed, or open), its join's strategy and, once the run entered the join, how it came out; and the marks
 * they put on the flowchart (each branch's first node by its state, a decided join by its outcome). Read from fork
 * records (`RunState.forks`, or a replay of the audit log for a past step) and the SOP's fork rules. The server
 * uses it for a run's detail, the page's script for the step on screen. Pure and browser-safe.
 */
import type { FlowchartMarks } from '../diagram/annotate-flowchart.js';
import { entryOf } from '../../contract/name-table.js';
import { type ForkProgress, type ForkTable, forksOnPath } from '../../contract/transitions.js';
import type { BranchState, ForkView } from './run-shapes.js';

/** The forks on `path`, by their records in `progress`, in the order the run entered them (outermost first). */
export function forkViews(rules: ForkTable | undefined, progress: readonly ForkProgress[], path: readonly string[]): ForkView[] {
  return forksOnPath(progress, path).flatMap((record) => {
    const rule = entryOf(rules, record.fork);
    if (rule === undefined) return [];
    const done = new Map(record.done.map((branch) => [branch.branch, branch.outcome]));
    return [
      {
        fork: record.fork,
        join: rule.join,
        strategy: rule.strategy,
        branches: rule.branches.map((branch) => ({ branch, state: done.get(branch) ?? ('open' satisfies BranchState) })),
        outcome: record.outcome ?? null,
      },
    ];
  });
}

/** The flowchart marks of the forks shown: branch nodes by state, joins by outcome (ids as the run has them). */
export function forkMarks(views: readonly ForkView[]): Required<Pick<FlowchartMarks, 'branches' | 'joins'>> {
  return {
    branches: views.flatMap((view) => view.branches.map(({ branch, state }) => [branch, state] as const)),
    joins: views.flatMap((view) => (view.outcome === null ? [] : [[view.join, view.outcome] as const])),
  };
}
