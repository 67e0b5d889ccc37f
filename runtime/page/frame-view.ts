/**
 * Which flowchart the runs page draws for a step of a run, and how the run is marked on it: inside a sub-flow, the
 * called SOP's own flowchart (the frame the current node is in), with the run's marks that belong to that frame
 * read as its own ids; else the run's SOP. A call the frame makes shows on its flowchart as its sub-flow node: visited
 * once the run went in, the moves into and out of the call as moves along that node's edges. The stack the page
 * shows above it (`retail_orders › AUTHENTICATE › authenticate_customer`) comes from the same ids: a qualified id is
 * its frames' sub-flow nodes, then the node. The forks' marks (branches, joins) are those of the frame drawn.
 * Pure and browser-safe: the page's script bundles it.
 */
import { QUALIFIER } from '../../contract/frames.js';
import type { FlowchartMarks } from '../diagram/annotate-flowchart.js';
import type { RunSop } from './run-shapes.js';

export interface FrameView {
  /** The agent whose flowchart is drawn: the run's, or the one the current call is to. */
  readonly agent: string;
  readonly flowchart: string;
  readonly nodeIds: readonly string[];
  readonly marks: FlowchartMarks;
  /** The stack, outermost first: the run's agent, then each sub-flow node with the agent it calls. */
  readonly stack: readonly string[];
}

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
  const head = frame === undefined ? '' : `${prefix}${QUALIFIER}`;
  const own = (id: string) => id.startsWith(head) && !id.slice(head.length).includes(QUALIFIER);
  const local = (id: string) => id.slice(head.length);
  // A node inside a call this frame makes is, on this frame's flowchart, the sub-flow node making the call.
  const under = (id: string) => id.startsWith(head);
  const callNode = (id: string) => id.slice(head.length).split(QUALIFIER, 1)[0]!;
  const framed = within(marks, { own, local, under, callNode }, current);
  if (frame === undefined)
    return { agent: sop.agent, flowchart: sop.flowchart, nodeIds: sop.node_ids.filter((id) => own(id)), marks: framed, stack };
  return { agent: frame.agent, flowchart: frame.flowchart, nodeIds: frame.node_ids, marks: framed, stack };
}

interface FrameIds {
  /** Ids of the frame's own nodes, and each one's id in its SOP. */
  readonly own: (id: string) => boolean;
  readonly local: (id: string) => string;
  /** Ids of the frame's nodes or of nodes inside the calls it makes, and the frame's node each is at. */
  readonly under: (id: string) => boolean;
  readonly callNode: (id: string) => string;
}

function within(marks: FlowchartMarks, ids: FrameIds, current: string | null): FlowchartMarks {
  const { own, local, under, callNode } = ids;
  const pairs = (list: FlowchartMarks['traversed'], keep: (id: string) => boolean, map: (id: string) => string) =>
    (list ?? [])
      .filter(([from, to]) => keep(from) && keep(to))
      .map(([from, to]) => [map(from), map(to)] as const)
      .filter(([from, to]) => from !== to);
  const keyed = <M>(list: readonly (readonly [string, M])[]) =>
    list.filter(([id]) => own(id)).map(([id, mark]) => [local(id), mark] as const);
  return {
    visited: [...new Set(marks.visited.filter(under).map(callNode))],
    current: current !== null && own(current) ? local(current) : null,
    // Moves inside a call collapse onto its sub-flow node (and are dropped as a node's move to itself).
    traversed: pairs(marks.traversed, under, callNode),
    // A refused move's target is the id as the agent asked for it: drawn only when both ends are the frame's own.
    refused: pairs(marks.refused, own, local),
    ...(marks.branches === undefined ? {} : { branches: keyed(marks.branches) }),
    ...(marks.joins === undefined ? {} : { joins: keyed(marks.joins) }),
  };
}
