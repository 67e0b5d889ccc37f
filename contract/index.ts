/**
 * `sop-toolkit/contract`: what the compiler and everything that consumes its output share. Generated modules
 * import these types (and, for the machines, `enterPath`, `countVisit` and `hasVisitsLeft`) by package name, so their bytes do not depend on
 * where the toolkit is installed. Browser-safe: no Node built-ins. Explicit, sorted exports. App code that reads a
 * `CompiledSop` table by a name it did not compile (a node id from a request) reads it with `entryOf`.
 */
export type {
  AgentMeta,
  CompiledPolicy,
  CompiledSop,
  EdgeStyle,
  EdgeTable,
  EvidenceRequirement,
  McpServerRef,
  ModelSettings,
  NodePrompt,
  SopBundle,
  SopEdge,
  SopExample,
  SopNode,
} from './compiled-sop.js';
export { BUNDLE_FORMAT } from './compiled-sop.js';
export type { EvidenceRecord } from './evidence.js';
export {
  entityNames,
  entityValue,
  evidenceOnPath,
  evidenceRecordOf,
  goesOn,
  requirementOf,
  unmetEvidence,
  unprovenEntity,
} from './evidence.js';
export type { Diagnostic, Severity, SourcePosition, SourceSpan, ValidationDetail, ValidationResult } from './diagnostic.js';
export type { NameRecord } from './name-table.js';
export { entryOf, hasEntry } from './name-table.js';
export type { MoveAccepted, MoveRefusal, MoveVerdict, TransitionTable, VisitLimit, Visits } from './transitions.js';
export {
  countVisit,
  decideMove,
  enterPath,
  hasVisitsLeft,
  isLegalMove,
  legalTargets,
  limitedNodes,
  NO_VISITS,
  nextPath,
} from './transitions.js';
