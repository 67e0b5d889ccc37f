/**
 * One SOP's compiled data as a `CompiledSop` value: what the JSON bundle holds and what the typed graph module
 * prints, made in one place so the two cannot diverge. Keys are built in a fixed order and every collection is
 * in source order, so the JSON is byte-deterministic.
 */
import type { CompiledSop, NodePrompt } from '../../contract/compiled-sop.js';
import { nameTable } from '../../contract/name-table.js';
import type { TransitionTable } from '../../contract/transitions.js';
import type { SopOutline } from './outline.js';

export function compiledSopOf(outline: SopOutline): CompiledSop {
  const { model } = outline;
  const byNode = <T>(value: (id: string) => T): Record<string, T> => objectOf(outline.nodeIds.map((id) => [id, value(id)]));
  const prompts = new Map(model.prompts.map((p) => [p.nodeId, p]));
  return {
    meta: {
      agent: outline.agent,
      version: model.version,
      description: model.description,
      model: model.model,
      mcpServers: model.mcpServers,
    },
    sourceFile: model.file,
    sourceHash: model.sourceHash,
    transitions: transitionTableOf(outline),
    nodeIds: outline.nodeIds,
    nodes: objectOf(model.nodes.map((n) => [n.id, { id: n.id, type: n.type, description: n.description }])),
    edges: byNode((id) => (outline.edgesByNode.get(id) ?? []).map((e) => ({ to: e.to, condition: e.condition, style: e.style }))),
    prompts: objectOf(
      outline.nodeIds.flatMap((id): [string, NodePrompt][] => {
        const prompt = prompts.get(id);
        if (!prompt) return [];
        const tools = outline.toolsByNode.get(id) ?? [];
        return [[id, { prompt: prompt.prompt, tools, examples: prompt.examples.map((e) => ({ user: e.user, agent: e.agent })) }]];
      }),
    ),
    decisionNodes: outline.decisionNodeIds,
    terminalNodes: outline.terminalNodeIds,
    tools: outline.toolNames,
    toolsByNode: byNode((id) => outline.toolsByNode.get(id) ?? []),
    systemPrompt: model.systemPrompt,
    systemPromptSections: model.systemPromptSections.map((s) => s.heading),
    flowchart: model.flowchart,
    ...(outline.policies.length === 0 ? {} : { policies: outline.policies }),
    ...(outline.evidence.length === 0 ? {} : { evidence: objectOf(outline.evidence) }),
    ...(outline.conditions.length === 0
      ? {}
      : { conditions: objectOf(outline.conditions.map(([id, targets]) => [id, objectOf(targets)])) }),
    ...(outline.subflows.length === 0
      ? {}
      : {
          subflows: objectOf(
            outline.subflows.map(([id, call]) => [id, { agent: call.agent, exits: objectOf(Object.entries(call.exits)) }]),
          ),
        }),
    ...(outline.renames.length === 0 ? {} : { renames: objectOf(outline.renames) }),
  };
}

export function transitionTableOf(outline: SopOutline): TransitionTable {
  return {
    entry: outline.model.entryNode,
    hubs: outline.hubs,
    successors: objectOf(outline.nodeIds.map((id) => [id, outline.successors.get(id) ?? []])),
    ...(outline.limits.length === 0
      ? {}
      : { limits: objectOf(outline.limits.map((limit) => [limit.node, { max: limit.max, escalation: limit.escalation }])) }),
    ...(outline.forks.length === 0
      ? {}
      : {
          forks: objectOf(
            outline.forks.map(([id, rule]) => [
              id,
              { branches: rule.branches, join: rule.join, strategy: rule.strategy, passed: rule.passed, failed: rule.failed },
            ]),
          ),
        }),
  };
}

/** A table keyed by node ids, in their order (a record without a prototype: `name-table.ts`). */
function objectOf<T>(entries: readonly (readonly [string, T])[]): Record<string, T> {
  return nameTable(entries);
}
