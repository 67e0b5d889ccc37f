/**
 * `load_graph`: start a run of a compiled agent and describe the agent (the seed's answer, plus the system
 * prompt text and the new run's `run_id`). Nothing is parsed here: the compiler decided everything at build
 * time. Every call starts a new run (path and todos empty), pinned to the SOP version it was compiled from; with
 * a session (stdio, `Mcp-Session-Id`) it becomes the session's current run.
 *
 * The agent is chosen by `agent` name or by `sop_file` (the SOP's project path, as in the seed); finding and
 * checking it is I/O and lives in `agents/select-agent.ts`. This module is the tool's schemas and its pure part: the
 * agent's part of the answer and its JSON text are made once per prepared agent (`PreparedAgent.description`,
 * `contract/answers/load-graph-answer.ts`), and each answer splices the run id in front of that text.
 */
import { z } from 'zod';
import type { LoadGraphAnswer } from '../../contract/answers/load-graph-answer.js';
import type { PreparedAgent } from '../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE } from '../store/run-store.js';
import { errorAnswerSchema, type ToolOutcome } from './tool-outcome.js';

export const LOAD_GRAPH = 'load_graph';

export const loadGraphDescription =
  'Select the SOP agent for this conversation and return its configuration, graph summary and system prompt. ' +
  'Give exactly one of `agent` (a compiled agent name) or `sop_file` (the project path of its SOP, e.g. ' +
  '`sops/retail_customer_support.md`; a SOP changed since `npm run build:sops` is refused). ' +
  'Call it once at the start: it starts a new run (empty path and todo list) and returns its `run_id`. ' +
  'Then call goto_node with the entry node.';

export const loadGraphInput = z
  .strictObject({
    agent: z.string().min(1).max(200).optional().describe('Name of a compiled agent, e.g. retail_customer_support.'),
    sop_file: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe('Project-relative path of a compiled SOP markdown file, e.g. sops/retail_customer_support.md. URLs are not accepted.'),
  })
  .refine((input) => (input.agent === undefined) !== (input.sop_file === undefined), {
    message: 'Give exactly one of agent or sop_file.',
  });
export type LoadGraphInput = z.output<typeof loadGraphInput>;

const loadGraphAnswerSchema = z.object({
  run_id: z.string().describe('The new run: pass it as run_id to goto_node and todo (needed without a session).'),
  agent: z.string(),
  version: z.string(),
  entry_node: z.string(),
  model: z.record(z.string(), z.unknown()).nullable(),
  mcp_servers: z
    .array(z.object({ name: z.string(), url: z.string().optional(), command: z.string().optional() }))
    .describe("The SOP's domain servers: where its tools come from (how they are reached is the gateway's business)."),
  graph: z.object({
    node_count: z.number().int(),
    decision_nodes: z.array(z.string()),
    terminal_nodes: z.array(z.string()),
    nodes_with_prompts: z.array(z.string()),
  }),
  system_prompt_sections: z.array(z.string()),
  system_prompt: z.string(),
}) satisfies z.ZodType<LoadGraphAnswer>;

export const loadGraphOutput = z.union([loadGraphAnswerSchema, errorAnswerSchema]);

export function loadGraph(agent: PreparedAgent, runId: string): ToolOutcome<LoadGraphAnswer> {
  const { answer, text } = agent.description;
  return {
    answer: { run_id: runId, ...answer },
    state: EMPTY_RUN_STATE,
    isError: false,
    outcome: 'ok',
    text: `{"run_id":${JSON.stringify(runId)},${text.slice(1)}`,
  };
}
