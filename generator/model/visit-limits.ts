/**
 * The visit limits of a model, resolved: each node with `max_visits` and the node it escalates to (its own
 * `escalate_to`, else the frontmatter's `escalation_node`), in flowchart order, and the moves the limits add to the
 * graph. The emitters put the limits in the transition table; the policy check walks the moves they add.
 * Limits the checker refuses (no escalation node, an unknown one, a prompt for an unknown node) are left out.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import type { SopModel } from './sop-model.js';

export interface ResolvedLimit {
  readonly node: string;
  readonly max: number;
  readonly escalation: string;
  /** Where the escalation node is named: the node's `escalate_to`, or the frontmatter's `escalation_node`. */
  readonly escalationSpan: SourceSpan;
}

export function resolveVisitLimits(model: Pick<SopModel, 'nodes' | 'prompts' | 'escalationNode'>): ResolvedLimit[] {
  const nodes = new Set(model.nodes.map((n) => n.id));
  const byNode = new Map<string, ResolvedLimit>();
  for (const prompt of model.prompts) {
    const limit = prompt.visitLimit;
    if (limit === null || !nodes.has(prompt.nodeId) || byNode.has(prompt.nodeId)) continue;
    const escalation = limit.escalateTo ?? model.escalationNode;
    if (escalation === null || !nodes.has(escalation.id)) continue;
    byNode.set(prompt.nodeId, { node: prompt.nodeId, max: limit.max, escalation: escalation.id, escalationSpan: escalation.span });
  }
  return model.nodes.flatMap((n) => (byNode.has(n.id) ? [byNode.get(n.id)!] : []));
}

/** A move the transition rule allows only once a node has used up its visits. */
export interface EscalationMove {
  readonly from: string;
  readonly to: string;
  /** The node whose visits are used up. */
  readonly usedUp: string;
}

/**
 * The escalation moves the limits add: from each predecessor of a limited node, and from a limited entry node or
 * hub itself (from where it is legal, the node itself is the first place a run can be sent on: a path through it
 * is the shortest way to use the move).
 */
export function escalationMoves(
  limits: readonly ResolvedLimit[],
  successors: ReadonlyMap<string, readonly string[]>,
  anywhere: ReadonlySet<string>,
): EscalationMove[] {
  const moves: EscalationMove[] = [];
  for (const limit of limits) {
    for (const [from, next] of successors) if (next.includes(limit.node)) moves.push({ from, to: limit.escalation, usedUp: limit.node });
    if (anywhere.has(limit.node)) moves.push({ from: limit.node, to: limit.escalation, usedUp: limit.node });
  }
  return moves;
}

/** The escalation moves of a model's own limits, over its flowchart (what the checks walk beside the edges). */
export function escalationMovesOf(
  model: Pick<SopModel, 'nodes' | 'prompts' | 'escalationNode' | 'entryNode' | 'hubs'>,
  successors: ReadonlyMap<string, readonly string[]>,
): EscalationMove[] {
  return escalationMoves(resolveVisitLimits(model), successors, new Set([model.entryNode, ...model.hubs.map((h) => h.id)]));
}

/** The escalation moves of a compiled SOP's transition table (an expansion's included), in node order. */
export function escalationMovesOfTable(sop: Pick<CompiledSop, 'nodeIds' | 'transitions'>): EscalationMove[] {
  const moves: EscalationMove[] = [];
  const table = sop.transitions;
  const anywhere = new Set([table.entry, ...table.hubs]);
  for (const [node, limit] of Object.entries(table.limits ?? {})) {
    if (limit === undefined) continue;
    for (const from of sop.nodeIds)
      if ((entryOf(table.successors, from) ?? []).includes(node)) moves.push({ from, to: limit.escalation, usedUp: node });
    if (anywhere.has(node)) moves.push({ from: node, to: limit.escalation, usedUp: node });
  }
  return moves;
}
