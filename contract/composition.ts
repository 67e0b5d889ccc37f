/**
 * Sub-flows, expanded: one `CompiledSop` in which every sub-flow node leads into a copy of the SOP it calls, its ids
 * qualified by the calling node (`AUTHENTICATE.VERIFY`: an author's id never holds a `.`, so a qualified id is never
 * anyone's own), and each terminal of the called SOP leads on along the edge of the calling node it maps to. The
 * compiler proves policies and lists golden paths over it; the runtime serves a run on it, so a run's path is the
 * frames of its call stack one after the other (`stackOf` reads them back), and everything that is about a node at a
 * position in the path (visit counts, evidence, confirmation passes, fork records) works across frames unchanged.
 *
 * In the expansion:
 *   - the sub-flow node's one successor is the called SOP's entry node (the runtime enters it at once);
 *   - the called SOP's entry node and hubs are hubs: legal while the run is inside that call, as they are in the SOP;
 *   - a terminal of the called SOP maps to one edge of the sub-flow node (`exitsOf`), its successor in the expansion;
 *   - the called SOP's visit limits, forks, evidence, edges decided by data and policies come along, qualified; the caller's policies are
 *     resolved again over the whole expansion (`scope`: its tools and terminals, and `CALL.*` patterns, reach into it);
 *   - the version (`sourceHash`) is the caller's source hash and each call's version together (`hashComposite`).
 * A SOP without sub-flows is its own expansion (the same object). A call of an agent that is missing, a recursive
 * call, a terminal that maps to no edge, or an expansion over `MAX_EXPANDED_NODES` is an error value, never a throw.
 *
 * Node-only (the version hash uses node:crypto): the compiler and the runtime import it by path.
 */
import type { CalledSop, CompiledPolicy, CompiledSop, DataCondition, SelectorSpec, SopEdge, SopNode, SubflowCall } from './compiled-sop.js';
import { QUALIFIER, qualify } from './frames.js';
import { exitFor } from './machine-calls.js';
import { entryOf, nameTable } from './name-table.js';
import { patternTest } from './node-patterns.js';
import { hashComposite } from './source-hash.js';
import type { ForkRule, TransitionTable, VisitLimit } from './transitions.js';

/** Where a node id names its frames: `frames.ts` (browser-safe), re-exported for the server's modules. */
export { QUALIFIER, qualify } from './frames.js';

/** An expansion holds at most this many nodes: sub-flows called in sub-flows multiply, and a run's graph must stay small. */
export const MAX_EXPANDED_NODES = 5000;

export type Composition = { readonly ok: true; readonly sop: CompiledSop } | { readonly ok: false; readonly error: string };

/** Where a run at `node` (an id of an expansion) is: one frame per SOP on the stack, outermost first. */
export interface StackFrame {
  readonly agent: string;
  /** The node of that SOP's own flowchart: the sub-flow node it waits at, or the current node for the last frame. */
  readonly node: string;
}

/** The frames of a run at `node` of the expanded `sop` (one frame when it is not inside a sub-flow). */
export function stackOf(sop: Pick<CompiledSop, 'meta' | 'calls'>, node: string): StackFrame[] {
  const parts = node.split(QUALIFIER);
  const frames: StackFrame[] = [{ agent: sop.meta.agent, node: parts[0]! }];
  for (let i = 1; i < parts.length; i++) {
    const call = entryOf(sop.calls, parts.slice(0, i).join(QUALIFIER));
    frames.push({ agent: call?.agent ?? '?', node: parts[i]! });
  }
  return frames;
}

// Browser-safe readers (the step function, the runs page) import it from `frames.ts`; kept here for its callers.
export { passesOnPath } from './frames.js';

/** The sub-flow calls of a SOP, in flowchart order. */
export function subflowsOf(sop: Pick<CompiledSop, 'nodeIds' | 'subflows'>): [string, SubflowCall][] {
  return sop.nodeIds.flatMap((id): [string, SubflowCall][] => {
    const call = entryOf(sop.subflows, id);
    return call === undefined ? [] : [[id, call]];
  });
}

/** How the terminals of a called SOP map to the edges of the node that calls it. */
export interface ExitMapping {
  /** Each terminal that maps, and its edge. */
  readonly exits: ReadonlyMap<string, SopEdge>;
  /** Terminals no declared exit, label or lone unlabelled edge maps. */
  readonly unmapped: readonly string[];
  /** Declared exits whose key is not a terminal of the called SOP. */
  readonly notTerminals: readonly string[];
  /** Edges of the calling node that no terminal maps to. */
  readonly unused: readonly SopEdge[];
}

/**
 * The exits of sub-flow node `node` of `caller` into the called SOP `callee`: a terminal takes the edge its declared
 * exit names, else the first edge labelled with its id or its label (compared trimmed, ignoring case), else the
 * node's only edge when that one has no label.
 */
export function exitsOf(
  caller: Pick<CompiledSop, 'edges' | 'subflows'>,
  node: string,
  callee: Pick<CompiledSop, 'terminalNodes' | 'nodes'>,
): ExitMapping {
  const edges = entryOf(caller.edges, node) ?? [];
  const declared = entryOf(caller.subflows, node)?.exits ?? {};
  const exits = new Map<string, SopEdge>();
  const unmapped: string[] = [];
  for (const terminal of callee.terminalNodes) {
    const edge = exitFor(edges, declared, terminal, entryOf(callee.nodes, terminal)?.description ?? null);
    if (edge === undefined) unmapped.push(terminal);
    else exits.set(terminal, edge);
  }
  const used = new Set(exits.values());
  return {
    exits,
    unmapped,
    notTerminals: Object.keys(declared).filter((key) => !callee.terminalNodes.includes(key)),
    unused: edges.filter((edge) => !used.has(edge)),
  };
}

/** `root` expanded with every SOP it calls (found with `lookup`), or why it cannot be. */
export function composeSop(root: CompiledSop, lookup: (agent: string) => CompiledSop | undefined): Composition {
  if (root.subflows === undefined) return { ok: true, sop: root };
  return expand(root, lookup, [root.meta.agent]);
}

function expand(sop: CompiledSop, lookup: (agent: string) => CompiledSop | undefined, chain: readonly string[]): Composition {
  const calls = subflowsOf(sop);
  if (calls.length === 0) return { ok: true, sop };
  const expanded = new Map<string, { readonly callee: CompiledSop; readonly sub: CompiledSop; readonly exits: ExitMapping }>();
  for (const [node, call] of calls) {
    const where = `${sop.meta.agent}: sub-flow node ${node} calls ${call.agent}`;
    if (chain.includes(call.agent))
      return {
        ok: false,
        error: `${where}, which is already on the call stack (${[...chain, call.agent].join(' → ')}): a SOP may not call itself`,
      };
    const callee = lookup(call.agent);
    if (callee === undefined) return { ok: false, error: `${where}, which is not compiled` };
    const sub = expand(callee, lookup, [...chain, call.agent]);
    if (!sub.ok) return sub;
    const exits = exitsOf(sop, node, sub.sop);
    if (exits.unmapped.length > 0)
      return { ok: false, error: `${where}, whose terminal node(s) ${exits.unmapped.join(', ')} map to no edge of ${node}` };
    expanded.set(node, { callee, sub: sub.sop, exits });
  }
  const size = sop.nodeIds.length + [...expanded.values()].reduce((sum, { sub }) => sum + sub.nodeIds.length, 0);
  if (size > MAX_EXPANDED_NODES) {
    return {
      ok: false,
      error: `${sop.meta.agent}: expanded with its sub-flows it has ${size} nodes; at most ${MAX_EXPANDED_NODES} are allowed`,
    };
  }

  const nodeIds: string[] = [];
  const nodes: [string, SopNode][] = [];
  const edges: [string, readonly SopEdge[]][] = [];
  const prompts: [string, NonNullable<CompiledSop['prompts'][string]>][] = [];
  const toolsByNode: [string, readonly string[]][] = [];
  const evidence: [string, NonNullable<NonNullable<CompiledSop['evidence']>[string]>][] = [];
  const conditions: [string, { readonly [target: string]: DataCondition }][] = [];
  const limits: [string, VisitLimit][] = [];
  const returns: [string, string][] = [];
  const forks: [string, ForkRule][] = [];
  const renames: [string, string][] = Object.entries(sop.renames ?? {});
  const called: [string, CalledSop][] = [];
  const hubs = [...sop.transitions.hubs];
  const decisionNodes = [...sop.decisionNodes];
  const policies: CompiledPolicy[] = [];
  const tools = [...sop.tools];
  const servers = [...sop.meta.mcpServers];

  const own = (id: string) => {
    const node = entryOf(sop.nodes, id);
    if (node !== undefined) nodes.push([id, node]);
    const prompt = entryOf(sop.prompts, id);
    if (prompt !== undefined) prompts.push([id, prompt]);
    toolsByNode.push([id, entryOf(sop.toolsByNode, id) ?? []]);
    const required = entryOf(sop.evidence, id);
    if (required !== undefined) evidence.push([id, required]);
    const decided = entryOf(sop.conditions, id);
    if (decided !== undefined) conditions.push([id, decided]);
    const limit = entryOf(sop.transitions.limits, id);
    if (limit !== undefined) limits.push([id, limit]);
    const fork = entryOf(sop.transitions.forks, id);
    if (fork !== undefined) forks.push([id, fork]);
  };

  for (const id of sop.nodeIds) {
    nodeIds.push(id);
    own(id);
    const call = expanded.get(id);
    if (call === undefined) {
      edges.push([id, entryOf(sop.edges, id) ?? []]);
      continue;
    }
    const { callee, sub, exits } = call;
    const q = (node: string) => qualify(id, node);
    edges.push([id, [{ to: q(sub.transitions.entry), condition: null, style: 'solid' }]]);
    called.push([
      id,
      {
        agent: callee.meta.agent,
        version: callee.meta.version,
        sourceHash: sub.sourceHash,
        sourceFile: callee.sourceFile,
        entry: sub.transitions.entry,
        flowchart: callee.flowchart,
      },
    ]);
    for (const [inner, info] of Object.entries(sub.calls ?? {})) called.push([q(inner), info]);
    hubs.push(q(sub.transitions.entry), ...sub.transitions.hubs.map(q));
    decisionNodes.push(...sub.decisionNodes.map(q));
    for (const tool of sub.tools) if (!tools.includes(tool)) tools.push(tool);
    for (const server of sub.meta.mcpServers) if (!servers.some((s) => s.name === server.name)) servers.push(server);
    for (const [old, now] of Object.entries(sub.renames ?? {})) renames.push([q(old), q(now)]);
    for (const terminal of sub.terminalNodes) returns.push([q(terminal), id]);
    for (const [terminal, inner] of Object.entries(sub.transitions.returns ?? {}))
      if (inner !== undefined) returns.push([q(terminal), q(inner)]);
    for (const node of sub.nodeIds) {
      const qid = q(node);
      nodeIds.push(qid);
      const source = entryOf(sub.nodes, node);
      if (source !== undefined) nodes.push([qid, { id: qid, type: source.type, description: source.description }]);
      const exit = exits.exits.get(node);
      edges.push([
        qid,
        exit !== undefined && sub.terminalNodes.includes(node)
          ? [exit]
          : (entryOf(sub.edges, node) ?? []).map((edge) => ({ ...edge, to: q(edge.to) })),
      ]);
      const prompt = entryOf(sub.prompts, node);
      if (prompt !== undefined) prompts.push([qid, prompt]);
      toolsByNode.push([qid, entryOf(sub.toolsByNode, node) ?? []]);
      const required = entryOf(sub.evidence, node);
      if (required !== undefined) evidence.push([qid, required]);
      const decided = entryOf(sub.conditions, node);
      if (decided !== undefined)
        conditions.push([qid, nameTable(Object.keys(decided).map((target) => [q(target), entryOf(decided, target)!]))]);
      const limit = entryOf(sub.transitions.limits, node);
      if (limit !== undefined) limits.push([qid, { max: limit.max, escalation: q(limit.escalation) }]);
      const fork = entryOf(sub.transitions.forks, node);
      if (fork !== undefined) {
        forks.push([
          qid,
          {
            branches: fork.branches.map(q),
            join: q(fork.join),
            strategy: fork.strategy,
            passed: fork.passed.map(q),
            failed: fork.failed.map(q),
          },
        ]);
      }
    }
    for (const policy of sub.policies ?? []) {
      const { scope: _resolved, ...rest } = policy;
      policies.push({ ...rest, id: q(policy.id), guards: policy.guards.map(q), passes: policy.passes.map(q) });
    }
  }

  const successors = edges.map(([id, out]): [string, string[]] => [id, [...new Set(out.map((edge) => edge.to))]]);
  const terminalNodes = sop.terminalNodes.filter((id) => !expanded.has(id));
  const transitions: TransitionTable = {
    entry: sop.transitions.entry,
    hubs: [...new Set(hubs)],
    successors: nameTable(successors),
    ...(limits.length === 0 ? {} : { limits: nameTable(limits) }),
    ...(forks.length === 0 ? {} : { forks: nameTable(forks) }),
    returns: nameTable(returns),
  };
  const toolTable = new Map(toolsByNode);
  const scoped = (sop.policies ?? []).map((policy) => rescope(policy, sop.nodeIds, nodeIds, toolTable, terminalNodes));
  const allPolicies = [...scoped, ...policies];
  const version = hashComposite([
    sop.sourceHash,
    ...called.filter(([id]) => expanded.has(id)).map(([id, info]) => `${id} ${info.sourceHash}`),
  ]);
  const { subflows: _expanded, policies: _own, evidence: _required, conditions: _decided, renames: _renamed, ...rest } = sop;
  return {
    ok: true,
    sop: {
      ...rest,
      meta: { ...sop.meta, mcpServers: servers },
      sourceHash: version,
      transitions,
      nodeIds,
      nodes: nameTable(nodes),
      edges: nameTable(edges),
      prompts: nameTable(prompts),
      decisionNodes,
      terminalNodes,
      tools,
      toolsByNode: nameTable(toolsByNode),
      ...(allPolicies.length === 0 ? {} : { policies: allPolicies }),
      ...(evidence.length === 0 ? {} : { evidence: nameTable(evidence) }),
      ...(conditions.length === 0 ? {} : { conditions: nameTable(conditions) }),
      ...(renames.length === 0 ? {} : { renames: nameTable(renames) }),
      calls: nameTable(called),
    },
  };
}

/**
 * A policy of the calling SOP resolved again over the expansion: a pattern without a `.` names the SOP's own nodes,
 * one with a `.` (`AUTHENTICATE.*`) names nodes of the called SOPs; `tools`, `terminals` and a selector that names
 * neither nodes, tools nor terminals (every node) take the whole expansion.
 */
function rescope(
  policy: CompiledPolicy,
  ownIds: readonly string[],
  allIds: readonly string[],
  toolsByNode: ReadonlyMap<string, readonly string[]>,
  terminals: readonly string[],
): CompiledPolicy {
  const { scope, ...rest } = policy;
  if (scope === undefined) return rest;
  const resolve = (spec: SelectorSpec): string[] => {
    const picked = new Set<string>();
    const matching = (pattern: string) => (pattern.includes(QUALIFIER) ? allIds : ownIds).filter(patternTest(pattern));
    if (spec.nodes.length === 0 && spec.tools.length === 0 && !spec.terminals) for (const id of allIds) picked.add(id);
    for (const pattern of spec.nodes) for (const id of matching(pattern)) picked.add(id);
    if (spec.terminals) for (const id of terminals) picked.add(id);
    for (const id of allIds) if ((toolsByNode.get(id) ?? []).some((tool) => spec.tools.includes(tool))) picked.add(id);
    const excluded = new Set(spec.except.flatMap(matching));
    return allIds.filter((id) => picked.has(id) && !excluded.has(id));
  };
  return { ...rest, guards: resolve(scope.everyPathTo), passes: resolve(scope.passes) };
}
