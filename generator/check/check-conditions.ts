/**
 * Checks the rules decided by data: a node's `when` (an edge's condition over a tool's answer read earlier in the
 * run) and evidence's `shows` (what the answer of the evidence's own call must show). Whether a condition parses is
 * the parse stage's (SOP068 there too); here, what it names:
 *   - SOP068: a `when` key that is not a successor of the node (the closest successor), a tool that is not in the
 *     frontmatter `tools` (the closest tool), a `shows` condition that names the tool (it reads the answer itself);
 *   - SOP069: a `when` condition over tool T at node N where some path from the entry node to N passes no node that
 *     offers T (N itself included): the answer may never have been read. The paths are those of the policies
 *     (`check-policies.ts`): walks along the edges from the entry node, escalation moves included; hubs and restarts
 *     return to nodes already on the path and open no new way in. The shortest such path is the counterexample.
 * A SOP with sub-flows is proved over its expansion instead (`build/composition-diagnostics.ts`): a called SOP's
 * nodes may read the tool.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { type Diagnostic, diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { GraphFacts, ModelPrompt, SopModel } from '../model/sop-model.js';
import { findViolation, type PolicyGraph, policyGraph, renderPath } from './check-policies.js';

export function checkConditions(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  const isNode = new Set(model.nodes.map((n) => n.id));
  const declared = model.tools.map((t) => t.name);
  const known = new Set(declared);
  let tools: ReturnType<typeof suggester> | undefined;
  /** The conditions whose tool is known, for the proof over the paths. */
  const readable: { prompt: ModelPrompt; index: number }[] = [];
  for (const prompt of model.prompts) {
    if (!isNode.has(prompt.nodeId)) continue;
    checkShows(model, prompt, sink);
    if (prompt.when.length === 0) continue;
    const successors = facts.successors.get(prompt.nodeId) ?? [];
    const next = suggester(successors);
    prompt.when.forEach((entry, index) => {
      if (!successors.includes(entry.target)) {
        const listed = successors.length === 0 ? 'it is a terminal node: it has none' : `its successors: ${successors.join(', ')}`;
        sink.push(
          diagnosticAt(
            model.file,
            'SOP068',
            entry.span,
            `\`when\` of ${quoted(prompt.nodeId)} names ${quoted(entry.target)}, which is not a successor of the node (${listed}).`,
            successors.length === 0 ? 'Remove `when`: a terminal node has no edges to decide.' : next.suggestion(entry.target, 'successor'),
          ),
        );
      }
      const condition = entry.condition;
      if (condition === null) return;
      if (!known.has(condition.tool.name)) {
        tools ??= suggester(declared);
        sink.push(
          diagnosticAt(
            model.file,
            'SOP068',
            condition.tool.span,
            `The condition ${quoted(condition.text)} reads ${quoted(condition.tool.name)}, which is not a tool of this SOP (frontmatter \`tools\`).`,
            tools.suggestion(condition.tool.name, 'tool'),
          ),
        );
        return;
      }
      if (successors.includes(entry.target)) readable.push({ prompt, index });
    });
  }
  // With sub-flows, a called SOP's nodes may read the tool: proved over the expansion.
  if (readable.length === 0 || model.prompts.some((p) => p.subflow !== null)) return;
  const graph = policyGraph(model, facts);
  const offering = new Map<string, Set<string>>();
  for (const prompt of model.prompts) {
    if (!isNode.has(prompt.nodeId)) continue;
    for (const tool of prompt.tools) {
      const nodes = offering.get(tool.name) ?? new Set<string>();
      nodes.add(prompt.nodeId);
      offering.set(tool.name, nodes);
    }
  }
  const proof = unreadProof(graph, model.entryNode, (tool) => offering.get(tool) ?? new Set(), declared);
  for (const { prompt, index } of readable) {
    const diagnostic = unreadDiagnostic(model.file, prompt, index, proof);
    if (diagnostic !== null) sink.push(diagnostic);
  }
}

/** `shows` reads the answer of the evidence's own call: a condition that starts with one of its tools names it twice. */
function checkShows(model: SopModel, prompt: ModelPrompt, sink: DiagnosticSink): void {
  const evidence = prompt.evidence;
  if (evidence === null || evidence.shows.length === 0) return;
  const tools = new Set((evidence.tools ?? prompt.tools).map((t) => t.name));
  for (const shown of evidence.shows) {
    for (let n = 1; n < shown.field.length; n++) {
      const tool = shown.field.slice(0, n).join('.');
      if (!tools.has(tool)) continue;
      const rest = shown.text.slice(tool.length + 1);
      sink.push(
        diagnosticAt(
          model.file,
          'SOP068',
          shown.fieldSpan,
          `\`shows\` reads the answer of the evidence's own call, so ${quoted(shown.text)} names the tool ${quoted(tool)} where a field of its answer belongs.`,
          `Write the field alone: ${quoted(rest)}.`,
        ),
      );
      break;
    }
  }
}

/** Whether a tool is read on every path to a node, and the shortest path where it is not; each answer computed once. */
export interface UnreadProof {
  /** The shortest path from the entry node to `node` passing no node that offers `tool`, or null when every path reads it. */
  unreadPath(node: string, tool: string): readonly string[] | null;
  /** The tool closest in name to `tool` that every path to `node` reads, if any. */
  closeReadTool(node: string, tool: string): string | undefined;
  readonly graph: PolicyGraph;
}

/** Tools with a close name tried for the did-you-mean of one finding. */
const CLOSE_TOOLS_TRIED = 3;

export function unreadProof(
  graph: PolicyGraph,
  entry: string,
  offeringOf: (tool: string) => ReadonlySet<string>,
  tools: readonly string[],
): UnreadProof {
  const memo = new Map<string, readonly string[] | null>();
  const unreadPath = (node: string, tool: string) => {
    const key = JSON.stringify([node, tool]);
    if (!memo.has(key)) memo.set(key, findViolation(graph, entry, [node], offeringOf(tool))?.path ?? null);
    return memo.get(key)!;
  };
  return {
    graph,
    unreadPath,
    closeReadTool(node, tool) {
      let others = tools.filter((t) => t !== tool);
      for (let tried = 0; tried < CLOSE_TOOLS_TRIED; tried++) {
        const close = suggester(others).closest(tool);
        if (close === undefined) return undefined;
        if (unreadPath(node, close) === null) return close;
        others = others.filter((t) => t !== close);
      }
      return undefined;
    },
  };
}

/** SOP069 for the `index`th `when` entry of the prompt when some path to its node never reads its tool; else null. */
export function unreadDiagnostic(file: string, prompt: ModelPrompt, index: number, proof: UnreadProof, note = ''): Diagnostic | null {
  const entry = prompt.when[index]!;
  const condition = entry.condition!;
  const tool = condition.tool.name;
  const path = proof.unreadPath(prompt.nodeId, tool);
  if (path === null) return null;
  const close = proof.closeReadTool(prompt.nodeId, tool);
  return diagnosticAt(
    file,
    'SOP069',
    condition.tool.span,
    `\`when\` of ${quoted(prompt.nodeId)} decides ${quoted(entry.target)} on ${quoted(condition.text)}, but a run can reach ${quoted(prompt.nodeId)} ` +
      `without any node offering ${quoted(tool)}, so its answer may never have been read: ${renderPath(path, proof.graph)}.${note}`,
    close === undefined
      ? `Offer ${quoted(tool)} at ${quoted(prompt.nodeId)} or at a step every path to it passes (the path shown passes none), or read a tool that is read there.`
      : `Did you mean \`${close}\`? Every path to ${quoted(prompt.nodeId)} reads it.`,
  );
}
