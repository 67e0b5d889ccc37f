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
 * When the compiled SOP states node-level evidence (a node that requires one of its tools to have succeeded during
 * the visit), those nodes are added here, and nowhere else.
 */
import type { CompiledSop } from '../../../contract/compiled-sop.js';

export interface RequiredNode {
  /** The policies that require it, in frontmatter order. */
  readonly policies: readonly string[];
  /** `error` when any of them is an error, else `warning`. */
  readonly severity: 'error' | 'warning';
}

export function requiredNodes(sop: CompiledSop): ReadonlyMap<string, RequiredNode> {
  const required = new Map<string, { policies: string[]; severity: 'error' | 'warning' }>();
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
  return required;
}
