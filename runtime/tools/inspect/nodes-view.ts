/**
 * `inspect` view `nodes`: details of a batch of nodes of the run's agent (its pinned version), in the order
 * asked, as seed 001's `get_node_details` answers: per id the node as `goto_node` would present it (type,
 * description, prompt, tools, examples), its edges and whether it is a decision or terminal node; an unknown id
 * gets an entry of its own with the error and the closest known id, so one typo does not fail the batch.
 * Lets an agent read ahead without moving.
 */
import { z } from 'zod';
import type { PreparedAgent } from '../../../contract/answers/prepared-agent.js';
import { edgeSchema, nodeSchema } from '../goto-node.js';
import { succeed } from '../tool-outcome.js';
import type { RunView } from './inspect-view.js';

export const MAX_NODE_IDS = 50;

const foundSchema = nodeSchema.extend({ edges: z.array(edgeSchema), decision: z.boolean(), terminal: z.boolean() });
const missingSchema = z.object({ id: z.string(), error: z.string(), did_you_mean: z.string().optional() });
const nodesAnswer = z.object({ nodes: z.array(z.union([foundSchema, missingSchema])) });

export const nodesView: RunView = {
  name: 'nodes',
  summary: 'nodes: details of the nodes in `ids` (type, label, prompt, tools, examples, edges)',
  fields: {
    ids: z.array(z.string().min(1).max(200)).min(1).max(MAX_NODE_IDS).describe('nodes: node ids'),
  },
  required: ['ids'],
  answer: nodesAnswer,
  onRun(agent, state, input) {
    const decisions = new Set(agent.sop.decisionNodes);
    const nodes = (input.ids ?? []).map((id) => {
      const prepared = agent.nodes.get(id);
      if (prepared === undefined) return missing(agent, id);
      return { ...prepared.node, edges: prepared.edges, decision: decisions.has(id), terminal: prepared.terminal };
    });
    return succeed({ nodes }, state);
  },
};

function missing(agent: PreparedAgent, id: string): z.output<typeof missingSchema> {
  // The same hint goto_node gives for an unknown id: the id that differs only in case.
  const lower = id.toLowerCase();
  const near = agent.nodeIds.find((known) => known.toLowerCase() === lower);
  return { id, error: `Node not found in ${agent.name}`, ...(near === undefined ? {} : { did_you_mean: near }) };
}
