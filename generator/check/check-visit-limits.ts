/**
 * Checks the visit limits: the escalation nodes named (`escalation_node`, `escalate_to`) are nodes, every node with
 * `max_visits` has an escalation node, an escalation node has no limit of its own (a run that used up both would
 * be left with nowhere to go), and `escalate_to` is not written without `max_visits`.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { SopModel } from '../model/sop-model.js';
import { resolveVisitLimits } from '../model/visit-limits.js';

export function checkVisitLimits(model: SopModel, sink: DiagnosticSink): void {
  const file = model.file;
  const nodeIds = model.nodes.map((n) => n.id);
  const isNode = new Set(nodeIds);
  const like = suggester(nodeIds);
  const unknown = (named: { readonly id: string; readonly span: SopModel['flowchartSpan'] }, what: string) =>
    sink.push(
      diagnosticAt(
        file,
        'SOP050',
        named.span,
        `${what} ${quoted(named.id)} is not a node of the flowchart.`,
        like.suggestion(named.id, 'node id'),
      ),
    );

  if (model.escalationNode !== null && !isNode.has(model.escalationNode.id)) unknown(model.escalationNode, 'Escalation node');
  for (const prompt of model.prompts) {
    if (prompt.strayEscalateTo !== null) {
      sink.push(
        diagnosticAt(file, 'SOP053', prompt.strayEscalateTo, `${quoted(prompt.nodeId)} names \`escalate_to\` but has no \`max_visits\`.`),
      );
    }
    const limit = prompt.visitLimit;
    if (limit === null || !isNode.has(prompt.nodeId)) continue;
    if (limit.escalateTo !== null && !isNode.has(limit.escalateTo.id))
      unknown(limit.escalateTo, `The escalation node of ${quoted(prompt.nodeId)},`);
    else if (limit.escalateTo === null && model.escalationNode === null) {
      sink.push(
        diagnosticAt(
          file,
          'SOP051',
          limit.span,
          `${quoted(prompt.nodeId)} has \`max_visits: ${limit.max}\` but no escalation node: once its visits are used up, the run would have no way on.`,
        ),
      );
    }
  }
  const limits = resolveVisitLimits(model);
  const limited = new Set(limits.map((l) => l.node));
  for (const limit of limits) {
    if (!limited.has(limit.escalation)) continue;
    sink.push(
      diagnosticAt(
        file,
        'SOP052',
        limit.escalationSpan,
        `${quoted(limit.node)} escalates to ${quoted(limit.escalation)}, which has a visit limit of its own.`,
      ),
    );
  }
}
