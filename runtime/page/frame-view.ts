/**
 * Which flowchart the runs page draws for a step of a run, and how the run is marked on it: inside a sub-flow, the
 * called SOP's own flowchart (the frame the current node is in), with the run's marks that belong to that frame
 * read as its own ids; else the run's SOP. The stack the page shows above it (`retail_orders › AUTHENTICATE ›
 * authenticate_customer`) comes from the same ids: a qualified id is its frames' sub-flow nodes, then the node.
 * Pure and browser-safe: the page's script bundles it.
 */
import type { FlowchartMarks } from '../diagram/annotate-flowchart.js';
import type { RunSop } from './run-shapes.js';

export interface FrameView {
  readonly flowchart: string;
  readonly nodeIds: readonly string[];
  readonly marks: FlowchartMarks;
  /** The stack, outermost first: the run's agent, then each sub-flow node with the agent it calls. */
  readonly stack: readonly string[];
}

const QUALIFIER = '.';

export function frameView(sop: RunSop, marks: FlowchartMarks): FrameView {
  const current = marks.current;
  const parts = current === null ? [] : current.split(QUALIFIER);
  const prefix = parts.slice(0, -1).join(QUALIFIER);
  const frame = prefix === '' ? undefined : Object.hasOwn(sop.frames ?? {}, prefix) ? sop.frames?.[prefix] : undefined;
  const stack = [sop.agent];
  for (let i = 1; i < parts.length; i++) {
    const call = parts.slice(0, i).join(QUALIFIER);
    const info = Object.hasOwn(sop.frames ?? {}, call) ? sop.frames?.[call] : undefined;
    stack.push(`${parts[i - 1]} → ${info?.agent ?? '?'}`);
  }
  if (frame === undefined) {
    const own = (id: string) => !id.includes(QUALIFIER);
    return { flowchart: sop.flowchart, nodeIds: sop.node_ids.filter(own), marks: within(marks, own, (id) => id, current), stack };
  }
  const head = `${prefix}${QUALIFIER}`;
  const inFrame = (id: string) => id.startsWith(head) && !id.slice(head.length).includes(QUALIFIER);
  const local = (id: string) => id.slice(head.length);
  return { flowchart: frame.flowchart, nodeIds: frame.node_ids, marks: within(marks, inFrame, local, current), stack };
}

function within(
  marks: FlowchartMarks,
  keep: (id: string) => boolean,
  local: (id: string) => string,
  current: string | null,
): FlowchartMarks {
  const pairs = (list: FlowchartMarks['traversed']) =>
    (list ?? []).filter(([from, to]) => keep(from) && keep(to)).map(([from, to]) => [local(from), local(to)] as const);
  return {
    visited: marks.visited.filter(keep).map(local),
    current: current !== null && keep(current) ? local(current) : null,
    traversed: pairs(marks.traversed),
    refused: pairs(marks.refused),
  };
}
