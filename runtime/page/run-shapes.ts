/**
 * The shapes the runs page's JSON API answers with (`run-rows.ts` makes them from the store): a row per run, one
 * run's detail (with the forks on its path), and the SOP version it is on with the SOPs its sub-flows call. Types
 * only, with no imports of the runtime, so the page's browser script type-checks against them without the server's
 * modules.
 */
import type { Outcome, TransitionTable } from '../../contract/transitions.js';
import type { TodoItem } from '../store/run-store.js';

export type RunStatus = 'new' | 'active' | 'done' | 'expired';

export interface RunRow {
  readonly run_id: string;
  readonly agent: string;
  readonly source_hash: string;
  /** Calls committed on the run (its audit entries). */
  readonly step: number;
  readonly current_node: string | null;
  /** new: no move yet; done: at a terminal node; expired: idle past the TTL (deleted at the next sweep). */
  readonly status: RunStatus;
  readonly created_at: number;
  readonly updated_at: number;
}

export interface RunDetail extends RunRow {
  readonly path: readonly string[];
  readonly todos: readonly TodoItem[];
  /** The forks on the run's path, as the run's state records them (empty for a SOP without forks). */
  readonly forks: readonly ForkView[];
}

/** A branch of a fork: done, and how it came out, or still open. */
export type BranchState = Outcome | 'open';

/** A fork on a run's path: its branches and their state, its join's strategy and, once the run entered it, its outcome. */
export interface ForkView {
  readonly fork: string;
  readonly join: string;
  readonly strategy: 'all' | 'any';
  /** Every branch of the fork (its first node), in edge order. */
  readonly branches: readonly { readonly branch: string; readonly state: BranchState }[];
  /** How the join came out; null until the run entered it. */
  readonly outcome: Outcome | null;
}

/** What the page needs of the SOP version a run is pinned to. */
export interface RunSop {
  readonly agent: string;
  readonly version: string;
  readonly source_file: string;
  readonly flowchart: string;
  readonly node_ids: readonly string[];
  readonly entry_node: string;
  readonly terminal_nodes: readonly string[];
  /** The SOPs its sub-flow nodes call, by the sub-flow node's (qualified) id, each with its own flowchart and ids. */
  readonly frames?: { readonly [call: string]: RunFrame };
  /**
   * Only for a SOP with forks: its transition table (the expansion's, with the called SOPs' nodes), so the page can
   * replay the audit log through the one move rule and show the forks as they stood at any step.
   */
  readonly transitions?: TransitionTable;
}

/** A called SOP, as the page draws it while a run is inside the call. */
export interface RunFrame {
  readonly agent: string;
  readonly version: string;
  readonly source_file: string;
  readonly flowchart: string;
  /** Its own node ids (unqualified). */
  readonly node_ids: readonly string[];
  /** Its entry node (unqualified): a move into the sub-flow node goes on into it. */
  readonly entry_node: string;
}
