/**
 * What every tool function returns: the answer (sent as `structuredContent` and as compact JSON text), the
 * run's state after the call, whether the answer is an error, and how the audit log records the call. Tool
 * functions are pure: on any refusal or error they hand back the state they were given, so such a call changes
 * nothing. A tool that can build the text more cheaply than `JSON.stringify(answer)` (goto_node splices
 * prepared JSON) hands it over as `text`; it must be byte-identical to `JSON.stringify(answer)`.
 */
import { z } from 'zod';
import type { MoveRule } from '../../contract/run/move.js';
import type { AuditOutcome, RunState } from '../store/run-store.js';

export interface ToolOutcome<Answer extends object> {
  readonly answer: Answer;
  readonly state: RunState;
  readonly isError: boolean;
  /** `ok`; `refused` for a well-formed call the SOP turns down (an illegal move); `error` for a wrong call. */
  readonly outcome: AuditOutcome;
  /** `JSON.stringify(answer)`, when the tool already has it; the server stringifies otherwise. */
  readonly text?: string;
  /** A refused move: the rule that refused it (`contract/run/move.ts`), kept in the audit entry. */
  readonly rule?: MoveRule;
  /** Observe mode: a move made that enforcement would have refused, by this rule, saying this. */
  readonly would?: { readonly rule: MoveRule; readonly reason: string };
}

/** The shape of every error answer: a message that says what to do, plus tool-specific details. */
export interface ErrorAnswer {
  readonly error: string;
  readonly [detail: string]: unknown;
}

export const errorAnswerSchema = z
  .looseObject({ error: z.string().describe('What went wrong and what to do instead.') })
  .describe('An error answer (isError: true). The run is unchanged.');

export function succeed<Answer extends object>(answer: Answer, state: RunState): ToolOutcome<Answer> {
  return { answer, state, isError: false, outcome: 'ok' };
}

export function fail(state: RunState, answer: ErrorAnswer): ToolOutcome<ErrorAnswer> {
  return { answer, state, isError: true, outcome: 'error' };
}
