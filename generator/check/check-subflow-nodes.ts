/**
 * What a sub-flow node must be within its own SOP (the checks across SOPs, of what it calls, are
 * `build/composition-diagnostics.ts`'s):
 *   - SOP070: drawn as a subroutine (`CALL[[Label]]`), so that the chart shows the call;
 *   - SOP071: it is a call, never a step the agent stops at: no `tools`, no `evidence`, no `fork` or `join`; and
 *     `exits` means nothing without `subflow`, a fork cannot be its own join's join;
 *   - SOP074: each declared exit leads to a successor of the node.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';

export function checkSubflowNodes(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  const file = model.file;
  const nodes = new Map(model.nodes.map((n) => [n.id, n]));
  for (const prompt of model.prompts) {
    const node = nodes.get(prompt.nodeId);
    if (prompt.strayExits !== null) {
      sink.push(diagnosticAt(file, 'SOP071', prompt.strayExits, `${quoted(prompt.nodeId)} has \`exits\` but calls no SOP (\`subflow\`).`));
    }
    if (prompt.fork !== null && prompt.join !== null) {
      sink.push(diagnosticAt(file, 'SOP071', prompt.join.span, `${quoted(prompt.nodeId)} is both a fork and a join.`));
    }
    const call = prompt.subflow;
    if (call === null || node === undefined) continue;
    if (node.type !== 'subroutine') {
      sink.push(
        diagnosticAt(
          file,
          'SOP070',
          node.span,
          `${quoted(node.id)} calls ${quoted(call.agent)} but is drawn as a ${node.type}, not a subroutine.`,
          `Draw it as ${quoted(`${node.id}[[${node.description}]]`)}.`,
        ),
      );
    }
    const stray: [string, NonNullable<Parameters<typeof diagnosticAt>[2]>][] = [];
    if (prompt.tools.length > 0) stray.push(['tools', prompt.tools[0]!.span]);
    if (prompt.evidence !== null) stray.push(['evidence', prompt.evidence.span]);
    if (prompt.fork !== null) stray.push(['fork', prompt.fork.span]);
    if (prompt.join !== null) stray.push(['join', prompt.join.span]);
    for (const [key, span] of stray) {
      sink.push(
        diagnosticAt(
          file,
          'SOP071',
          span,
          `${quoted(node.id)} calls ${quoted(call.agent)}, so it cannot have \`${key}\`: entering it enters the called SOP at once.`,
        ),
      );
    }
    const successors = facts.successors.get(node.id) ?? [];
    const like = suggester(successors);
    for (const exit of call.exits) {
      if (successors.includes(exit.target)) continue;
      sink.push(
        diagnosticAt(
          file,
          'SOP074',
          exit.targetSpan,
          `${quoted(node.id)} maps ${quoted(exit.terminal)} to ${quoted(exit.target)}, which is not one of its successors (${successors.length === 0 ? 'it has none' : successors.join(', ')}).`,
          successors.length === 0
            ? `Add an edge from ${quoted(node.id)} to ${quoted(exit.target)}.`
            : like.suggestion(exit.target, 'successor'),
        ),
      );
    }
  }
}
