/** The check stage for one SOP: every per-file rule, all diagnostics collected (it never stops at the first). */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { GraphFacts, SopModel } from '../model/sop-model.js';
import { checkGraph } from './check-graph.js';
import { checkNodeIds, checkReferences } from './check-references.js';

export function checkSop(model: SopModel, facts: GraphFacts): Diagnostic[] {
  return [...checkNodeIds(model), ...checkReferences(model), ...checkGraph(model, facts)];
}
