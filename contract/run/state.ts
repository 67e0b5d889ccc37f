/**
 * What a run is, declared once: the state every tool call reads and replaces (`run-step.ts` decides each event on
 * it), that the run store keeps between calls, and that `sop replay`, the runs page and `sop runs migrate` rebuild or
 * carry over. Plain JSON, no behaviour; author-chosen names (node ids, tools, fields) are values in it, never keys,
 * except `visits`, which is read through `name-table.ts`.
 */
import type { ConditionValue } from '../compiled-sop.js';
import type { ForkProgress } from '../transitions.js';

/** A todo of the run's task list (the `todo` tool). */
export interface TodoItem {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
  /** A terminal node of the run's agent; reaching it adds a `todo_reminder` to `goto_node`'s answer. */
  readonly completion_node?: string;
  readonly note?: string;
}

/**
 * A domain call that found something, kept as evidence for the rest of the run (gateway mode, or a replay that sees
 * the calls): which tool, where it was made, the entity it was about, and the fields of its answer that the SOP's
 * conditions read. A later answer of the same tool about the same entity replaces it.
 */
export interface EvidenceRecord {
  /** The node the call was made at, and its index in the run's path then (a `fresh` requirement asks for the visit). */
  readonly node: string;
  readonly depth: number;
  readonly tool: string;
  /** The entity the call was about (`order_id` and its value), when the SOP's evidence names one for the tool. */
  readonly about?: { readonly name: string; readonly value: string };
  /** The answer's fields that conditions read (`status`), as `[path joined with ".", value]`; absent when none is read. */
  readonly data?: readonly (readonly [string, ConditionValue])[];
}

/**
 * What the steps on the path decided a change may be about: leaving a check step whose evidence is about an entity
 * (`order_id`) decides for the entities read then, and a branch decided by data for the entities whose answer
 * satisfies it (orders A and B read, A pending: the "yes" branch holds for A only). While `node` is on the path at
 * `depth`, a change naming entity `name` must name one of `values`.
 */
export interface Narrowing {
  readonly node: string;
  readonly depth: number;
  readonly name: string;
  readonly values: readonly string[];
  /** What decided, as the agent is told: the condition as written, or the node's evidence. */
  readonly why: string;
}

/**
 * A change whose outcome is unknown (it timed out, or the connection died after it may have reached the server): the
 * entity it named (or, naming none, the tool itself) may not be changed again until it is read again.
 */
export interface Unsettled {
  readonly tool: string;
  readonly entity?: { readonly name: string; readonly value: string };
}

/** A confirmation step entered (`node` at `depth` in the path), not yet used by a guarded call. */
export interface ConfirmationPass {
  readonly node: string;
  readonly depth: number;
}

/** A question put to the user about exactly one call: its tool and a digest of its arguments, at one node visit. */
export interface PendingConfirmation {
  /** Random, sent as the call's request state: the answer must come back with it. */
  readonly id: string;
  readonly tool: string;
  readonly digest: string;
  readonly node: string;
  readonly depth: number;
  readonly policy: string;
  /** When it was asked (ms since the epoch); absent in runs stored before questions expired. */
  readonly at?: number;
}

/** What a run remembers between calls. Plain JSON. */
export interface RunState {
  /** How the agent got here from the entry node: entry first, current node last (empty before the first move). */
  readonly path: readonly string[];
  readonly todos: readonly TodoItem[];
  /** Visits per node since the run started, for nodes with a visit limit. */
  readonly visits: { readonly [node: string]: number };
  /** Gateway mode: domain calls that found something, kept for the rest of the run. Absent when none. */
  readonly evidence?: readonly EvidenceRecord[];
  /** Gateway mode: the entities the check steps and data branches on the path decided for. Absent when none. */
  readonly narrowed?: readonly Narrowing[];
  /** Gateway mode: changes whose outcome is unknown, until what they changed is read again. Absent when none. */
  readonly unsettled?: readonly Unsettled[];
  /**
   * Gateway mode, for clients that cannot be asked (no elicitation): the confirmation steps the run entered, each
   * good for one call of a tool its policy guards, while on the path. Absent when none.
   */
  readonly passes?: readonly ConfirmationPass[];
  /** Gateway mode: the confirmation the user was asked for and has not answered. Absent otherwise. */
  readonly asked?: PendingConfirmation;
  /** Fork/join: a record per fork on the path (the branches done and how each went). Absent when none. */
  readonly forks?: readonly ForkProgress[];
  /**
   * The SOP version the run was moved to (`sop runs migrate`), when it is not the one it started on (the stored run's
   * `sourceHash`, which stays as the run began).
   */
  readonly pinned?: string;
}

export const EMPTY_RUN_STATE: RunState = Object.freeze({ path: Object.freeze([]), todos: Object.freeze([]), visits: Object.freeze({}) });
