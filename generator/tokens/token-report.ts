/**
 * What a compiled agent costs a model, in tokens (o200k): the system prompt, each node's prompt, and each node's
 * typical `goto_node` answer, i.e. the exact text the server sends on arriving at the node along the shortest path
 * from the entry node (no todo reminder). The answer is made as the server makes it (`contract/answers/`: the prepared
 * agent and the answer to a move, as `goto_node` without a gateway sends it), so the count is of the bytes the model
 * reads, not of an estimate.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { answerMove } from '../../contract/answers/goto-answer.js';
import { prepareAgent } from '../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE, type RunState } from '../../contract/run/state.js';
import type { CountTokens } from './token-counter.js';

export interface NodeTokens {
  readonly node: string;
  /** The node's prompt text; null when it has none. */
  readonly prompt: number | null;
  /** The `goto_node` answer on arriving along `path`; null when the node cannot be reached from the entry node. */
  readonly goto_answer: number | null;
  readonly path: readonly string[] | null;
}

export interface AgentTokenReport {
  readonly agent: string;
  readonly encoding: 'o200k_base';
  readonly system_prompt: number;
  /** In flowchart order. */
  readonly nodes: readonly NodeTokens[];
  readonly largest_goto_answer: { readonly node: string; readonly tokens: number } | null;
}

export function tokenReport(sop: CompiledSop, count: CountTokens): AgentTokenReport {
  const arrivals = arrivalsAlongShortestPaths(sop);
  const nodes = sop.nodeIds.map((node): NodeTokens => {
    const prompt = entryOf(sop.prompts, node)?.prompt;
    const arrival = arrivals.get(node);
    return {
      node,
      prompt: prompt === undefined || prompt === '' ? null : count(prompt),
      goto_answer: arrival === undefined ? null : count(arrival.text),
      path: arrival?.state.path ?? null,
    };
  });
  const largest = nodes.reduce<NodeTokens | null>(
    (best, n) => (n.goto_answer !== null && (best === null || n.goto_answer > best.goto_answer!) ? n : best),
    null,
  );
  return {
    agent: sop.meta.agent,
    encoding: 'o200k_base',
    system_prompt: count(sop.systemPrompt),
    nodes,
    largest_goto_answer: largest === null ? null : { node: largest.node, tokens: largest.goto_answer! },
  };
}

interface Arrival {
  readonly state: RunState;
  readonly text: string;
}

/**
 * For every node the entry node reaches: the run state and the answer text on arriving there along the shortest
 * path (breadth-first, edges in order), each made by one `goto_node` from its predecessor's state. One move per
 * node, not one walk per node: a 500-node chain would otherwise replay 125,000 moves.
 */
function arrivalsAlongShortestPaths(sop: CompiledSop): Map<string, Arrival> {
  const agent = prepareAgent(sop);
  const arrive = (state: RunState, node: string): Arrival => {
    const outcome = answerMove(agent, state, node, undefined, { domainCalls: false });
    return { state: outcome.state, text: outcome.text ?? JSON.stringify(outcome.answer) };
  };
  const entry = sop.transitions.entry;
  const arrivals = new Map<string, Arrival>([[entry, arrive(EMPTY_RUN_STATE, entry)]]);
  const queue = [entry];
  for (let i = 0; i < queue.length; i++) {
    const from = arrivals.get(queue[i]!)!;
    for (const to of entryOf(sop.transitions.successors, queue[i]!) ?? []) {
      if (arrivals.has(to)) continue;
      arrivals.set(to, arrive(from.state, to));
      queue.push(to);
    }
  }
  return arrivals;
}
