/**
 * SOP048: the system prompt or a node's prompt names a node the flowchart does not have (`` `IS_GC_OK` ``, `go to
 * IS_GC_OK`, `goto_node("IS_GC_OK")`): a node removed or renamed since, or misspelt. The agent would look for a step
 * that is not there. Said where it is written, with the closest node id. "node X" in a sentence counts for rename
 * and `sop diff` but is never a finding here: "the node ID" is English.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import type { SopModel } from '../model/sop-model.js';

const WRITTEN: Readonly<Record<SopModel['mentions'][number]['form'], string>> = {
  code: 'in backticks',
  call: 'in `goto_node`',
  phrase: 'as a step to go to',
  node: 'as a node',
};

export function checkMentions(model: SopModel, sink: DiagnosticSink): void {
  const unknown = model.mentions.filter((m) => !m.node && m.form !== 'node');
  if (unknown.length === 0) return;
  const like = suggester(model.nodes.map((n) => n.id));
  const renamed = new Map(model.renames.map((r) => [r.from, r.to]));
  for (const mention of unknown) {
    const now = renamed.get(mention.id);
    const hint =
      now === undefined ? like.suggestion(mention.id, 'node id') : `Did you mean \`${now}\`? ${quoted(mention.id)} was renamed to it.`;
    sink.push(
      diagnosticAt(
        model.file,
        'SOP048',
        mention.span,
        `${quoted(mention.id)} is written ${WRITTEN[mention.form]}, but the flowchart has no node ${quoted(mention.id)}.`,
        `${hint} If it is not meant as a node, write it ${mention.form === 'code' ? 'without backticks' : 'in lower case or in other words'}.`,
      ),
    );
  }
}
