/**
 * Turns a `CompiledSop` into the lookup tables `goto_node` answers from, once per agent per process (the
 * catalog caches the result). Every node's answer (`node` and `edges` in the seed's shape) is assembled and
 * frozen here, together with its compact JSON text, so a move costs a Map lookup, a path update and splicing
 * the path's JSON between prepared strings: no XState, no per-call assembly or serialisation of the node.
 * Maps, not plain objects, so ids such as `constructor` or `__proto__` are simply unknown nodes; the compiled tables
 * are read through `entryOf`, so a node named `constructor` is read as itself (`contract/name-table.ts`).
 *
 * The compiler already validated the SOP; the few checks here only catch a hand-edited or mismatched
 * generated module, and turn it into a clear error instead of a wrong answer later.
 */
import type { CompiledSop, SopExample } from '../compiled-sop.js';
import { entryOf } from '../name-table.js';
import { type RunRules, runRules } from '../run/rules.js';
import type { TransitionTable } from '../transitions.js';
import { type AgentDescription, describeAgent } from './load-graph-answer.js';

/** `node` of a `goto_node` answer: prompt, tools and examples only where the node has them. */
export interface NodeAnswer {
  readonly id: string;
  readonly type: string;
  readonly description: string;
  readonly prompt?: string;
  readonly tools?: readonly string[];
  readonly examples?: readonly SopExample[];
}

/** One entry of `edges` in a `goto_node` answer (the compiled edge without its style). */
export interface EdgeAnswer {
  readonly to: string;
  readonly condition: string | null;
  /** The edge is decided by data (`when:`): the condition over an answer read earlier, as written. */
  readonly when?: string;
}

export interface PreparedNode {
  readonly node: NodeAnswer;
  /** Outgoing edges in source order. */
  readonly edges: readonly EdgeAnswer[];
  /** `JSON.stringify(node)`, computed once. */
  readonly nodeJson: string;
  /** `JSON.stringify(edges)`, computed once. */
  readonly edgesJson: string;
  readonly terminal: boolean;
}

export interface PreparedAgent {
  readonly name: string;
  readonly sop: CompiledSop;
  /** `load_graph`'s answer for this agent, but the run id, with its JSON text. */
  readonly description: AgentDescription;
  /** The compiled transition table: what `goto_node` allows (`contract/transitions.ts`). */
  readonly transitions: TransitionTable;
  readonly entryNode: string;
  readonly nodes: ReadonlyMap<string, PreparedNode>;
  /** Node ids in flowchart order. */
  readonly nodeIds: readonly string[];
  readonly terminalNodes: readonly string[];
  /** The SOP's rules as the step function looks them up (`contract/run/`): every tool call is decided with them. */
  readonly rules: RunRules;
}

export function prepareAgent(sop: CompiledSop): PreparedAgent {
  const name = sop.meta.agent;
  const nodeIds = sop.nodeIds;
  const known = new Set(nodeIds);
  const fail = (problem: string): never => {
    throw new Error(`Compiled agent ${name} is inconsistent: ${problem}. Run \`npm run build:sops\` to regenerate it.`);
  };
  const { transitions } = sop;
  if (!known.has(transitions.entry)) fail(`entry node ${transitions.entry} is not a node`);
  for (const hub of transitions.hubs) if (!known.has(hub)) fail(`hub ${hub} is not a node`);
  for (const id of nodeIds) {
    const successors = entryOf(transitions.successors, id);
    if (successors === undefined) fail(`node ${id} has no entry in the transition table`);
    const fromEdges = [...new Set((entryOf(sop.edges, id) ?? []).map((edge) => edge.to))];
    if (fromEdges.join('\n') !== successors!.join('\n')) fail(`the transition table and the edges of ${id} disagree`);
  }

  const terminals = new Set(sop.terminalNodes);
  const nodes = new Map<string, PreparedNode>();
  for (const id of nodeIds) {
    const source = entryOf(sop.nodes, id);
    if (source === undefined) return fail(`node ${id} has no entry in the node table`);
    const conditions = entryOf(sop.conditions, id);
    const edges = (entryOf(sop.edges, id) ?? []).map((edge) => {
      if (!known.has(edge.to)) fail(`edge ${id} --> ${edge.to} leads to an unknown node`);
      const when = conditions === undefined ? undefined : entryOf(conditions, edge.to)?.text;
      return Object.freeze(
        when === undefined ? { to: edge.to, condition: edge.condition } : { to: edge.to, condition: edge.condition, when },
      );
    });
    const node = nodeAnswer(sop, id, source.type, source.description);
    nodes.set(
      id,
      Object.freeze({
        node,
        edges: Object.freeze(edges),
        nodeJson: JSON.stringify(node),
        edgesJson: JSON.stringify(edges),
        terminal: terminals.has(id),
      }),
    );
  }
  return Object.freeze({
    name,
    sop,
    description: describeAgent(sop),
    transitions,
    entryNode: transitions.entry,
    nodes,
    nodeIds,
    terminalNodes: sop.terminalNodes,
    rules: runRules(sop),
  });
}

function nodeAnswer(sop: CompiledSop, id: string, type: string, description: string): NodeAnswer {
  const prompt = entryOf(sop.prompts, id);
  // `toolsByNode` is the compiled allowlist; the prompt's own list is the same data, kept as a fallback.
  const tools = entryOf(sop.toolsByNode, id) ?? prompt?.tools ?? [];
  const answer: { -readonly [K in keyof NodeAnswer]: NodeAnswer[K] } = { id, type, description };
  if (prompt !== undefined && prompt.prompt !== '') answer.prompt = prompt.prompt;
  if (tools.length > 0) answer.tools = Object.freeze([...tools]);
  if (prompt !== undefined && prompt.examples.length > 0) {
    answer.examples = Object.freeze(prompt.examples.map((example) => Object.freeze({ user: example.user, agent: example.agent })));
  }
  return Object.freeze(answer);
}
