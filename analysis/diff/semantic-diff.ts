/**
 * `sop diff`: what changed between two versions of a project's SOPs, compared compiled, not as text, per agent: nodes
 * added, removed, renamed (a `renames` entry of the new version), relabelled or reshaped; edges added, removed or
 * relabelled; prompts, tools per node, visit limits, evidence, policies, sub-flows, forks, entry node and hubs; and
 * the golden paths (of the expansion, as runs are served) that appeared or disappeared. The ids of the old version
 * are read through the new version's renames, so a renamed node's edges and prompt compare with themselves. The risks
 * are `diff-risks.ts`'s. Pure: the sides are compiled by the caller (`compiled-side.ts`).
 */
import type { CompiledPolicy, CompiledSop, SopEdge } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { compareCodeUnits } from '../../generator/model/naming.js';
import { DEFAULT_PATH_LIMITS, type GoldenPath, goldenPaths } from '../../generator/paths/golden-paths.js';
import { type CompiledSide, expandedOn, renamedIn } from './compiled-side.js';
import { type DiffRisk, risksOf } from './diff-risks.js';
import { type LineChanges, lineChanges } from './line-changes.js';

export const DIFF_FORMAT = 'sop-diff/1';

export interface NodeChange {
  readonly id: string;
  readonly before: string;
  readonly after: string;
}

export interface EdgeInfo {
  readonly from: string;
  readonly to: string;
  readonly condition: string | null;
}

export interface AgentDiff {
  readonly agent: string;
  /** `unbuilt`: its file on the new side has errors, so there is nothing to compare (not a removal). */
  readonly status: 'added' | 'removed' | 'unbuilt' | 'changed' | 'unchanged';
  readonly base: { readonly version: string; readonly source_hash: string } | null;
  readonly head: { readonly version: string; readonly source_hash: string } | null;
  readonly nodes: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly renamed: readonly { readonly from: string; readonly to: string }[];
    readonly relabelled: readonly NodeChange[];
    readonly reshaped: readonly NodeChange[];
  };
  readonly edges: {
    readonly added: readonly EdgeInfo[];
    readonly removed: readonly EdgeInfo[];
    readonly relabelled: readonly (EdgeInfo & { readonly before: string | null })[];
  };
  /** Each prompt added, removed or changed, with its lines removed and added (`hunks`, in order). */
  readonly prompts: readonly ({
    readonly node: string;
    readonly change: 'added' | 'removed' | 'changed';
  } & LineChanges)[];
  /** The system prompt's prose (its sections, the flowchart's Mermaid block aside), when it changed. */
  readonly prose: LineChanges | null;
  readonly tools: readonly { readonly node: string; readonly added: readonly string[]; readonly removed: readonly string[] }[];
  readonly limits: readonly { readonly node: string; readonly before: string | null; readonly after: string | null }[];
  readonly evidence: readonly { readonly node: string; readonly before: string | null; readonly after: string | null }[];
  readonly policies: readonly {
    readonly id: string;
    readonly change: 'added' | 'removed' | 'changed';
    readonly details: readonly string[];
  }[];
  /** Entry node, hubs, sub-flows, forks, the frontmatter's tools, the version string. */
  readonly structure: readonly string[];
  readonly paths: {
    readonly base: number;
    readonly head: number;
    readonly appeared: readonly string[];
    readonly disappeared: readonly string[];
  };
}

export interface SopDiff {
  readonly format: typeof DIFF_FORMAT;
  readonly base: { readonly label: string; readonly errors: number };
  readonly head: { readonly label: string; readonly errors: number };
  readonly agents: readonly AgentDiff[];
  readonly risks: readonly DiffRisk[];
}

/** The diff of two compiled sides, agents in name order. */
export function diffSides(base: CompiledSide, head: CompiledSide): SopDiff {
  const names = [...new Set([...base.agents.keys(), ...head.agents.keys()])].sort(compareCodeUnits);
  const agents = names.map((agent) => diffAgent(agent, base, head));
  return {
    format: DIFF_FORMAT,
    base: { label: base.label, errors: base.errors.length },
    head: { label: head.label, errors: head.errors.length },
    agents,
    risks: risksOf(base, head, agents),
  };
}

function diffAgent(agent: string, baseSide: CompiledSide, headSide: CompiledSide): AgentDiff {
  const base = baseSide.agents.get(agent);
  const head = headSide.agents.get(agent);
  const empty: Omit<AgentDiff, 'agent' | 'status' | 'base' | 'head'> = {
    nodes: { added: [], removed: [], renamed: [], relabelled: [], reshaped: [] },
    edges: { added: [], removed: [], relabelled: [] },
    prompts: [],
    prose: null,
    tools: [],
    limits: [],
    evidence: [],
    policies: [],
    structure: [],
    paths: { base: 0, head: 0, appeared: [], disappeared: [] },
  };
  const facts = (sop: CompiledSop | undefined) => (sop === undefined ? null : { version: sop.meta.version, source_hash: sop.sourceHash });
  if (base === undefined || head === undefined) {
    const status = base === undefined ? 'added' : headSide.unbuilt.has(agent) ? 'unbuilt' : 'removed';
    return { agent, status, base: facts(base), head: facts(head), ...empty };
  }
  const baseExpanded = expandedOn(baseSide, base);
  const headExpanded = expandedOn(headSide, head);
  if (base.sourceHash === head.sourceHash && baseExpanded.sourceHash === headExpanded.sourceHash) {
    return { agent, status: 'unchanged', base: facts(base), head: facts(head), ...empty };
  }
  const map = (id: string) => renamedIn(head, id);
  const headIds = new Set(head.nodeIds);
  const baseMapped = new Set(base.nodeIds.map(map));
  const renamed = base.nodeIds
    .filter((id) => map(id) !== id && headIds.has(map(id)) && !headIds.has(id))
    .map((id) => ({ from: id, to: map(id) }));
  const kept = base.nodeIds.filter((id) => headIds.has(map(id)));
  const node = (sop: CompiledSop, id: string) => entryOf(sop.nodes, id);
  const changedBy = (read: (sop: CompiledSop, id: string) => string | undefined): NodeChange[] =>
    kept.flatMap((id) => {
      const before = read(base, id) ?? '';
      const after = read(head, map(id)) ?? '';
      return before === after ? [] : [{ id: map(id), before, after }];
    });

  return {
    agent,
    status: 'changed',
    base: facts(base),
    head: facts(head),
    nodes: {
      added: head.nodeIds.filter((id) => !baseMapped.has(id)),
      removed: base.nodeIds.filter((id) => !headIds.has(map(id))),
      renamed,
      relabelled: changedBy((sop, id) => node(sop, id)?.description),
      reshaped: changedBy((sop, id) => node(sop, id)?.type),
    },
    edges: diffEdges(base, head, map),
    prompts: kept.flatMap((id) => promptChange(entryOf(base.prompts, id)?.prompt, entryOf(head.prompts, map(id))?.prompt, map(id))),
    prose: proseChange(base, head),
    tools: kept.flatMap((id) => {
      const before = entryOf(base.toolsByNode, id) ?? [];
      const after = entryOf(head.toolsByNode, map(id)) ?? [];
      const added = after.filter((t) => !before.includes(t));
      const removed = before.filter((t) => !after.includes(t));
      return added.length + removed.length === 0 ? [] : [{ node: map(id), added, removed }];
    }),
    limits: keyedChanges(base, head, map, (sop, id) => {
      const limit = entryOf(sop.transitions.limits, id);
      return limit === undefined ? null : `max_visits ${limit.max}, then ${limit.escalation}`;
    }),
    evidence: keyedChanges(base, head, map, (sop, id) => {
      const required = entryOf(sop.evidence, id);
      return required === undefined ? null : `${required.tools.join(' or ')}${required.about === null ? '' : ` about ${required.about}`}`;
    }),
    policies: diffPolicies(base.policies ?? [], head.policies ?? [], map),
    structure: structureChanges(base, head, baseExpanded, headExpanded, map),
    paths: diffPaths(baseExpanded, headExpanded),
  };
}

function edgesOf(sop: CompiledSop): EdgeInfo[] {
  return sop.nodeIds.flatMap((from) =>
    (entryOf(sop.edges, from) ?? []).map((edge: SopEdge) => ({ from, to: edge.to, condition: edge.condition })),
  );
}

function diffEdges(base: CompiledSop, head: CompiledSop, map: (id: string) => string): AgentDiff['edges'] {
  const before = edgesOf(base).map((e) => ({ from: map(e.from), to: map(e.to), condition: e.condition }));
  const after = edgesOf(head);
  const key = (e: EdgeInfo) => `${e.from}\u0000${e.to}\u0000${e.condition ?? ''}`;
  const pair = (e: EdgeInfo) => `${e.from}\u0000${e.to}`;
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  const gone = before.filter((e) => !afterKeys.has(key(e)));
  const come = after.filter((e) => !beforeKeys.has(key(e)));
  const relabelled = come.flatMap((e) => {
    const was = gone.find((g) => pair(g) === pair(e));
    return was === undefined ? [] : [{ ...e, before: was.condition }];
  });
  const relabelledPairs = new Set(relabelled.map(pair));
  return {
    added: come.filter((e) => !relabelledPairs.has(pair(e))),
    removed: gone.filter((e) => !relabelledPairs.has(pair(e))),
    relabelled,
  };
}

function promptChange(before: string | undefined, after: string | undefined, node: string): AgentDiff['prompts'] {
  if (before === after) return [];
  return [{ node, change: before === undefined ? 'added' : after === undefined ? 'removed' : 'changed', ...lineChanges(before, after) }];
}

/** The system prompt's changes, its Mermaid block left out (the flowchart's changes are the edges' and nodes'). */
function proseChange(base: CompiledSop, head: CompiledSop): LineChanges | null {
  const prose = (sop: CompiledSop) =>
    sop.flowchart === '' ? sop.systemPrompt : sop.systemPrompt.replace(sop.flowchart, '(the flowchart)');
  const before = prose(base);
  const after = prose(head);
  return before === after ? null : lineChanges(before, after);
}

function keyedChanges(
  base: CompiledSop,
  head: CompiledSop,
  map: (id: string) => string,
  read: (sop: CompiledSop, id: string) => string | null,
): { node: string; before: string | null; after: string | null }[] {
  const ids = [...new Set([...base.nodeIds.map(map), ...head.nodeIds])];
  const back = new Map(base.nodeIds.map((id) => [map(id), id]));
  return ids.flatMap((id) => {
    const old = back.get(id);
    const before = old === undefined ? null : read(base, old);
    const after = head.nodeIds.includes(id) ? read(head, id) : null;
    return before === after ? [] : [{ node: id, before, after }];
  });
}

function diffPolicies(
  before: readonly CompiledPolicy[],
  after: readonly CompiledPolicy[],
  map: (id: string) => string,
): AgentDiff['policies'] {
  const out: { id: string; change: 'added' | 'removed' | 'changed'; details: string[] }[] = [];
  for (const old of before) {
    const now = after.find((p) => p.id === old.id);
    if (now === undefined) {
      out.push({ id: old.id, change: 'removed', details: [] });
      continue;
    }
    const details: string[] = [];
    const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '));
    const guardsBefore = old.guards.map(map);
    const passesBefore = old.passes.map(map);
    const fewer = guardsBefore.filter((id) => !now.guards.includes(id));
    const more = now.guards.filter((id) => !guardsBefore.includes(id));
    if (fewer.length > 0) details.push(`guards no longer ${list(fewer)}`);
    if (more.length > 0) details.push(`also guards ${list(more)}`);
    const passesMore = now.passes.filter((id) => !passesBefore.includes(id));
    const passesFewer = passesBefore.filter((id) => !now.passes.includes(id));
    if (passesMore.length > 0) details.push(`also passed by ${list(passesMore)}`);
    if (passesFewer.length > 0) details.push(`no longer passed by ${list(passesFewer)}`);
    if (old.tools.join() !== now.tools.join()) details.push(`tools ${list(old.tools)} → ${list(now.tools)}`);
    if (old.confirmation !== now.confirmation) {
      details.push(
        now.confirmation === null
          ? 'no longer asks for a confirmation'
          : old.confirmation === null
            ? 'asks for a confirmation'
            : 'confirmation pattern changed',
      );
    }
    if (old.severity !== now.severity) details.push(`severity ${old.severity} → ${now.severity}`);
    if ((old.evidence === true) !== (now.evidence === true))
      details.push(now.evidence === true ? 'requires evidence' : 'no longer requires evidence');
    if (details.length > 0) out.push({ id: old.id, change: 'changed', details });
  }
  for (const now of after) if (!before.some((p) => p.id === now.id)) out.push({ id: now.id, change: 'added', details: [] });
  return out;
}

function structureChanges(
  base: CompiledSop,
  head: CompiledSop,
  baseExpanded: CompiledSop,
  headExpanded: CompiledSop,
  map: (id: string) => string,
): string[] {
  const out: string[] = [];
  if (base.meta.version !== head.meta.version) out.push(`version ${base.meta.version} → ${head.meta.version}`);
  if (map(base.transitions.entry) !== head.transitions.entry) out.push(`entry node ${base.transitions.entry} → ${head.transitions.entry}`);
  const hubs = (ids: readonly string[]) => ids.join(', ') || 'none';
  if (base.transitions.hubs.map(map).join() !== head.transitions.hubs.join())
    out.push(`hubs ${hubs(base.transitions.hubs)} → ${hubs(head.transitions.hubs)}`);
  const toolsAdded = head.tools.filter((t) => !base.tools.includes(t));
  const toolsRemoved = base.tools.filter((t) => !head.tools.includes(t));
  if (toolsAdded.length > 0) out.push(`tools added: ${toolsAdded.join(', ')}`);
  if (toolsRemoved.length > 0) out.push(`tools removed: ${toolsRemoved.join(', ')}`);
  const calls = (sop: CompiledSop) => new Map(Object.entries(sop.subflows ?? {}).map(([node, call]) => [node, call?.agent ?? '']));
  const callsBefore = calls(base);
  const callsAfter = calls(head);
  for (const [node, agent] of callsAfter) {
    const old = [...callsBefore].find(([id]) => map(id) === node)?.[1];
    if (old === undefined) out.push(`sub-flow ${node} calls ${agent} (new)`);
    else if (old !== agent) out.push(`sub-flow ${node} calls ${agent} instead of ${old}`);
  }
  for (const [node, agent] of callsBefore) if (!callsAfter.has(map(node))) out.push(`sub-flow ${node} (calling ${agent}) removed`);
  const forks = (sop: CompiledSop, rename: (id: string) => string) =>
    new Map(
      Object.entries(sop.transitions.forks ?? {}).map(([fork, rule]) => [
        rename(fork),
        `${rename(rule?.join ?? '')} (${rule?.strategy ?? 'all'})`,
      ]),
    );
  const forksBefore = forks(base, map);
  const forksAfter = forks(head, (id) => id);
  for (const [fork, join] of forksAfter) {
    const old = forksBefore.get(fork);
    if (old !== join)
      out.push(old === undefined ? `fork ${fork} joins at ${join} (new)` : `fork ${fork} joins at ${join} instead of ${old}`);
  }
  for (const [fork] of forksBefore) if (!forksAfter.has(fork)) out.push(`fork ${fork} removed`);
  if (base.sourceHash === head.sourceHash && baseExpanded.sourceHash !== headExpanded.sourceHash) {
    const changed = Object.entries(headExpanded.calls ?? {})
      .filter(([node, call]) => entryOf(baseExpanded.calls, node)?.sourceHash !== call?.sourceHash)
      .map(([node, call]) => `${node} (${call?.agent})`);
    out.push(`only the SOPs it calls changed: ${changed.join(', ')}`);
  }
  return out;
}

function pathKey(path: GoldenPath, map: (id: string) => string = (id) => id): string {
  const nodes = path.nodes.map(map);
  return `${nodes.join(' → ')}${path.failed === undefined ? '' : ` (failed at ${path.failed.map((i) => nodes[i]).join(', ')})`}`;
}

function diffPaths(base: CompiledSop, head: CompiledSop): AgentDiff['paths'] {
  // The expansion's renames hold the called SOPs' too, qualified.
  const before = goldenPaths(base, DEFAULT_PATH_LIMITS).paths.map((path) => pathKey(path, (id) => renamedIn(head, id)));
  const after = goldenPaths(head, DEFAULT_PATH_LIMITS).paths.map((path) => pathKey(path));
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  return {
    base: before.length,
    head: after.length,
    appeared: after.filter((key) => !beforeSet.has(key)),
    disappeared: before.filter((key) => !afterSet.has(key)),
  };
}
