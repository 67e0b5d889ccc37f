/**
 * Checks `renames` (frontmatter: a node id of an earlier version → the node it is now), which `sop diff` reads as a
 * rename instead of a node removed and another added, and `sop runs migrate` uses to move runs that stand on the old
 * id (SOP080): the new id must be a node, and the old one must not be one any more (a run on it would be ambiguous).
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { SopModel } from '../model/sop-model.js';

export function checkRenames(model: SopModel, sink: DiagnosticSink): void {
  if (model.renames.length === 0) return;
  const nodes = new Set(model.nodes.map((n) => n.id));
  const like = suggester([...nodes]);
  for (const rename of model.renames) {
    if (nodes.has(rename.from)) {
      sink.push(
        diagnosticAt(
          model.file,
          'SOP080',
          rename.span,
          `${quoted(rename.from)} is renamed to ${quoted(rename.to)} but is still a node: a run standing on it could be on either.`,
          'Remove the entry, or rename the node in the flowchart too.',
        ),
      );
    }
    if (!nodes.has(rename.to)) {
      sink.push(
        diagnosticAt(
          model.file,
          'SOP080',
          rename.toSpan,
          `${quoted(rename.from)} is renamed to ${quoted(rename.to)}, which is not a node.`,
          like.suggestion(rename.to, 'node id'),
        ),
      );
    }
  }
}
