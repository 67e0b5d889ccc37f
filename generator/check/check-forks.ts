/**
 * Checks fork/join: a fork node (`fork: JOIN`) and its join (`join: all | any` on the join node, optional) enclose
 * branches the agent works through in any order (`contract/transitions.ts`). Each rule keeps the runtime's reading
 * of a fork sound:
 *   - SOP077: the join is a node, and another fork's join; the fork has two branches or more; a `join` key belongs to
 *     a node some fork names; neither fork nor join has `max_visits` (going back to the fork is no visit);
 *   - SOP078: a branch is a walk from the fork to its join: each branch reaches the join, its nodes are entered only
 *     from the fork or from the branches, and it holds no fork, hub, entry node or way back to its fork (so that the
 *     path the runtime keeps is always the walk of one branch);
 *   - SOP079: a join with edges reserved for one outcome (`passed` or `failed`) has somewhere to go for the other.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { GraphFacts, ModelPrompt, SopModel } from '../model/sop-model.js';

/** The outcome an edge label reserves a join's successor for, if any (`passed`, `failed`, trimmed, any case). */
export function outcomeOfLabel(condition: string | null): 'passed' | 'failed' | undefined {
  const label = (condition ?? '').trim().toLowerCase();
  return label === 'passed' || label === 'failed' ? label : undefined;
}

export function checkForks(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  // A prompt for a node that is not in the flowchart is SOP020's; its keys say nothing here.
  const nodes = new Map(model.nodes.map((n) => [n.id, n]));
  const forks = model.prompts.filter(
    (p): p is ModelPrompt & { fork: NonNullable<ModelPrompt['fork']> } => p.fork !== null && nodes.has(p.nodeId),
  );
  const joinKeys = model.prompts.filter((p) => p.join !== null && nodes.has(p.nodeId));
  if (forks.length === 0 && joinKeys.length === 0) return;
  const file = model.file;
  const like = suggester([...nodes.keys()]);
  const joinedBy = new Map<string, string>();
  for (const prompt of forks) {
    const join = prompt.fork.join;
    if (!nodes.has(join)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP077',
          prompt.fork.span,
          `Fork ${quoted(prompt.nodeId)}: its join ${quoted(join)} is not a node.`,
          like.suggestion(join, 'node id'),
        ),
      );
      continue;
    }
    const other = joinedBy.get(join);
    if (other !== undefined) {
      sink.push(
        diagnosticAt(
          file,
          'SOP077',
          prompt.fork.span,
          `Forks ${quoted(other)} and ${quoted(prompt.nodeId)} share the join ${quoted(join)}; each fork needs its own.`,
        ),
      );
      continue;
    }
    joinedBy.set(join, prompt.nodeId);
    const branches = facts.successors.get(prompt.nodeId) ?? [];
    if (branches.length < 2) {
      sink.push(
        diagnosticAt(
          file,
          'SOP077',
          prompt.fork.span,
          `Fork ${quoted(prompt.nodeId)} has ${branches.length === 0 ? 'no branch' : 'one branch'}: its edges are its branches, and a fork needs two or more.`,
        ),
      );
    }
    if (prompt.visitLimit !== null) {
      sink.push(
        diagnosticAt(
          file,
          'SOP077',
          prompt.visitLimit.span,
          `Fork ${quoted(prompt.nodeId)} cannot have \`max_visits\`: the run comes back to it after each branch.`,
        ),
      );
    }
  }
  const prompts = new Map(model.prompts.map((p) => [p.nodeId, p]));
  for (const prompt of joinKeys) {
    if (!joinedBy.has(prompt.nodeId)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP077',
          prompt.join!.span,
          `${quoted(prompt.nodeId)} is marked as a join, but no fork names it (\`fork: ${prompt.nodeId}\` on the fork node).`,
        ),
      );
    }
  }
  for (const [join, fork] of joinedBy) {
    const limit = prompts.get(join)?.visitLimit;
    if (limit != null)
      sink.push(diagnosticAt(file, 'SOP077', limit.span, `Join ${quoted(join)} (of fork ${quoted(fork)}) cannot have \`max_visits\`.`));
    checkBranches(model, facts, fork, join, new Set(joinedBy.values()), sink);
    checkOutcomes(model, join, sink);
  }
}

function checkBranches(
  model: SopModel,
  facts: GraphFacts,
  fork: string,
  join: string,
  allForks: ReadonlySet<string>,
  sink: DiagnosticSink,
): void {
  const file = model.file;
  const span = (id: string) => model.nodes.find((n) => n.id === id)?.span ?? model.flowchartSpan;
  const forkSpan = model.prompts.find((p) => p.nodeId === fork)?.fork?.span ?? span(fork);
  const branches = facts.successors.get(fork) ?? [];
  if (branches.includes(join)) {
    sink.push(
      diagnosticAt(
        file,
        'SOP078',
        forkSpan,
        `Fork ${quoted(fork)} leads straight to its join ${quoted(join)}: every branch needs a node of its own.`,
      ),
    );
  }
  // The fork's region: every node a branch reaches before the join.
  const region = new Set<string>();
  const queue = branches.filter((b) => b !== join);
  for (const b of queue) region.add(b);
  for (let i = 0; i < queue.length; i++) {
    for (const next of facts.successors.get(queue[i]!) ?? []) {
      if (next === join || region.has(next)) continue;
      region.add(next);
      queue.push(next);
    }
  }
  const hubs = new Set(model.hubs.map((h) => h.id));
  const reported = new Set<string>();
  const report = (id: string, message: string, at = span(id)) => {
    if (reported.has(id)) return;
    reported.add(id);
    sink.push(diagnosticAt(file, 'SOP078', at, message));
  };
  for (const id of model.nodes.map((n) => n.id).filter((n) => region.has(n))) {
    if (id === fork)
      report(
        id,
        `A branch of fork ${quoted(fork)} leads back to the fork: a branch goes from the fork to the join ${quoted(join)}.`,
        forkSpan,
      );
    else if (allForks.has(id)) report(id, `Fork ${quoted(id)} is inside a branch of fork ${quoted(fork)}: forks do not nest.`);
    else if (hubs.has(id) || id === model.entryNode)
      report(
        id,
        `${quoted(id)} is inside a branch of fork ${quoted(fork)}, so it cannot be ${id === model.entryNode ? 'the entry node' : 'a hub'}.`,
      );
  }
  for (const edge of model.edges) {
    if (region.has(edge.to) && edge.from !== fork && !region.has(edge.from)) {
      report(
        edge.to,
        `${quoted(edge.to)} belongs to a branch of fork ${quoted(fork)} but is entered from ${quoted(edge.from)}, outside the fork.`,
        edge.span,
      );
    }
    if (edge.to === join && !region.has(edge.from)) {
      report(
        `${edge.from}>${join}`,
        `Join ${quoted(join)} is entered from ${quoted(edge.from)}, which is not in a branch of fork ${quoted(fork)}.`,
        edge.span,
      );
    }
  }
  const predecessors = new Map<string, string[]>();
  for (const edge of model.edges) predecessors.set(edge.to, [...(predecessors.get(edge.to) ?? []), edge.from]);
  const reachesJoin = new Set<string>();
  const back = (predecessors.get(join) ?? []).filter((p) => region.has(p));
  for (const p of back) reachesJoin.add(p);
  for (let i = 0; i < back.length; i++) {
    for (const p of predecessors.get(back[i]!) ?? []) {
      if (!region.has(p) || reachesJoin.has(p)) continue;
      reachesJoin.add(p);
      back.push(p);
    }
  }
  for (const branch of branches) {
    if (branch !== join && !reachesJoin.has(branch))
      report(branch, `Branch ${quoted(branch)} of fork ${quoted(fork)} never reaches the join ${quoted(join)}.`);
  }
}

function checkOutcomes(model: SopModel, join: string, sink: DiagnosticSink): void {
  const out = model.edges.filter((e) => e.from === join);
  const kinds = new Set(out.map((e) => outcomeOfLabel(e.condition) ?? 'always'));
  if (kinds.has('always') || kinds.size !== 1) return;
  const [only] = kinds;
  const missing = only === 'passed' ? 'failed' : 'passed';
  const node = model.nodes.find((n) => n.id === join);
  if (node === undefined) return;
  sink.push(
    diagnosticAt(
      model.file,
      'SOP079',
      node.span,
      `Join ${quoted(join)} has ${only === 'passed' ? 'a `passed`' : 'a `failed`'} edge and none for \`${missing}\`: a join that ${missing} has nowhere to go.`,
      `Add an edge ${quoted(`${join} -->|${missing}| NEXT`)}, or an unlabelled one.`,
    ),
  );
}
