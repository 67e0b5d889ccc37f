/**
 * Checks `evidence`: what a node requires before a run in gateway mode goes on from it.
 *   - SOP064: the tools it names are tools the node offers (a call the gateway never forwards at that node could
 *     never prove anything there), and a node requiring evidence offers tools at all;
 *   - SOP065: a terminal node requires evidence (a run never goes on from it: no effect);
 *   - SOP066: a policy with `evidence: true` holds only if every node it `passes` requires evidence, so that
 *     passing one is proved by a successful call, not only declared by a move.
 * The policy's own proof (every path passes a `passes` node) is `check-policies.ts`'s; this adds what makes a
 * pass real.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { quoted } from '../diagnostics/quoted.js';
import { resolveSelector } from '../model/policy-selectors.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import { selectorContext } from './check-policies.js';

export function checkEvidence(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  const file = model.file;
  const terminals = new Set(facts.terminalNodes);
  const isNode = new Set(model.nodes.map((n) => n.id));
  const requiring = new Set<string>();
  for (const prompt of model.prompts) {
    const evidence = prompt.evidence;
    if (evidence === null || !isNode.has(prompt.nodeId)) continue;
    requiring.add(prompt.nodeId);
    const offered = prompt.tools.map((t) => t.name);
    if (offered.length === 0) {
      sink.push(
        diagnosticAt(
          file,
          'SOP064',
          evidence.span,
          `${quoted(prompt.nodeId)} requires evidence but offers no tools: no call there could provide it.`,
          'Give the node the tools whose successful call is the evidence (`tools: [...]`), or remove `evidence`.',
        ),
      );
      continue;
    }
    const like = suggester(offered);
    for (const tool of evidence.tools ?? []) {
      if (offered.includes(tool.name)) continue;
      sink.push(
        diagnosticAt(
          file,
          'SOP064',
          tool.span,
          `${quoted(prompt.nodeId)} requires evidence from ${quoted(tool.name)}, which the node does not offer (its tools: ${offered.join(', ')}).`,
          like.suggestion(tool.name, 'tool'),
        ),
      );
    }
    if (terminals.has(prompt.nodeId)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP065',
          evidence.span,
          `${quoted(prompt.nodeId)} is a terminal node: a run never goes on from it, so its \`evidence\` has no effect.`,
        ),
      );
    }
  }
  const withEvidence = model.policies.filter((policy) => policy.evidence !== null);
  if (withEvidence.length === 0) return;
  const context = selectorContext(model, facts);
  for (const policy of withEvidence) {
    const missing = resolveSelector(policy.passes, context).nodes.filter((node) => !requiring.has(node));
    if (missing.length === 0) continue;
    sink.push(
      diagnosticAt(
        file,
        'SOP066',
        policy.evidence!,
        `Policy ${quoted(policy.id)} has \`evidence: true\`, but ${missing.map(quoted).join(', ')} ${missing.length === 1 ? 'requires' : 'require'} no evidence: passing ${missing.length === 1 ? 'it' : 'them'} would only be declared.`,
        `Add \`evidence\` to ${missing.length === 1 ? 'that node' : 'those nodes'} (which of ${missing.length === 1 ? 'its' : 'their'} tools must succeed there), or remove \`evidence: true\`.`,
      ),
    );
  }
}
