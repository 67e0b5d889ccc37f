/**
 * `inspect` view `agents`: the compiled agents new runs start on (the catalog as last loaded), with what an
 * agent or a person needs to pick one: name, description, version, node count, entry node, source file and
 * source hash (the version a run started now would be pinned to). Needs no run.
 */
import { z } from 'zod';
import { EMPTY_RUN_STATE } from '../../store/run-store.js';
import { succeed } from '../tool-outcome.js';
import type { RunlessView } from './inspect-view.js';

const agentsAnswer = z.object({
  agents: z.array(
    z.object({
      name: z.string(),
      description: z.string().nullable(),
      version: z.string(),
      node_count: z.number().int(),
      entry_node: z.string(),
      source_file: z.string(),
      source_hash: z.string(),
    }),
  ),
});

export const agentsView: RunlessView = {
  name: 'agents',
  summary: 'agents: the compiled agents (name, description, node count, source hash); needs no run',
  fields: {},
  required: [],
  answer: agentsAnswer,
  async runless(_input, { catalog }) {
    const agents = catalog.entries.map((sop) => ({
      name: sop.meta.agent,
      description: sop.meta.description,
      version: sop.meta.version,
      node_count: sop.nodeIds.length,
      entry_node: sop.transitions.entry,
      source_file: sop.sourceFile,
      source_hash: sop.sourceHash,
    }));
    return succeed({ agents }, EMPTY_RUN_STATE);
  },
};
