/**
 * The forks of a run as they stood after any step of its audit log, for the page's scrubber. The log holds each
 * move's input (the node asked for and, into a join, the branch's outcome) and the node the run ended on; the SOP
 * version's transition table (`RunSop.transitions`) holds the rule. Replaying the log's moves through the one move
 * rule (`decideMove`; a move into a sub-flow node goes on into the called SOP's entry node, as `goto_node` does)
 * rebuilds the path and the fork records, and every step is checked against the node the log says the run was on.
 * Where they disagree (a run moved to another version by `sop runs migrate` whose renames the replay cannot follow,
 * say) the answer is null from that step on: the page says the forks are not known there, it never guesses.
 * Pure and browser-safe: the page's script bundles it.
 */
import { decideMoveIntoCalls, resolveInFrame } from '../../contract/frames.js';
import { entryOf, hasEntry } from '../../contract/name-table.js';
import { type ForkProgress, type MoveVerdict, NO_FORKS, NO_VISITS, type TransitionTable, type Visits } from '../../contract/transitions.js';
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
  let path: readonly string[] = [];
  let visits: Visits = NO_VISITS;
  let forks: readonly ForkProgress[] = NO_FORKS;
  for (const entry of entries) {
    if (entry.seq > step) break;
    if (entry.tool === 'load_graph' && entry.outcome === 'ok') {
      path = [];
      visits = NO_VISITS;
      forks = NO_FORKS;
    } else if (entry.tool === 'goto_node' && entry.outcome === 'ok') {
      const input = (typeof entry.input === 'object' && entry.input !== null ? entry.input : {}) as {
        node_id?: unknown;
        outcome?: unknown;
      };
      if (typeof input.node_id !== 'string') return null;
      const target = resolveTarget(table, path, input.node_id);
      const verdict = decideStep(sop, table, path, target, visits, forks, input.outcome === 'failed' ? 'failed' : 'passed');
      if (!verdict.ok) return null;
      path = verdict.path;
      visits = verdict.visits;
      forks = verdict.forks ?? forks;
    }
    // Every entry records the node the run was on after it: a refused move, a todo, a domain call left it where it was.
    if (entry.to !== (path.at(-1) ?? null)) return null;
  }
  return { path, forks };
}

/** A move as `goto_node` decides it: by the rule, and into a sub-flow node on into the called SOP's entry node. */
function decideStep(
  sop: Pick<RunSop, 'frames'>,
  table: TransitionTable,
  path: readonly string[],
  target: string,
  visits: Visits,
  forks: readonly ForkProgress[],
  outcome: 'passed' | 'failed',
): MoveVerdict {
  return decideMoveIntoCalls(table, path, target, (node) => entryOf(sop.frames, node)?.entry_node, visits, forks, outcome);
}

/** The node a `node_id` names: itself when the SOP has it, else, inside a call, that id in the frame the run is in (or outward). */
function resolveTarget(table: TransitionTable, path: readonly string[], nodeId: string): string {
  return resolveInFrame(nodeId, path.at(-1), (id) => hasEntry(table.successors, id));
}
