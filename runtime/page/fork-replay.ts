/**
 * The forks of a run as they stood after any step of its audit log, for the page's scrubber. The log holds each
 * move's input (the node asked for and, into a join, the branch's outcome) and the node the run ended on; the SOP
 * version's transition table (`RunSop.transitions`) holds the rule. Replaying the log's moves through the one move
 * rule (the step function's move, `contract/run/move.ts`; a move into a sub-flow node goes on into the called SOP's
 * entry node, as `goto_node` does)
 * rebuilds the path and the fork records, and every step is checked against the node the log says the run was on.
 * Where they disagree (a run moved to another version by `sop runs migrate` whose renames the replay cannot follow,
 * say) the answer is null from that step on: the page says the forks are not known there, it never guesses.
 * Pure and browser-safe: the page's script bundles it.
 */
import { decideMove } from '../../contract/run/move.js';
import { transitionRules } from '../../contract/run/rules.js';
import { EMPTY_RUN_STATE, type RunState } from '../../contract/run/state.js';
import { entryOf } from '../../contract/name-table.js';
import { type ForkProgress, NO_FORKS } from '../../contract/transitions.js';
import type { AuditEntry } from '../store/run-store.js';
import type { RunSop } from './run-shapes.js';

export interface ReplayedRun {
  readonly path: readonly string[];
  readonly forks: readonly ForkProgress[];
}

/** The path and fork records after `step` (the entries up to that seq), or null when the replay disagrees with the log. */
export function replayForks(sop: Pick<RunSop, 'transitions' | 'frames'>, entries: readonly AuditEntry[], step: number): ReplayedRun | null {
  const table = sop.transitions;
  if (table === undefined) return null;
  // The step function's move, with the rules the page has: the table, and the entry node of each call's SOP.
  const rules = transitionRules(table, Object.keys(table.successors), (node) => entryOf(sop.frames, node)?.entry_node);
  let state: RunState = EMPTY_RUN_STATE;
  for (const entry of entries) {
    if (entry.seq > step) break;
    if (entry.tool === 'load_graph' && entry.outcome === 'ok') state = EMPTY_RUN_STATE;
    else if (entry.tool === 'goto_node' && entry.outcome === 'ok') {
      const input = (typeof entry.input === 'object' && entry.input !== null ? entry.input : {}) as {
        node_id?: unknown;
        outcome?: unknown;
      };
      if (typeof input.node_id !== 'string') return null;
      const moved = decideMove(rules, state, input.node_id, input.outcome === 'failed' ? 'failed' : 'passed', { domainCalls: false });
      if (moved.decision.kind !== 'moved') return null;
      state = moved.state;
    }
    // Every entry records the node the run was on after it: a refused move, a todo, a domain call left it where it was.
    if (entry.to !== (state.path.at(-1) ?? null)) return null;
  }
  return { path: state.path, forks: state.forks ?? NO_FORKS };
}
