/** The check stage for one SOP: every per-file rule, all diagnostics collected (it never stops at the first). */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import { checkConditions } from './check-conditions.js';
import { checkDeadEnds } from './check-dead-ends.js';
import { checkEvidence } from './check-evidence.js';
import { checkForks } from './check-forks.js';
import { checkGraph } from './check-graph.js';
import { checkMentions } from './check-mentions.js';
import { checkPolicies } from './check-policies.js';
import { checkNodeIds, checkReferences } from './check-references.js';
import { checkRenames } from './check-renames.js';
import { checkSubflowNodes } from './check-subflow-nodes.js';
import { checkVisitLimits } from './check-visit-limits.js';

export function checkSop(model: SopModel, facts: GraphFacts, sink: DiagnosticSink): void {
  checkNodeIds(model, sink);
  checkReferences(model, sink);
  checkGraph(model, facts, sink);
  checkDeadEnds(model, facts, sink);
  checkMentions(model, sink);
  checkVisitLimits(model, sink);
  checkPolicies(model, facts, sink);
  checkEvidence(model, facts, sink);
  checkConditions(model, facts, sink);
  checkSubflowNodes(model, facts, sink);
  checkForks(model, facts, sink);
  checkRenames(model, sink);
}
