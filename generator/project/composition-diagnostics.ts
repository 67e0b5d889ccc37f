/**
 * The checks a SOP's sub-flows need from the other SOPs of the project, each reported at the calling SOP's own text:
 *   - SOP072: the called agent is a SOP of the project (with the closest name when it is not);
 *   - SOP073: no SOP calls itself, directly or through others (the cycle is named);
 *   - SOP076: the called SOP compiles, its entry node has no visit limit (entering the call enters it at once), and
 *     the expansion stays within `MAX_EXPANDED_NODES`;
 *   - SOP074: every terminal node of the called SOP maps to an edge of the calling node, and every declared exit
 *     names one of its terminals; SOP075: an edge no terminal leads to;
 *   - SOP055 (and SOP054): the SOP's policies, proved over its expansion (`contract/composition.ts`), where the called
 *     SOPs' nodes are guarded and passed too (`CALL.*` patterns, tools, terminals): the proof the per-file check
 *     leaves to this stage for a SOP with sub-flows;
 *   - SOP069: its `when` conditions, proved over the expansion likewise (a called SOP's nodes may read the tool).
 * It runs wherever the project is checked (`sop build`, the language server, the preview), after each file compiled
 * alone; a file with errors of its own is left out (its diagnostics say enough), and so is one whose callee fails.
 */
import type { CompiledSop, SopEdge } from '../../contract/compiled-sop.js';
import { composeSop, exitsOf, MAX_EXPANDED_NODES, QUALIFIER } from '../../contract/composition.js';
import { entryOf } from '../../contract/name-table.js';
import { patternTest } from '../../contract/node-patterns.js';
import { unreadDiagnostic, unreadProof } from '../check/check-conditions.js';
import { buildPolicyGraph, findViolation, type PolicyGraph, violationMessage } from '../check/check-policies.js';
import type { CompiledFile } from '../compile-sop.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt, type Diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { ModelPrompt, ModelSubflow, SopModel } from '../model/sop-model.js';
import { escalationMovesOfTable } from '../model/visit-limits.js';
import { type CompiledAgent, compiledAgentOf } from './compiled-agent.js';

type Call = ModelPrompt & { readonly subflow: ModelSubflow };

/** Each file's agent as compiled in memory, kept by the caller across checks (one edit recompiles one file). */
export type AgentCache = WeakMap<CompiledFile, CompiledAgent>;

export function compositionDiagnostics(compiled: readonly CompiledFile[], cache: AgentCache = new WeakMap()): Diagnostic[] {
  const callers = compiled.filter((c) => c.model !== null && callsOf(c.model).length > 0);
  if (callers.length === 0) return [];
  const byAgent = new Map<string, CompiledFile>();
  for (const c of compiled) if (c.model !== null && !byAgent.has(c.model.agent)) byAgent.set(c.model.agent, c);
  const agentOf = (c: CompiledFile): CompiledSop | undefined => {
    let agent = cache.get(c);
    if (agent === undefined) {
      agent = compiledAgentOf(c);
      cache.set(c, agent);
    }
    return agent.ok ? agent.sop : undefined;
  };
  const calls = new Map<string, readonly string[]>(
    [...byAgent].map(([agent, c]) => [agent, callsOf(c.model!).map((call) => call.subflow.agent)]),
  );
  const names = suggester([...byAgent.keys()]);
  const unreadable = compiled.filter((c) => c.model === null).length;
  const out: Diagnostic[] = [];
  for (const caller of callers) {
    const model = caller.model!;
    if (hasErrors(caller.diagnostics)) continue;
    let expandable = true;
    for (const call of callsOf(model)) {
      const problem = callProblem(model, call, byAgent, calls, names, agentOf, unreadable);
      if (problem === null) continue;
      out.push(problem);
      if (problem.severity === 'error') expandable = false;
    }
    if (!expandable) continue;
    const root = agentOf(caller);
    if (root === undefined) continue;
    const lookup = (agent: string) => {
      const file = byAgent.get(agent);
      return file === undefined ? undefined : agentOf(file);
    };
    const exits = exitDiagnostics(model, root, lookup);
    out.push(...exits);
    if (hasErrors(exits)) continue;
    const composed = composeSop(root, lookup);
    if (!composed.ok) {
      out.push(diagnosticAt(model.file, 'SOP076', callsOf(model)[0]!.subflow.span, `The sub-flows cannot be expanded: ${composed.error}.`));
      continue;
    }
    out.push(...policyDiagnostics(model, composed.sop));
    out.push(...conditionDiagnostics(model, composed.sop));
  }
  return out;
}

function callsOf(model: SopModel): Call[] {
  const nodes = new Set(model.nodes.map((n) => n.id));
  return model.prompts.filter((p): p is Call => p.subflow !== null && nodes.has(p.nodeId));
}

/** Why one call cannot be expanded (SOP072, SOP073, SOP076), or null. */
function callProblem(
  model: SopModel,
  call: Call,
  byAgent: ReadonlyMap<string, CompiledFile>,
  calls: ReadonlyMap<string, readonly string[]>,
  names: ReturnType<typeof suggester>,
  agentOf: (c: CompiledFile) => CompiledSop | undefined,
  unreadable: number,
): Diagnostic | null {
  const { agent, span } = call.subflow;
  const where = `${quoted(call.nodeId)} calls ${quoted(agent)}`;
  const callee = byAgent.get(agent);
  if (callee === undefined) {
    const unread =
      unreadable === 0
        ? ''
        : ` (${unreadable} SOP${unreadable === 1 ? '' : 's'} of the project did not compile far enough to tell whose agent ${unreadable === 1 ? 'it is' : 'they are'})`;
    return diagnosticAt(
      model.file,
      'SOP072',
      span,
      `${where}, which no SOP of the project declares${unread}.`,
      names.suggestion(agent, 'agent'),
    );
  }
  const cycle = cycleThrough(model.agent, agent, calls);
  if (cycle !== null) {
    return diagnosticAt(model.file, 'SOP073', span, `${where}, which calls it back: ${[model.agent, ...cycle].join(' → ')}.`);
  }
  const sop = agentOf(callee);
  if (sop === undefined) {
    return diagnosticAt(
      model.file,
      'SOP076',
      span,
      `${where}, whose SOP (${callee.file}) does not compile: fix its errors first.`,
      `Fix the errors reported in ${callee.file}; this call is checked again once it compiles.`,
    );
  }
  const entryLimit = entryOf(sop.transitions.limits, sop.transitions.entry);
  if (entryLimit !== undefined) {
    return diagnosticAt(
      model.file,
      'SOP076',
      span,
      `${where}, whose entry node ${quoted(sop.transitions.entry)} has \`max_visits: ${entryLimit.max}\`: a call enters it at once, so it cannot be limited.`,
    );
  }
  return null;
}

/** The calls from `callee` that lead back to `caller` (the agents after `caller` on the cycle), or null. */
function cycleThrough(caller: string, callee: string, calls: ReadonlyMap<string, readonly string[]>): string[] | null {
  const seen = new Set<string>();
  const walk = (agent: string, trail: readonly string[]): string[] | null => {
    if (agent === caller) return [...trail, agent];
    if (seen.has(agent)) return null;
    seen.add(agent);
    for (const next of calls.get(agent) ?? []) {
      const found = walk(next, [...trail, agent]);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(callee, []);
}

/** SOP074 and SOP075 for each call: how the called SOP's terminals map to the calling node's edges. */
function exitDiagnostics(model: SopModel, root: CompiledSop, lookup: (agent: string) => CompiledSop | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const call of callsOf(model)) {
    const callee = lookup(call.subflow.agent);
    if (callee === undefined) continue;
    const expanded = composeSop(callee, lookup);
    if (!expanded.ok) continue; // the callee reports its own sub-flows
    const mapping = exitsOf(root, call.nodeId, expanded.sop);
    const edges = (entryOf(root.edges, call.nodeId) ?? []).map(edgeText);
    if (mapping.unmapped.length > 0) {
      out.push(
        diagnosticAt(
          model.file,
          'SOP074',
          call.subflow.span,
          `${quoted(call.nodeId)} calls ${quoted(call.subflow.agent)}, whose terminal node${mapping.unmapped.length === 1 ? '' : 's'} ` +
            `${mapping.unmapped.map(quoted).join(', ')} map${mapping.unmapped.length === 1 ? 's' : ''} to none of its edges (${edges.length === 0 ? 'it has none' : edges.join(', ')}).`,
          `Label an edge of ${quoted(call.nodeId)} with the terminal's id or label, or declare it: \`exits: {${mapping.unmapped[0]}: NEXT_NODE}\`.`,
        ),
      );
    }
    const terminals = suggester(expanded.sop.terminalNodes);
    for (const key of mapping.notTerminals) {
      const exit = call.subflow.exits.find((e) => e.terminal === key);
      out.push(
        diagnosticAt(
          model.file,
          'SOP074',
          exit?.span ?? call.subflow.span,
          `${quoted(key)} is not a terminal node of ${quoted(call.subflow.agent)} (its terminals: ${expanded.sop.terminalNodes.join(', ')}).`,
          terminals.suggestion(key, 'terminal node'),
        ),
      );
    }
    for (const edge of mapping.unused) {
      const written = model.edges.find((e) => e.from === call.nodeId && e.to === edge.to && e.condition === edge.condition);
      out.push(
        diagnosticAt(
          model.file,
          'SOP075',
          written?.span ?? call.subflow.span,
          `No terminal node of ${quoted(call.subflow.agent)} leads along ${edgeText(edge)} of ${quoted(call.nodeId)} (its terminals: ${expanded.sop.terminalNodes.join(', ')}).`,
        ),
      );
    }
  }
  const size = composeSop(root, lookup);
  if (!size.ok && size.error.includes(`at most ${MAX_EXPANDED_NODES}`)) {
    out.push(diagnosticAt(model.file, 'SOP076', callsOf(model)[0]!.subflow.span, `The sub-flows cannot be expanded: ${size.error}.`));
  }
  return out;
}

function edgeText(edge: SopEdge): string {
  return edge.condition === null ? `the edge to ${edge.to}` : `the edge |${edge.condition}| to ${edge.to}`;
}

/** The graph of the expansion that policies and conditions are proved on: its edges and escalation moves. */
function expandedGraph(composed: CompiledSop): PolicyGraph {
  return buildPolicyGraph(
    new Map(composed.nodeIds.map((id) => [id, entryOf(composed.transitions.successors, id) ?? []])),
    escalationMovesOfTable(composed),
  );
}

/** The SOP's own `when` conditions, each over a tool some path of the expansion to its node never reads (SOP069). */
function conditionDiagnostics(model: SopModel, composed: CompiledSop): Diagnostic[] {
  const conditions = model.prompts.flatMap((prompt) => prompt.when.map((entry, index) => ({ prompt, entry, index })));
  if (conditions.length === 0) return [];
  const proof = unreadProof(
    expandedGraph(composed),
    composed.transitions.entry,
    (tool) => new Set(composed.nodeIds.filter((id) => (entryOf(composed.toolsByNode, id) ?? []).includes(tool))),
    model.tools.map((t) => t.name),
  );
  return conditions.flatMap(({ prompt, entry, index }) => {
    if (entry.condition === null) return [];
    const found = unreadDiagnostic(model.file, prompt, index, proof, ' (with the sub-flows expanded)');
    return found === null ? [] : [found];
  });
}

/** The SOP's own policies, proved over its expansion (SOP055), and what they name that matches nothing there (SOP054). */
function policyDiagnostics(model: SopModel, composed: CompiledSop): Diagnostic[] {
  const out: Diagnostic[] = [];
  const policies = composed.policies ?? [];
  const graph = expandedGraph(composed);
  const ids = composed.nodeIds;
  for (const [index, policy] of model.policies.entries()) {
    const resolved = policies[index];
    if (resolved === undefined || resolved.id !== policy.id) continue;
    for (const pattern of [...policy.everyPathTo.nodes, ...policy.everyPathTo.except, ...policy.passes.nodes, ...policy.passes.except]) {
      if (!pattern.pattern.includes(QUALIFIER) || ids.some(patternTest(pattern.pattern))) continue;
      out.push(
        diagnosticAt(
          model.file,
          'SOP054',
          pattern.span,
          `Policy ${quoted(policy.id)}: ${quoted(pattern.pattern)} matches no node of the expanded sub-flows.`,
        ),
      );
    }
    for (const tool of [...policy.everyPathTo.tools, ...policy.passes.tools]) {
      if (ids.some((id) => (entryOf(composed.toolsByNode, id) ?? []).includes(tool.name))) continue;
      out.push(
        diagnosticAt(
          model.file,
          'SOP054',
          tool.span,
          `Policy ${quoted(policy.id)}: no node, nor any node of its sub-flows, lists the tool ${quoted(tool.name)}.`,
        ),
      );
    }
    if (resolved.guards.length === 0) {
      out.push(
        diagnosticAt(
          model.file,
          'SOP054',
          policy.everyPathTo.span,
          `Policy ${quoted(policy.id)} guards no node, with the sub-flows expanded.`,
        ),
      );
      continue;
    }
    const violation = findViolation(graph, composed.transitions.entry, resolved.guards, new Set(resolved.passes));
    if (violation === null) continue;
    const because = new Map(
      resolved.guards.map((id) => [id, resolved.tools.find((tool) => (entryOf(composed.toolsByNode, id) ?? []).includes(tool)) ?? null]),
    );
    out.push(
      diagnosticAt(
        model.file,
        'SOP055',
        policy.span,
        `${violationMessage(policy, violation, { because }, resolved.passes, graph)} (with the sub-flows expanded)`,
        undefined,
        policy.severity,
      ),
    );
  }
  return out;
}
