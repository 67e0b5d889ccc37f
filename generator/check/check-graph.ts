/**
 * Checks the shape of the flowchart: every node is reachable from the entry node (along edges, or the escalation
 * moves of visit limits), every node can still reach
 * a terminal node (no traps), and decision (rhombus) nodes branch: at least two outgoing edges, each with a
 * label so the agent knows which branch to take.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import { escalationMovesOf } from '../model/visit-limits.js';

export function checkGraph(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  const file = model.file;
  const isNode = new Set(model.nodes.map((n) => n.id));

  const predecessors = new Map<string, string[]>();
  const outgoingEdges = new Map<string, SopModel['edges'][number][]>();
  for (const edge of model.edges) {
    const list = predecessors.get(edge.to) ?? [];
    list.push(edge.from);
    predecessors.set(edge.to, list);
    const leaving = outgoingEdges.get(edge.from) ?? [];
    leaving.push(edge);
    outgoingEdges.set(edge.from, leaving);
  }

  if (isNode.has(model.entryNode)) {
    // A node that only an escalation move leads to (a visit limit's `escalate_to`) is reached by runs all the same.
    const escalations = new Map<string, string[]>();
    for (const move of escalationMovesOf(model, facts.successors))
      escalations.set(move.from, [...(escalations.get(move.from) ?? []), move.to]);
    const reached = reach([model.entryNode], (id) => [...(facts.successors.get(id) ?? []), ...(escalations.get(id) ?? [])]);
    unreachable(model, facts, reached, predecessors, sink);
  }

  const canFinish = reach(facts.terminalNodes, (id) => predecessors.get(id) ?? []);
  for (const node of model.nodes) {
    if (!canFinish.has(node.id)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP042',
          node.span,
          `No terminal node can be reached from ${quoted(node.id)}: a conversation that gets here never ends.`,
          `Add an edge from ${quoted(node.id)} (or from the loop it is in) to an end node.`,
        ),
      );
    }
  }

  const decisions = new Set(facts.decisionNodes);
  for (const node of model.nodes) {
    if (!decisions.has(node.id)) continue;
    const outgoing = outgoingEdges.get(node.id) ?? [];
    if (outgoing.length < 2) {
      sink.push(
        diagnosticAt(
          file,
          'SOP043',
          node.span,
          `Decision node ${quoted(node.id)} has ${outgoing.length === 0 ? 'no outgoing edges' : 'only one outgoing edge'}.`,
        ),
      );
    }
    for (const edge of outgoing) {
      if (edge.condition === null) {
        sink.push(
          diagnosticAt(
            file,
            'SOP044',
            edge.span,
            `Edge ${quoted(`${node.id} → ${edge.to}`)} leaves a decision node without a label.`,
            `Label it with the condition, e.g. ${quoted(`${node.id} -->|yes| ${edge.to}`)}.`,
          ),
        );
      }
    }
  }
}

/**
 * One warning per unreachable region, not per node: a typo in the one edge into a branch would otherwise
 * bury the author in warnings. Regions start at unreachable nodes that no other unreachable node leads to
 * (then, for unreachable cycles, in source order); the nodes behind each start are named in its message.
 */
function unreachable(
  model: SopModel,
  facts: GraphFacts,
  reached: ReadonlySet<string>,
  predecessors: ReadonlyMap<string, readonly string[]>,
  sink: DiagnosticSink,
): void {
  const lost = model.nodes.filter((n) => !reached.has(n.id));
  const lostIds = new Set(lost.map((n) => n.id));
  const isRoot = (id: string) => !(predecessors.get(id) ?? []).some((p) => lostIds.has(p) && p !== id);
  const ordered = [...lost.filter((n) => isRoot(n.id)), ...lost.filter((n) => !isRoot(n.id))];
  const covered = new Set<string>();
  for (const node of ordered) {
    if (covered.has(node.id)) continue;
    const behind = [...reach([node.id], (id) => (facts.successors.get(id) ?? []).filter((s) => lostIds.has(s) && !covered.has(s)))];
    for (const id of behind) covered.add(id);
    const others = behind.filter((id) => id !== node.id);
    const named = others.slice(0, NAMED_BEHIND).map(quoted).join(', ');
    const more = others.length > NAMED_BEHIND ? `, … (${others.length - NAMED_BEHIND} more)` : '';
    const tail =
      others.length === 0
        ? ''
        : ` Neither ${others.length === 1 ? 'is' : 'are'} ${others.length === 1 ? 'the node' : `the ${others.length} nodes`} behind it: ${named}${more}.`;
    sink.push(
      diagnosticAt(
        model.file,
        'SOP041',
        node.span,
        `Node ${quoted(node.id)} is not reachable from the entry node ${quoted(model.entryNode)}.${tail}`,
        `Add an edge into ${quoted(node.id)} (check the edges meant to lead here for a misspelt id), or remove it.`,
      ),
    );
  }
}

/** Nodes named in an unreachable region's message; the rest are counted. */
const NAMED_BEHIND = 10;

function reach(starts: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set(starts);
  const queue = [...starts];
  for (let i = 0; i < queue.length; i++) {
    for (const n of next(queue[i]!)) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}
