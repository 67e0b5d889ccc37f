/**
 * `inspect` view `diagram`: the run on its flowchart, as Mermaid text a model can read and any Mermaid can
 * render: the author's source (of the version the run is pinned to) with the path and the current node marked
 * by appended `classDef`/`class` lines (`diagram/annotate-flowchart.ts`). Node marks only: edge classes need
 * Mermaid 11, and a client may render with an older one.
 */
import { z } from 'zod';
import { annotateFlowchart } from '../../diagram/annotate-flowchart.js';
import { succeed } from '../tool-outcome.js';
import type { RunView } from './inspect-view.js';

const diagramAnswer = z.object({
  run_id: z.string(),
  agent: z.string(),
  current_node: z.string().nullable(),
  path: z.array(z.string()),
  mermaid: z.string().describe('The flowchart; path nodes in class sop_visited, the current node in class sop_current.'),
});

export const diagramView: RunView = {
  name: 'diagram',
  summary: "diagram: the run's Mermaid flowchart with the path and current node marked",
  fields: {},
  required: [],
  answer: diagramAnswer,
  onRun(agent, state, _input, run) {
    const current = state.path.at(-1) ?? null;
    const mermaid = annotateFlowchart(agent.sop.flowchart, agent.nodeIds, { visited: state.path, current });
    return succeed({ run_id: run.runId, agent: agent.name, current_node: current, path: state.path, mermaid }, state);
  },
};
