/**
 * The nodes a run must really pass, not just walk through: the one place that says which nodes are required, for
 * the alignment (`align.ts`) that tells "passed AUTH silently" from "skipped authentication".
 *
 * Today a node is required when a policy needs it: it is one of the policy's `passes` nodes and the policy guards
 * something beyond it (a guarded node that is not itself a `passes` node, or a tool offered at such a node). A
 * policy whose guarded nodes are all its own `passes` nodes (`confirm_before_changes`: the DO_* steps guard their
 * own tools) says where a tool may be called, not that the step must happen, so it makes no node required; it is
 * checked on the calls instead. A required node that offers no tools (a decision node) leaves nothing in a log:
 * passing it is a silent step like any other.
 *
 * A node that requires evidence (`evidence` in its yaml: one of its tools succeeded during the visit) is required
 * too: passing it is only real with a successful call of one of its evidence tools, as the gateway enforces at run
 * time. Such a node is required even when no policy names it.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { requirementOf } from '../../contract/run/evidence.js';

export interface RequiredNode {
  /** The policies that require it, in frontmatter order (empty for a node required by its evidence alone). */
  readonly policies: readonly string[];
  /** The tools whose successful call passes it, when it requires evidence; otherwise any call of its tools does. */
  readonly evidence?: readonly string[];
  /** `error` when any of them is an error, else `warning`. */
  readonly severity: 'error' | 'warning';
}

export function requiredNodes(sop: CompiledSop): ReadonlyMap<string, RequiredNode> {
  const required = new Map<string, { policies: string[]; severity: 'error' | 'warning'; evidence?: readonly string[] }>();
  for (const policy of sop.policies ?? []) {
    const passes = new Set(policy.passes);
    const guardsBeyond = policy.guards.some((node) => !passes.has(node));
    if (!guardsBeyond) continue;
    for (const node of policy.passes) {
      const entry = required.get(node) ?? { policies: [], severity: 'warning' as const };
      entry.policies.push(policy.id);
      if (policy.severity === 'error') entry.severity = 'error';
      required.set(node, entry);
    }
  }
  for (const node of sop.nodeIds) {
    const evidence = requirementOf(sop, node);
    if (evidence === undefined) continue;
    const entry = required.get(node) ?? { policies: [], severity: 'error' as const };
    required.set(node, { ...entry, severity: 'error', evidence: evidence.tools });
  }
  return required;
}
