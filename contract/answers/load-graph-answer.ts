/**
 * `load_graph`'s answer, but the run id: what the server tells an agent about the SOP it starts a run of (the seed's
 * answer, plus the system prompt text). Made once per prepared agent, with its JSON text, so that each answer only
 * splices the run id in front of that text. Pure and browser-safe.
 */
import type { CompiledSop } from '../compiled-sop.js';
import { entryOf } from '../name-table.js';

/** The answer to `load_graph` (the runtime's output schema lists the same fields for clients). */
export interface LoadGraphAnswer {
  readonly run_id: string;
  readonly agent: string;
  readonly version: string;
  readonly entry_node: string;
  readonly model: Record<string, unknown> | null;
  /** The SOP's domain servers: name and address only (how they are reached is the gateway's business). */
  readonly mcp_servers: { name: string; url?: string; command?: string }[];
  readonly graph: {
    node_count: number;
    decision_nodes: string[];
    terminal_nodes: string[];
    nodes_with_prompts: string[];
  };
  readonly system_prompt_sections: string[];
  readonly system_prompt: string;
}

/** The agent's part of the answer (everything but `run_id`) and its JSON text, made once per prepared agent. */
export interface AgentDescription {
  readonly answer: Omit<LoadGraphAnswer, 'run_id'>;
  readonly text: string;
}

export function describeAgent(sop: CompiledSop): AgentDescription {
  // Parsed back from its text: a copy the answer owns entirely (nothing shared with the bundle's objects).
  const text = JSON.stringify(answerOf(sop));
  return Object.freeze({ answer: deepFreeze(JSON.parse(text) as Omit<LoadGraphAnswer, 'run_id'>), text });
}

function answerOf(sop: CompiledSop): Omit<LoadGraphAnswer, 'run_id'> {
  return {
    agent: sop.meta.agent,
    version: sop.meta.version,
    entry_node: sop.transitions.entry,
    model: sop.meta.model,
    // Name and address only: arguments, environment and headers are the gateway's business, not the model's.
    mcp_servers: sop.meta.mcpServers.map((server) => ({
      name: server.name,
      ...(server.url === undefined ? {} : { url: server.url }),
      ...(server.command === undefined ? {} : { command: server.command }),
    })),
    graph: {
      node_count: sop.nodeIds.length,
      decision_nodes: [...sop.decisionNodes],
      terminal_nodes: [...sop.terminalNodes],
      nodes_with_prompts: sop.nodeIds.filter((id) => entryOf(sop.prompts, id) !== undefined),
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
