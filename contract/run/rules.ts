/**
 * A compiled SOP's rules as the step function (`run-step.ts`) looks them up, made once per SOP version: the tools
 * each node offers, the nodes that offer each tool, the changes (the tools a policy guards), the confirmation
 * policies, the evidence each node requires, the entity each tool's answers are about, what counts as found, the
 * fields the conditions read, and the edges decided by data. Maps and sets throughout: node ids, tools and fields
 * are the author's names, and `constructor` is a fine name for any of them.
 *
 * Pure and browser-safe.
 */
import type { CompiledPolicy, CompiledSop, DataCondition, EvidenceRequirement, FieldCondition } from '../compiled-sop.js';
import { entryOf } from '../name-table.js';
import type { TransitionTable } from '../transitions.js';

/** A confirmation policy as it applies to one tool. */
export interface ConfirmationGuard {
  readonly policy: string;
  /** The policy's `passes` nodes: the flowchart's confirmation steps. */
  readonly steps: readonly string[];
}

export interface RunRules {
  readonly sop: CompiledSop;
  /** Every domain tool of the SOP. */
  readonly tools: ReadonlySet<string>;
  /** Each node's tools. */
  readonly toolsAt: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each tool, the nodes that offer it, in flowchart order. */
  readonly offeredAt: ReadonlyMap<string, readonly string[]>;
  /** The changes: tools a policy guards (`every_path_to: {tools}`). The rest are reads. */
  readonly changes: ReadonlySet<string>;
  /** The policies naming each tool (`every_path_to: {tools}`), in frontmatter order. */
  readonly policiesOfTool: ReadonlyMap<string, readonly CompiledPolicy[]>;
  /** The policies guarding each node, in frontmatter order. */
  readonly policiesOfNode: ReadonlyMap<string, readonly CompiledPolicy[]>;
  /** Each tool a confirmation policy guards, those policies. */
  readonly confirmations: ReadonlyMap<string, readonly ConfirmationGuard[]>;
  /** The nodes that are a confirmation step of some policy. */
  readonly confirmationSteps: ReadonlySet<string>;
  /** The evidence each node requires before a run goes on from it. */
  readonly requirements: ReadonlyMap<string, EvidenceRequirement>;
  /** The entity names evidence is about (`order_id`, `user_id`), in node order. */
  readonly entityNames: readonly string[];
  /** The entity each tool's answers are about: the `about` of the first requirement listing the tool. */
  readonly entityOf: ReadonlyMap<string, string>;
  /** What an answer of each tool must show to count as found: the `shows` of every requirement listing it. */
  readonly shows: ReadonlyMap<string, readonly FieldCondition[]>;
  /** The tools whose answers are kept as evidence: those a requirement or a condition reads. */
  readonly evidenceTools: ReadonlySet<string>;
  /** The fields of each tool's answers that conditions read. */
  readonly fieldsRead: ReadonlyMap<string, readonly (readonly string[])[]>;
  /** The edges decided by data: node → successor → condition. */
  readonly conditions: ReadonlyMap<string, ReadonlyMap<string, DataCondition>>;
  readonly terminals: ReadonlySet<string>;
  /** The node ids, for lookups that must not read inherited members. */
  readonly nodes: ReadonlySet<string>;
  /** The entry node of the SOP a sub-flow node calls (its own id in the called SOP), else undefined. */
  callEntry(node: string): string | undefined;
}

/**
 * What a move needs of the rules (`move.ts`): the transition table and the node ids, and what the domain calls add
 * (evidence, data, confirmation steps), empty for a reader that has only the table.
 */
export type MoveRules = Pick<
  RunRules,
  'nodes' | 'callEntry' | 'policiesOfNode' | 'requirements' | 'conditions' | 'confirmationSteps' | 'offeredAt'
> & { readonly sop: Pick<CompiledSop, 'transitions' | 'nodeIds'> };

/**
 * The move rules of a transition table alone (the runs page has the table, not the whole SOP): moves decided by the
 * transition rule, sub-flows entered through `callEntry`, and nothing the domain calls would add.
 */
export function transitionRules(
  transitions: TransitionTable,
  nodeIds: readonly string[],
  callEntry: (node: string) => string | undefined,
): MoveRules {
  return {
    sop: { transitions, nodeIds },
    nodes: new Set(nodeIds),
    callEntry,
    policiesOfNode: new Map(),
    requirements: new Map(),
    conditions: new Map(),
    confirmationSteps: new Set(),
    offeredAt: new Map(),
  };
}

export function runRules(sop: CompiledSop): RunRules {
  const toolsAt = new Map<string, ReadonlySet<string>>();
  const offeredAt = new Map<string, string[]>();
  for (const node of sop.nodeIds) {
    const tools = entryOf(sop.toolsByNode, node) ?? [];
    toolsAt.set(node, new Set(tools));
    for (const tool of tools) {
      const nodes = offeredAt.get(tool);
      if (nodes === undefined) offeredAt.set(tool, [node]);
      else if (!nodes.includes(node)) nodes.push(node);
    }
  }
  const changes = new Set<string>();
  const policiesOfTool = new Map<string, CompiledPolicy[]>();
  const policiesOfNode = new Map<string, CompiledPolicy[]>();
  const confirmations = new Map<string, ConfirmationGuard[]>();
  const confirmationSteps = new Set<string>();
  for (const policy of sop.policies ?? []) {
    for (const tool of policy.tools) {
      changes.add(tool);
      push(policiesOfTool, tool, policy);
    }
    for (const node of policy.guards) push(policiesOfNode, node, policy);
    if (policy.confirmation === null) continue;
    for (const step of policy.passes) confirmationSteps.add(step);
    for (const tool of policy.tools) push(confirmations, tool, { policy: policy.id, steps: policy.passes });
  }
  const requirements = new Map<string, EvidenceRequirement>();
  const entityNames: string[] = [];
  const entityOf = new Map<string, string>();
  const shows = new Map<string, FieldCondition[]>();
  const evidenceTools = new Set<string>();
  for (const node of sop.nodeIds) {
    const requirement = entryOf(sop.evidence, node);
    if (requirement === undefined) continue;
    requirements.set(node, requirement);
    if (requirement.about !== null && !entityNames.includes(requirement.about)) entityNames.push(requirement.about);
    for (const tool of requirement.tools) {
      evidenceTools.add(tool);
      if (requirement.about !== null && !entityOf.has(tool)) entityOf.set(tool, requirement.about);
      for (const condition of requirement.shows ?? []) push(shows, tool, condition);
    }
  }
  const fieldsRead = new Map<string, (readonly string[])[]>();
  const conditions = new Map<string, Map<string, DataCondition>>();
  for (const node of sop.nodeIds) {
    const byTarget = entryOf(sop.conditions, node);
    if (byTarget === undefined) continue;
    const table = new Map<string, DataCondition>();
    for (const target of Object.keys(byTarget)) {
      const condition = entryOf(byTarget, target)!;
      table.set(target, condition);
      evidenceTools.add(condition.tool);
      const fields = fieldsRead.get(condition.tool) ?? [];
      if (!fields.some((field) => samePath(field, condition.field))) fields.push(condition.field);
      fieldsRead.set(condition.tool, fields);
    }
    conditions.set(node, table);
  }
  const nodes = new Set(sop.nodeIds);
  return {
    sop,
    tools: new Set(sop.tools),
    toolsAt,
    offeredAt,
    changes,
    policiesOfTool,
    policiesOfNode,
    confirmations,
    confirmationSteps,
    requirements,
    entityNames,
    entityOf,
    shows,
    evidenceTools,
    fieldsRead,
    conditions,
    terminals: new Set(sop.terminalNodes),
    nodes,
    callEntry: (node) => entryOf(sop.calls, node)?.entry,
  };
}

/** A field path as the key of a record's data (`payment_history.0.amount`). */
export function fieldKey(path: readonly string[]): string {
  return path.join('.');
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
