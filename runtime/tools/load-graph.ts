/**
 * `load_graph`: select a compiled agent for this conversation and describe it (the seed's answer, plus the
 * system prompt text). Nothing is parsed here: the compiler decided everything at build time. Selecting an
 * agent, even the same one again, starts the conversation over: path, opened hubs and todos are cleared.
 *
 * The agent is chosen by `agent` name or by `sop_file` (the SOP's project path, as in the seed); finding and
 * checking it is I/O and lives in `agents/select-agent.ts`. This module is the pure part.
 */
import { z } from 'zod';
import type { PreparedAgent } from '../agents/prepared-agent.js';
import { EMPTY_SESSION, type SessionState } from '../session/session-state.js';
import { errorAnswerSchema, succeed, type ToolOutcome } from './tool-outcome.js';

export const LOAD_GRAPH = 'load_graph';

export const loadGraphDescription =
  'Select the SOP agent for this conversation and return its configuration, graph summary and system prompt. ' +
  'Give exactly one of `agent` (a compiled agent name) or `sop_file` (the project path of its SOP, e.g. ' +
  '`sops/retail_customer_support.md`; a SOP changed since `npm run build:sops` is refused). ' +
  'Call it once at the start: it resets the path and the todo list. Then call goto_node with the entry node.';

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
  agent: z.string(),
  version: z.string(),
  entry_node: z.string(),
  model: z.record(z.string(), z.unknown()).nullable(),
  mcp_servers: z.array(z.looseObject({ name: z.string() })),
  graph: z.object({
    node_count: z.number().int(),
    decision_nodes: z.array(z.string()),
    terminal_nodes: z.array(z.string()),
    nodes_with_prompts: z.array(z.string()),
  }),
  system_prompt_sections: z.array(z.string()),
  system_prompt: z.string(),
});
export type LoadGraphAnswer = z.output<typeof loadGraphAnswerSchema>;

export const loadGraphOutput = z.union([loadGraphAnswerSchema, errorAnswerSchema]);

export function loadGraph(agent: PreparedAgent, _session: SessionState, _input: LoadGraphInput): ToolOutcome<LoadGraphAnswer> {
  const { sop } = agent;
  const answer: LoadGraphAnswer = {
    agent: sop.meta.agent,
    version: sop.meta.version,
    entry_node: sop.entryNode,
    model: sop.meta.model === null ? null : { ...sop.meta.model },
    mcp_servers: sop.meta.mcpServers.map((server) => ({ ...server })),
    graph: {
      node_count: sop.nodeIds.length,
      decision_nodes: [...sop.decisionNodes],
      terminal_nodes: [...sop.terminalNodes],
      nodes_with_prompts: sop.nodeIds.filter((id) => sop.prompts[id] !== undefined),
    },
    system_prompt_sections: [...sop.systemPromptSections],
    system_prompt: sop.systemPrompt,
  };
  return succeed(answer, { ...EMPTY_SESSION, agent: agent.name });
}
