/**
 * A tool call as the session service's parts see it: who makes it, and what it answers, a tool result or (gateway
 * mode) a question for the user that the call waits on; and the answers every part gives alike: a tool's outcome as a
 * result, an error that changes nothing, the store failing.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from '../support/logger.js';
import { EMPTY_RUN_STATE } from '../store/run-store.js';
import type { ConfirmationQuestion } from '../tools/confirmation.js';
import { fail, type ToolOutcome } from '../tools/tool-outcome.js';

/** Who makes a call, and in which session. */
export interface Caller {
  /** The authenticated principal; `local` over stdio and on unauthenticated loopback HTTP. */
  readonly principal: string;
  /** The session whose current run is implied when a call names no `run_id` (stdio, `Mcp-Session-Id`). */
  readonly sessionId?: string | undefined;
  /**
   * How calls reach the server: a long-lived `connection` (stdio, in process), over which it can ask the client
   * mid-call in either protocol era, or one HTTP `request`, where it can only in the 2026-07-28 era (default).
   */
  readonly channel?: 'connection' | 'request';
}

/** A question for the user that a call waits on (gateway mode). */
export interface CallQuestion {
  readonly question: ConfirmationQuestion;
}

/** A call's answer: a tool result, or (gateway mode) a question for the user that the call waits on. */
export type CallAnswer = CallToolResult | CallQuestion;

export function isQuestion(answer: CallAnswer): answer is CallQuestion {
  return typeof (answer as Partial<CallQuestion>).question === 'object' && (answer as Partial<CallQuestion>).question !== null;
}

/** The tool result of a call that cannot ask (no gateway): a question here is a bug, and says so. */
export function resultOf(answer: CallAnswer): CallToolResult {
  if (isQuestion(answer)) throw new Error(`expected a tool result, got a question: ${answer.question.message}`);
  return answer;
}

/** A tool's outcome as MCP sends it: the answer as structured content and as compact JSON text. */
export function answerOf(outcome: ToolOutcome<object>): CallToolResult {
  const structuredContent = outcome.answer as Record<string, unknown>;
  const text = outcome.text ?? JSON.stringify(structuredContent);
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent };
  if (outcome.isError) result.isError = true;
  return result;
}

/** An error answer to a call that changed nothing (no run, an unknown or expired run, …). */
export function errorAnswer(error: string): CallToolResult {
  return answerOf(fail(EMPTY_RUN_STATE, { error }));
}

/** The store failed during `tool`: logged with its details, answered in one line. */
export function storeFailure(logger: Logger, tool: string, error: unknown): CallToolResult {
  logger.error(`the run store failed during ${tool}`, error);
  return errorAnswer(`The run store is unavailable (${reason(error)}); ${tool} was not applied. Try again.`);
}

export function unknownRun(runId: string): string {
  return `Unknown run: ${runId}. Start one with load_graph; it returns the run_id to pass.`;
}

/** An error's message on one line, for answers: details go to the log. */
export function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]?.slice(0, 300) ?? 'unknown error';
}
