/**
 * `sop-toolkit/contract`: what the compiler and everything that consumes its output share. Generated modules
 * import these types (and, for the machines, `enterPath`, `countVisit`, `hasVisitsLeft`, `forkMove` and the sub-flow
 * helpers of `machine-calls.ts`) by package name, so their bytes do not depend on
 * where the toolkit is installed. Browser-safe: no Node built-ins. Explicit, sorted exports. App code that reads a
 * `CompiledSop` table by a name it did not compile (a node id from a request) reads it with `entryOf`.
 */
export type {
  AgentMeta,
  CalledSop,
  CompiledPolicy,
  CompiledSop,
  ConditionOperator,
  ConditionValue,
  DataCondition,
  EdgeStyle,
  EdgeTable,
  EvidenceRequirement,
  FieldCondition,
  McpServerRef,
  ModelSettings,
  NodePrompt,
  PolicyScope,
  SelectorSpec,
  SopBundle,
  SopEdge,
  SopExample,
  SopNode,
  SubflowCall,
} from './compiled-sop.js';
export { BUNDLE_FORMAT } from './compiled-sop.js';
export type { AnswerRecorded, CallOutcome } from './run/answer.js';
export { recordAnswer } from './run/answer.js';
export type { ReadAnswer, RecordedResult } from './run/call-results.js';
export { entityInAnswer, fieldAt, readAnswer, scalarAt } from './run/call-results.js';
export type { CallDecision, CallRefusal, CallRule, ConfirmationInput } from './run/call.js';
export { decideCall } from './run/call.js';
export type { ReadValue } from './run/conditions.js';
export { branchData, compares, conditionHolds } from './run/conditions.js';
export { entityValue, evidenceRecordOf, goesOn, requirementMet, requirementOf, unmetEvidence, unprovenEntity } from './run/evidence.js';
export type { MoveDecision, MoveOptions, MoveRule } from './run/move.js';
export { allowedTargets, decideMove as decideRunMove, resolveTarget } from './run/move.js';
export type { ConfirmationGuard, RunRules } from './run/rules.js';
export { runRules } from './run/rules.js';
export type {
  ConfirmationPass,
  EvidenceRecord,
  Narrowing,
  PendingConfirmation,
  RunState,
  TodoItem,
  Unsettled,
} from './run/state.js';
export { EMPTY_RUN_STATE } from './run/state.js';
export type { Decisions, RunEvent, Step, StepOptions, TodoDecision } from './run/step.js';
export { step, writeTodos } from './run/step.js';
export type { CalledEvent, CalleeRef, CallMemory } from './machine-calls.js';
export { calledEvent, calleeCan, exitFor, memoryOf, resumable, returnedAlong } from './machine-calls.js';
export type { Diagnostic, Severity, SourcePosition, SourceSpan, ValidationDetail, ValidationResult } from './diagnostic.js';
export type { NameRecord } from './name-table.js';
export { entryOf, hasEntry } from './name-table.js';
export type {
  BranchDone,
  ForkMove,
  ForkProgress,
  ForkRule,
  ForkTable,
  MoveAccepted,
  MoveRefusal,
  MoveVerdict,
  Outcome,
  TransitionTable,
  VisitLimit,
  Visits,
} from './transitions.js';
export {
  countVisit,
  decideMove,
  enterPath,
  forkMove,
  forkRuleOf,
  forksOnPath,
  hasVisitsLeft,
  isLegalMove,
  legalTargets,
  limitedNodes,
  NO_FORKS,
  NO_VISITS,
  nextPath,
} from './transitions.js';
