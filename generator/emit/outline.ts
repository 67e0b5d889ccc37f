/**
 * Analysis before planning: everything the file plans need from one SOP, computed once (names, ids, tool
 * list, edges grouped by node, machine events), with the invariants a checked model guarantees asserted
 * here so that a compiler bug fails loudly instead of emitting code that does not type-check.
 */
import type {
  CompiledPolicy,
  DataCondition,
  EvidenceRequirement,
  FieldCondition,
  SelectorSpec,
  SubflowCall,
} from '../../contract/compiled-sop.js';
import type { ForkRule } from '../../contract/transitions.js';
import { outcomeOfLabel } from '../check/check-forks.js';
import type { GraphFacts, ModelSelector, SopModel } from '../model/sop-model.js';
import { nameTable } from '../../contract/name-table.js';
import { camelCaseAgent, compareCodeUnits, pascalCaseAgent } from '../model/naming.js';
import { resolveSelector, selectorContextOf } from '../model/policy-selectors.js';
import { type ResolvedLimit, resolveVisitLimits } from '../model/visit-limits.js';
import type { EdgeLike } from './transitions.js';

/**
 * What the project files (index, registry) need of an agent: its names and file paths, all derived from the
 * agent name. An agent whose SOP failed this build but compiled before is listed from this alone.
 */
export interface AgentNames {
  readonly agent: string;
  /** The SOP it was compiled from, project-relative. */
  readonly sourceFile: string;
  /** `retailCustomerSupport`: prefix of value exports in the index (`…Machine`). */
  readonly camelName: string;
  /** `RetailCustomerSupport`: prefix of type exports in the index (`…NodeId`, `…Event`). */
  readonly pascalName: string;
  /** `<agent>/ids.ts`: ids and id types, what app code types with. */
  readonly idsPath: string;
  /** `<agent>/graph.ts`: the compiled SOP's data, typed. */
  readonly graphPath: string;
  readonly machinePath: string;
}

export function agentNames(agent: string, sourceFile: string): AgentNames {
  return {
    agent,
    sourceFile,
    camelName: camelCaseAgent(agent),
    pascalName: pascalCaseAgent(agent),
    idsPath: `${agent}/ids.ts`,
    graphPath: `${agent}/graph.ts`,
    machinePath: `${agent}/machine.ts`,
  };
}

export interface SopOutline extends AgentNames {
  readonly model: SopModel;
  /** Flowchart order. */
  readonly nodeIds: readonly string[];
  readonly decisionNodeIds: readonly string[];
  readonly terminalNodeIds: readonly string[];
  /** Frontmatter tools in their order, then tools that only node prompts name, in order of first mention. */
  readonly toolNames: readonly string[];
  readonly hubs: readonly string[];
  /** Every node, its distinct successors in edge order. */
  readonly successors: ReadonlyMap<string, readonly string[]>;
  /** Every node, its outgoing edges in source order. */
  readonly edgesByNode: ReadonlyMap<string, readonly EdgeLike[]>;
  /** Every node, its allowed tools (deduplicated, in the order the prompt lists them). */
  readonly toolsByNode: ReadonlyMap<string, readonly string[]>;
  /** Nodes some move can enter (edge targets, the entry node, the hubs, escalation nodes), sorted: one `GOTO.<id>` event each. */
  readonly eventTargets: readonly string[];
  /** Nodes with `max_visits`, in flowchart order, with their escalation node. */
  readonly limits: readonly ResolvedLimit[];
  /** The policies, resolved to node ids, in frontmatter order. */
  readonly policies: readonly CompiledPolicy[];
  /** The nodes that require evidence, in flowchart order, with the tools resolved (`true`: all the node's tools). */
  readonly evidence: readonly (readonly [string, EvidenceRequirement])[];
  /** The nodes with edges decided by data (`when`), in flowchart order, each with its targets in edge order. */
  readonly conditions: readonly (readonly [string, readonly (readonly [string, DataCondition])[]])[];
  /** The sub-flow nodes, in flowchart order, with the agent each calls and its declared exits. */
  readonly subflows: readonly (readonly [string, SubflowCall])[];
  /** The fork nodes, in flowchart order, with their join, strategy and the join's outcome edges. */
  readonly forks: readonly (readonly [string, ForkRule])[];
  /** Declared renames (old id → new id), in frontmatter order. */
  readonly renames: readonly (readonly [string, string])[];
}

const AGENT_NAME = /^[a-z][a-z0-9_]*$/;

export function outlineSop(model: SopModel, facts: GraphFacts): SopOutline {
  function fail(what: string): never {
    throw new Error(`emit: ${model.file}: ${what} A checked model never has this, so this is a compiler bug.`);
  }
  if (!AGENT_NAME.test(model.agent)) fail(`agent name ${JSON.stringify(model.agent)} is not [a-z][a-z0-9_]*.`);
  const nodeIds = model.nodes.map((n) => n.id);
  const known = new Set(nodeIds);
  if (known.size !== nodeIds.length) fail('a node id appears twice in the node list.');
  const requireNode = (id: string, role: string): void => {
    if (!known.has(id)) fail(`${role} ${JSON.stringify(id)} is not a node.`);
  };
  requireNode(model.entryNode, 'entry node');
  for (const hub of model.hubs) requireNode(hub.id, 'hub');
  for (const id of [...facts.decisionNodes, ...facts.terminalNodes]) requireNode(id, 'graph fact node');

  const edgesByNode = new Map<string, EdgeLike[]>(nodeIds.map((id) => [id, []]));
  for (const edge of model.edges) {
    const outgoing = edgesByNode.get(edge.from);
    if (!outgoing) fail(`edge source ${JSON.stringify(edge.from)} is not a node.`);
    requireNode(edge.to, 'edge target');
    outgoing.push({ to: edge.to, condition: edge.condition, style: edge.style });
  }
  const successors = new Map(nodeIds.map((id) => [id, [...new Set((edgesByNode.get(id) ?? []).map((e) => e.to))]] as const));
  const terminal = new Set(facts.terminalNodes);
  for (const [id, next] of successors) {
    if ((next.length === 0) !== terminal.has(id)) fail(`graph facts disagree with the edges about node ${id}.`);
  }

  const toolsByNode = new Map<string, readonly string[]>(nodeIds.map((id) => [id, []]));
  for (const prompt of model.prompts) {
    requireNode(prompt.nodeId, 'prompt node');
    toolsByNode.set(prompt.nodeId, [...new Set(prompt.tools.map((t) => t.name))]);
  }
  const toolNames = [...new Set([...model.tools.map((t) => t.name), ...model.prompts.flatMap((p) => p.tools.map((t) => t.name))])];

  const limits = resolveVisitLimits(model);
  const selectors = selectorContextOf(nodeIds, toolsByNode, terminal);
  const subflows = model.nodes.flatMap((node): (readonly [string, SubflowCall])[] => {
    const call = model.prompts.find((p) => p.nodeId === node.id)?.subflow;
    if (call == null) return [];
    return [[node.id, { agent: call.agent, exits: nameTable(call.exits.map((exit) => [exit.terminal, exit.target])) }]];
  });
  for (const [id, call] of subflows)
    for (const target of Object.values(call.exits))
      if (!successors.get(id)?.includes(target)) fail(`exit ${target} of ${id} is not a successor.`);
  const policies = model.policies.map(
    (policy): CompiledPolicy => ({
      id: policy.id,
      description: policy.description,
      severity: policy.severity,
      guards: resolveSelector(policy.everyPathTo, selectors).nodes,
      tools: [...new Set(policy.everyPathTo.tools.map((t) => t.name))],
      passes: resolveSelector(policy.passes, selectors).nodes,
      confirmation: policy.confirmation?.pattern ?? null,
      ...(policy.evidence === null ? {} : { evidence: true as const }),
      ...(subflows.length === 0 ? {} : { scope: { everyPathTo: specOf(policy.everyPathTo), passes: specOf(policy.passes) } }),
    }),
  );
  const forks = model.nodes.flatMap((node): (readonly [string, ForkRule])[] => {
    const fork = model.prompts.find((p) => p.nodeId === node.id)?.fork;
    if (fork == null) return [];
    requireNode(fork.join, 'join');
    const strategy = model.prompts.find((p) => p.nodeId === fork.join)?.join?.strategy ?? 'all';
    const out = edgesByNode.get(fork.join) ?? [];
    const reserved = (outcome: 'passed' | 'failed') => [
      ...new Set(out.filter((e) => outcomeOfLabel(e.condition) === outcome).map((e) => e.to)),
    ];
    return [
      [
        node.id,
        { branches: successors.get(node.id) ?? [], join: fork.join, strategy, passed: reserved('passed'), failed: reserved('failed') },
      ],
    ];
  });
  for (const rename of model.renames) requireNode(rename.to, 'renamed node');
  const evidenceByNode = new Map(model.prompts.flatMap((p) => (p.evidence === null ? [] : [[p.nodeId, p.evidence] as const])));
  const evidence = nodeIds.flatMap((id): (readonly [string, EvidenceRequirement])[] => {
    const declared = evidenceByNode.get(id);
    if (declared === undefined) return [];
    const tools = declared.tools === null ? (toolsByNode.get(id) ?? []) : [...new Set(declared.tools.map((t) => t.name))];
    const shows = declared.shows.map(fieldCondition);
    return [
      [
        id,
        {
          tools,
          about: declared.about?.name ?? null,
          ...(declared.fresh ? { fresh: true as const } : {}),
          ...(shows.length === 0 ? {} : { shows }),
        },
      ],
    ];
  });
  const whenByNode = new Map(model.prompts.flatMap((p) => (p.when.length === 0 ? [] : [[p.nodeId, p.when] as const])));
  const conditions = nodeIds.flatMap((id): (readonly [string, readonly (readonly [string, DataCondition])[]])[] => {
    const when = whenByNode.get(id);
    if (when === undefined) return [];
    const next = successors.get(id) ?? [];
    for (const entry of when) {
      if (!next.includes(entry.target)) fail(`\`when\` target ${JSON.stringify(entry.target)} of ${id} is not a successor.`);
      if (entry.condition === null) fail(`\`when\` of ${id} holds a condition that did not parse.`);
    }
    const byTarget = new Map(when.map((entry) => [entry.target, entry.condition!] as const));
    return [
      [
        id,
        next.flatMap((target) => {
          const condition = byTarget.get(target);
          return condition === undefined ? [] : [[target, { tool: condition.tool.name, ...fieldCondition(condition) }] as const];
        }),
      ],
    ];
  });

  return {
    ...agentNames(model.agent, model.file),
    model,
    nodeIds,
    decisionNodeIds: facts.decisionNodes,
    terminalNodeIds: facts.terminalNodes,
    toolNames,
    hubs: [...new Set(model.hubs.map((h) => h.id))],
    successors,
    edgesByNode,
    toolsByNode,
    eventTargets: [
      ...new Set([...model.edges.map((e) => e.to), model.entryNode, ...model.hubs.map((h) => h.id), ...limits.map((l) => l.escalation)]),
    ].sort(compareCodeUnits),
    limits,
    policies,
    evidence,
    conditions,
    subflows,
    forks,
    renames: model.renames.map((rename) => [rename.from, rename.to] as const),
  };
}

/** A condition as compiled: the field's path, the operator, the values and the text, in that order. */
function fieldCondition(condition: FieldCondition): FieldCondition {
  return { field: condition.field, op: condition.op, values: condition.values, text: condition.text };
}

/** A selector as written, for a policy proved again over the sub-flows' expansion. */
function specOf(selector: ModelSelector): SelectorSpec {
  return {
    nodes: selector.nodes.map((p) => p.pattern),
    tools: selector.tools.map((t) => t.name),
    terminals: selector.terminals,
    except: selector.except.map((p) => p.pattern),
  };
}
