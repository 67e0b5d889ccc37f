/**
 * The shape of a node's details (`node-details.ts` makes them): plain data with no imports, so the preview's
 * browser script can type the JSON it receives without pulling in the compiler.
 */

export interface EdgeDetail {
  /** The other end: the target of an outgoing edge, the source of an incoming one. */
  readonly node: string;
  readonly condition: string | null;
  readonly style: string;
  /** An outgoing edge decided by data: its `when` condition as written. */
  readonly when?: string;
}

export interface PolicyDetail {
  readonly id: string;
  readonly description: string | null;
  readonly severity: 'error' | 'warning';
  /** The nodes a path must pass (`passes`, resolved). */
  readonly passes: readonly string[];
}

export interface NodeDetails {
  readonly id: string;
  readonly type: string;
  readonly label: string;
  readonly entry: boolean;
  readonly hub: boolean;
  readonly decision: boolean;
  readonly terminal: boolean;
  /** Its prompt text (null when it has no prompt section). */
  readonly prompt: string | null;
  readonly tools: readonly string[];
  readonly examples: number;
  readonly outgoing: readonly EdgeDetail[];
  readonly incoming: readonly EdgeDetail[];
  readonly visitLimit: { readonly max: number; readonly escalation: string } | null;
  /** Policies whose `every_path_to` includes it: every path here passes one of their `passes` nodes. */
  readonly guardedBy: readonly PolicyDetail[];
  /** Policies whose `passes` includes it. */
  readonly satisfies: readonly string[];
}
