/**
 * The risks of a change to SOPs, what a reviewer must not miss in a pull request, each said once with where it is:
 *   - `does-not-build`: the new version has errors (its agents are not served until they are fixed);
 *   - `agent-removed`, `removed-node`: runs standing on them cannot move to the new version (a `renames` entry turns
 *     a removed node into `renamed-node`: runs on it can move, `sop runs migrate` applies it);
 *   - `mentioned-node`: a node removed or renamed that the new version's prose or prompts still name ("go to
 *     IS_GC_OK"): the agent is told to go to a step that is not there;
 *   - `entry-changed`: every run's path starts at the old entry node;
 *   - `tool-before-confirmation`, `policy-broken`: a policy of the old version, applied to the new graph (its nodes
 *     read through the renames, its tools wherever the new version offers them, the sub-flows expanded), no longer
 *     holds: the counterexample path says how a run reaches a guarded node, or a tool it asked a confirmation for,
 *     without passing the step that was required;
 *   - `policy-weakened`: a policy removed, guarding fewer nodes, passed by more, no longer asking for a confirmation
 *     or for evidence, or only warning;
 *   - `evidence-removed`, `limit-relaxed`: a node no longer requires the evidence it did, or its visit limit went up
 *     or away.
 */
import type { CompiledPolicy, CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { buildPolicyGraph, findViolation } from '../../generator/check/check-policies.js';
import { escalationMovesOfTable } from '../../generator/model/visit-limits.js';
import { type CompiledSide, expandedOn, renamedIn } from './compiled-side.js';
import type { AgentDiff } from './semantic-diff.js';

export type RiskKind =
  | 'does-not-build'
  | 'agent-removed'
  | 'removed-node'
  | 'renamed-node'
  | 'mentioned-node'
  | 'entry-changed'
  | 'tool-before-confirmation'
  | 'policy-broken'
  | 'policy-weakened'
  | 'evidence-removed'
  | 'limit-relaxed';

export interface DiffRisk {
  readonly agent: string | null;
  readonly kind: RiskKind;
  readonly message: string;
  /** The node it is about, in the new version's ids where it still exists. */
  readonly node?: string;
  readonly policy?: string;
}

export function risksOf(base: CompiledSide, head: CompiledSide, agents: readonly AgentDiff[]): DiffRisk[] {
  const risks: DiffRisk[] = [];
  if (head.errors.length > 0) {
    const files = [...new Set(head.errors.map((d) => d.file))];
    risks.push({
      agent: null,
      kind: 'does-not-build',
      message: `${head.label} has ${head.errors.length} error${head.errors.length === 1 ? '' : 's'} (${files.join(', ')}): its SOPs are not served until they are fixed; the first: ${head.errors[0]!.file}:${head.errors[0]!.line}:${head.errors[0]!.column} ${head.errors[0]!.code} ${head.errors[0]!.message}`,
    });
  }
  for (const diff of agents) {
    const agent = diff.agent;
    if (diff.status === 'removed') {
      risks.push({
        agent,
        kind: 'agent-removed',
        message: `agent ${agent} removed: its runs cannot move to this version, and load_graph no longer offers it`,
      });
    }
    if (diff.status !== 'changed') continue;
    const before = base.agents.get(agent)!;
    const after = head.agents.get(agent)!;
    for (const node of diff.nodes.removed) {
      risks.push({
        agent,
        kind: 'removed-node',
        node,
        message: `node ${node} removed: runs standing on it (or with it on their path) cannot move to this version; if it was renamed, declare it (renames: {${node}: NEW_ID})`,
      });
    }
    for (const { from, to } of diff.nodes.renamed) {
      risks.push({
        agent,
        kind: 'renamed-node',
        node: to,
        message: `node ${from} renamed to ${to} (declared): runs on it move with sop runs migrate, which applies the rename`,
      });
    }
    risks.push(...mentionedNodes(agent, diff, head));
    if (renamedIn(after, before.transitions.entry) !== after.transitions.entry) {
      risks.push({
        agent,
        kind: 'entry-changed',
        node: after.transitions.entry,
        message: `entry node ${before.transitions.entry} → ${after.transitions.entry}: every run's path starts at the old one, so no run can move to this version`,
      });
    }
    risks.push(...brokenPolicies(agent, expandedOn(base, before), expandedOn(head, after)));
    for (const policy of diff.policies) {
      const weakened = policy.change === 'removed' || policy.details.some((detail) => WEAKER.some((prefix) => detail.startsWith(prefix)));
      if (!weakened) continue;
      risks.push({
        agent,
        kind: 'policy-weakened',
        policy: policy.id,
        message: `policy ${policy.id} ${policy.change === 'removed' ? 'removed' : `weakened: ${policy.details.filter((d) => WEAKER.some((p) => d.startsWith(p))).join('; ')}`}`,
      });
    }
    for (const change of diff.evidence) {
      if (change.before === null || change.after === change.before) continue;
      risks.push({
        agent,
        kind: 'evidence-removed',
        node: change.node,
        message: `${change.node} ${change.after === null ? 'no longer requires evidence' : `requires other evidence`} (was: ${change.before}${change.after === null ? '' : `; now: ${change.after}`})`,
      });
    }
    for (const change of diff.limits) {
      if (change.before === null) continue;
      const maxOf = (text: string | null) => (text === null ? Number.POSITIVE_INFINITY : Number(/max_visits (\d+)/.exec(text)?.[1] ?? 0));
      if (maxOf(change.after) <= maxOf(change.before)) continue;
      risks.push({
        agent,
        kind: 'limit-relaxed',
        node: change.node,
        message: `${change.node}'s visit limit ${change.after === null ? 'removed' : 'raised'} (was: ${change.before}${change.after === null ? '' : `; now: ${change.after}`})`,
      });
    }
  }
  return risks;
}

/** Places shown per node a mention names; the rest are counted. */
const MENTIONS_SHOWN = 3;

/** The nodes removed or renamed that the new version's text still names, with where. */
function mentionedNodes(agent: string, diff: AgentDiff, head: CompiledSide): DiffRisk[] {
  const side = head.mentions.get(agent);
  if (side === undefined) return [];
  const gone = [...diff.nodes.removed.map((id) => [id, null] as const), ...diff.nodes.renamed.map((r) => [r.from, r.to] as const)];
  return gone.flatMap(([id, now]) => {
    const places = side.mentions.filter((m) => m.id === id).map((m) => `${side.file}:${m.span.start.line}:${m.span.start.column}`);
    if (places.length === 0) return [];
    const more = places.length > MENTIONS_SHOWN ? ` and ${places.length - MENTIONS_SHOWN} more` : '';
    return [
      {
        agent,
        kind: 'mentioned-node' as const,
        ...(now === null ? {} : { node: now }),
        message: `node ${id} ${now === null ? 'removed' : `renamed to ${now}`}, but the prose or a prompt still names it (${places.slice(0, MENTIONS_SHOWN).join(', ')}${more}): the agent would look for a step that is not there`,
      },
    ];
  });
}

/** The policy changes that weaken it (`semantic-diff.ts` words them). */
const WEAKER = ['guards no longer', 'also passed by', 'no longer asks', 'no longer requires evidence', 'severity error → warning'];

/** Each policy of the old version that does not hold on the new graph, with its counterexample. */
function brokenPolicies(agent: string, before: CompiledSop, after: CompiledSop): DiffRisk[] {
  const risks: DiffRisk[] = [];
  const graph = buildPolicyGraph(
    new Map(after.nodeIds.map((id) => [id, entryOf(after.transitions.successors, id) ?? []])),
    escalationMovesOfTable(after),
  );
  const nodes = new Set(after.nodeIds);
  const map = (id: string) => renamedIn(after, id);
  for (const policy of before.policies ?? []) {
    const offering = after.nodeIds.filter((id) => (entryOf(after.toolsByNode, id) ?? []).some((tool) => policy.tools.includes(tool)));
    const guards = [...new Set([...policy.guards.map(map).filter((id) => nodes.has(id)), ...offering])];
    const passes = new Set(policy.passes.map(map).filter((id) => nodes.has(id)));
    if (guards.length === 0) continue;
    const violation = findViolation(graph, after.transitions.entry, guards, passes);
    if (violation === null) continue;
    const target = violation.path.at(-1)!;
    const tool = (entryOf(after.toolsByNode, target) ?? []).find((t) => policy.tools.includes(t));
    risks.push(policyRisk(agent, policy, target, tool, violation.path, [...passes]));
  }
  return risks;
}

function policyRisk(
  agent: string,
  policy: CompiledPolicy,
  target: string,
  tool: string | undefined,
  path: readonly string[],
  passes: readonly string[],
): DiffRisk {
  const route = path.join(' → ');
  const required = passes.length === 0 ? 'its required steps (none of them is left)' : passes.join(', ');
  if (policy.confirmation !== null && tool !== undefined) {
    return {
      agent,
      kind: 'tool-before-confirmation',
      node: target,
      policy: policy.id,
      message: `${tool} is offered at ${target} before the confirmation step (${required}) the old version's policy ${policy.id} required: ${route}`,
    };
  }
  return {
    agent,
    kind: 'policy-broken',
    node: target,
    policy: policy.id,
    message: `the old version's policy ${policy.id} no longer holds: ${target}${tool === undefined ? '' : ` (it offers ${tool})`} is reached without passing ${required}: ${route}`,
  };
}
