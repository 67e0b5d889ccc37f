/**
 * What the inferred walk adds to a conversation: the moves on to a terminal node after the last call, where they
 * leave no trace, and the conversation with the walk's moves written in as inferred goto_node calls (for the step
 * checks, which need a position).
 */
import type { Conversation, ConversationEvent, ToolCallEvent } from '../replay/conversation.js';
import type { AlignModel, RunMove } from './align-model.js';
import type { AlignMove, TraceEvent } from './align.js';
import { moveCost, type MoveView } from './cost-model.js';

/** Tools of the toolkit: not the SOP's, never left out of a conversation. */
export const TOOLKIT = new Set(['load_graph', 'goto_node', 'todo', 'inspect']);

/**
 * After the last call, the shortest way on to a terminal node through nodes without tools (decision nodes, the
 * END_* nodes), at no cost: a conversation that answered a question at INFO ended at END_INFO, which leaves no
 * trace. Nothing when the walk cannot get there that way.
 */
export function complete(model: AlignModel, state: number, called: boolean, view: MoveView): RunMove[] {
  const start = model.state(state);
  if (start.node >= 0 && model.terminal[start.node] === 1) return [];
  const seen = new Set<number>([state]);
  let frontier: { state: number; called: boolean; moves: RunMove[] }[] = [{ state, called, moves: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { state: id, called: wasCalled, moves } of frontier) {
      const from = model.state(id);
      for (const move of model.movesOf(from)) {
        if (seen.has(move.next) || model.hasTools[move.target] === 1) continue;
        if (moveCost(model, from, wasCalled, move, false, view) > 0) continue;
        seen.add(move.next);
        const path = [...moves, move];
        if (model.terminal[move.target] === 1) return path;
        next.push({ state: move.next, called: false, moves: path });
      }
    }
    frontier = next;
  }
  return [];
}

/** The conversation with the walk's moves written in as inferred goto_node calls, and unknown tools left out. */
export function effectiveConversation(
  conversation: Conversation,
  trace: readonly TraceEvent[],
  moves: readonly AlignMove[],
  completion: readonly RunMove[],
  model: AlignModel,
): Conversation {
  const events = conversation.events;
  const after = new Map<number, ToolCallEvent[]>();
  const insert = (position: number, move: RunMove): void => {
    const anchor = position > 0 ? trace[position - 1]!.index : -1;
    const place = (position < trace.length ? events[trace[position]!.index] : events[trace.at(-1)?.index ?? 0])?.place ?? { message: 0 };
    const list = after.get(anchor) ?? [];
    list.push({
      kind: 'call',
      tool: 'goto_node',
      args: { node_id: model.nodes[move.target]! },
      inferred: true,
      ...(move.limit ? { forced: true as const } : {}),
      place,
    });
    after.set(anchor, list);
  };
  for (const move of moves) if (move.type === 'silent') insert(move.before, move.move);
  for (const move of completion) insert(trace.length, move);
  const aligned = new Set(trace.map((event) => event.index));
  const result: ConversationEvent[] = [...(after.get(-1) ?? [])];
  for (const [index, event] of events.entries()) {
    if (event.kind !== 'call' || aligned.has(index) || TOOLKIT.has(event.tool)) result.push(event);
    result.push(...(after.get(index) ?? []));
  }
  return { ...conversation, events: result };
}
