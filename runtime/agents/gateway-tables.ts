/**
 * What the gateway looks up on every domain call, made once per compiled agent (with the rest of
 * `prepared-agent.ts`): which nodes offer each tool (for refusals that say where it is offered), which
 * confirmation policies guard each tool and their confirmation steps, and each node's allowed tools as sets.
 * Maps and sets throughout: tool names and node ids are the author's, and `constructor` is a fine tool name.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';

/** A confirmation policy as the gateway applies it to one tool. */
export interface ConfirmationGuard {
  readonly policy: string;
  /** The policy's `passes` nodes: the flowchart's confirmation steps. */
  readonly steps: readonly string[];
}

export interface GatewayTables {
  /** Every domain tool of the SOP. */
  readonly tools: ReadonlySet<string>;
  /** Each node's allowed tools. */
  readonly toolsAt: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each tool, the nodes that offer it, in flowchart order. */
  readonly offeredAt: ReadonlyMap<string, readonly string[]>;
  /** Each tool a confirmation policy guards, those policies. */
  readonly confirmations: ReadonlyMap<string, readonly ConfirmationGuard[]>;
  /** The nodes that are a confirmation step of some policy. */
  readonly confirmationSteps: ReadonlySet<string>;
}

export function gatewayTables(sop: CompiledSop): GatewayTables {
  const toolsAt = new Map<string, ReadonlySet<string>>();
  const offeredAt = new Map<string, string[]>();
  for (const node of sop.nodeIds) {
    const tools = Object.hasOwn(sop.toolsByNode, node) ? (sop.toolsByNode[node] ?? []) : [];
    toolsAt.set(node, new Set(tools));
    for (const tool of tools) {
      const nodes = offeredAt.get(tool);
      if (nodes === undefined) offeredAt.set(tool, [node]);
      else if (!nodes.includes(node)) nodes.push(node);
    }
  }
  const confirmations = new Map<string, ConfirmationGuard[]>();
  const confirmationSteps = new Set<string>();
  for (const policy of sop.policies ?? []) {
    if (policy.confirmation === null) continue;
    for (const step of policy.passes) confirmationSteps.add(step);
    for (const tool of policy.tools) {
      const guards = confirmations.get(tool) ?? [];
      guards.push({ policy: policy.id, steps: policy.passes });
      confirmations.set(tool, guards);
    }
  }
  return { tools: new Set(sop.tools), toolsAt, offeredAt, confirmations, confirmationSteps };
}
