/**
 * `load_graph`: select a compiled agent for this conversation and describe it (the seed's answer, plus the
 * system prompt text). Nothing is parsed here: the compiler decided everything at build time. Selecting an
 * agent, even the same one again, starts the conversation over: path, opened hubs and todos are cleared.
 *
 * The agent is chosen by `agent` name or by `sop_file` (the SOP's project path, as in the seed); finding and
 * checking it is I/O and lives in `agents/select-agent.ts`. This module is the pure part.
 *
 * The answer depends on the agent alone, and so does the fresh session it starts: both, and the answer's
 * JSON text, are made once per agent and shared (frozen) by every conversation that loads it. Every HTTP
 * session starts with this call, so it costs no allocation beyond the SDK's own.
 */
import { z } from 'zod';
import type { PreparedAgent } from '../agents/prepared-agent.js';
import { EMPTY_SESSION, type SessionState } from '../session/session-state.js';
import { errorAnswerSchema, type ToolOutcome } from './tool-outcome.js';

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

interface LoadedAgent {
  readonly answer: LoadGraphAnswer;
  readonly text: string;
  readonly session: SessionState;
}

const loadedAgents = new WeakMap<PreparedAgent, LoadedAgent>();

export function loadGraph(agent: PreparedAgent, _session: SessionState, _input: LoadGraphInput): ToolOutcome<LoadGraphAnswer> {
  let loaded = loadedAgents.get(agent);
  if (loaded === undefined) {
    // Parsed back from its text: a copy the answer owns entirely (nothing shared with the compiled module).
    const text = JSON.stringify(answerOf(agent));
    const answer = deepFreeze(JSON.parse(text) as LoadGraphAnswer);
    loaded = Object.freeze({ answer, text, session: Object.freeze({ ...EMPTY_SESSION, agent: agent.name }) });
    loadedAgents.set(agent, loaded);
  }
  return { answer: loaded.answer, session: loaded.session, isError: false, text: loaded.text };
}

function answerOf(agent: PreparedAgent): LoadGraphAnswer {
  const { sop } = agent;
  return {
    agent: sop.meta.agent,
    version: sop.meta.version,
    entry_node: sop.transitions.entry,
    model: sop.meta.model,
    mcp_servers: [...sop.meta.mcpServers],
    graph: {
      node_count: sop.nodeIds.length,
      decision_nodes: [...sop.decisionNodes],
      terminal_nodes: [...sop.terminalNodes],
      nodes_with_prompts: sop.nodeIds.filter((id) => sop.prompts[id] !== undefined),
    },
    system_prompt_sections: [...sop.systemPromptSections],
    system_prompt: sop.systemPrompt,
  };
}

/** Freezes `value` and every object and array in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
