/**
 * Checks the shape of the flowchart: every node is reachable from the entry node, every node can still reach
 * a terminal node (no traps), and decision (rhombus) nodes branch: at least two outgoing edges, each with a
 * label so the agent knows which branch to take.
 */
import { diagnosticAt, type Diagnostic } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';

export function checkGraph(model: SopModel, facts: GraphFacts): Diagnostic[] {
  const out: Diagnostic[] = [];
  const file = model.file;
  const isNode = new Set(model.nodes.map((n) => n.id));

  const predecessors = new Map<string, string[]>();
  const outgoingEdges = new Map<string, SopModel['edges'][number][]>();
  for (const edge of model.edges) {
    const list = predecessors.get(edge.to) ?? [];
    list.push(edge.from);
    predecessors.set(edge.to, list);
    const out = outgoingEdges.get(edge.from) ?? [];
    out.push(edge);
    outgoingEdges.set(edge.from, out);
  }

  if (isNode.has(model.entryNode)) {
    const reached = reach([model.entryNode], (id) => facts.successors.get(id) ?? []);
    out.push(...unreachable(model, facts, reached, predecessors));
  }

  const canFinish = reach(facts.terminalNodes, (id) => predecessors.get(id) ?? []);
  for (const node of model.nodes) {
    if (!canFinish.has(node.id)) {
      out.push(
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
      out.push(
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
        out.push(
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
  return out;
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
): Diagnostic[] {
  const lost = model.nodes.filter((n) => !reached.has(n.id));
  const lostIds = new Set(lost.map((n) => n.id));
  const isRoot = (id: string) => !(predecessors.get(id) ?? []).some((p) => lostIds.has(p) && p !== id);
  const ordered = [...lost.filter((n) => isRoot(n.id)), ...lost.filter((n) => !isRoot(n.id))];
  const covered = new Set<string>();
  const out: Diagnostic[] = [];
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
    out.push(
      diagnosticAt(
        model.file,
        'SOP041',
        node.span,
        `Node ${quoted(node.id)} is not reachable from the entry node ${quoted(model.entryNode)}.${tail}`,
        `Add an edge into ${quoted(node.id)} (check the edges meant to lead here for a misspelt id), or remove it.`,
      ),
    );
  }
  return out;
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
