/**
 * What every tool function returns: the answer (sent as `structuredContent` and as compact JSON text), the
 * session state after the call, and whether the answer is an error. Tool functions are pure: on any error
 * they hand back the session they were given, so a rejected call changes nothing. A tool that can build the
 * text more cheaply than `JSON.stringify(answer)` (goto_node splices prepared JSON) hands it over as `text`;
 * it must be byte-identical to `JSON.stringify(answer)`.
 */
import { z } from 'zod';
import type { SessionState } from '../session/session-state.js';

export interface ToolOutcome<Answer extends object> {
  readonly answer: Answer;
  readonly session: SessionState;
  readonly isError: boolean;
  /** `JSON.stringify(answer)`, when the tool already has it; the server stringifies otherwise. */
  readonly text?: string;
}

/** The shape of every error answer: a message that says what to do, plus tool-specific details. */
export interface ErrorAnswer {
  readonly error: string;
  readonly [detail: string]: unknown;
}

export const errorAnswerSchema = z
  .looseObject({ error: z.string().describe('What went wrong and what to do instead.') })
  .describe('An error answer (isError: true). The session state is unchanged.');

export function succeed<Answer extends object>(answer: Answer, session: SessionState): ToolOutcome<Answer> {
  return { answer, session, isError: false };
}

export function fail(session: SessionState, answer: ErrorAnswer): ToolOutcome<ErrorAnswer> {
  return { answer, session, isError: true };
}

/** The error every tool but `load_graph` gives before an agent is loaded. */
export function noAgentLoaded(session: SessionState, tool: string, why: string): ToolOutcome<ErrorAnswer> {
  return fail(session, { error: `No agent loaded: call load_graph (with agent or sop_file) before ${tool}; ${why}.` });
}
