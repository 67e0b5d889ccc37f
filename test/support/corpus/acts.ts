/**
 * A conversation as what happens in it, before it is recorded or written: the user speaks, the agent speaks, moves
 * to a node of the SOP (a `goto_node` when it declares its moves), or calls a tool. Each act says what part it plays
 * (the lookup that authenticates, the read of an order, the change, the confirmation asked and given…), so a
 * deviation can be planted by rewriting the acts, and a test can find them.
 *
 * `placeSteps` lays an intent's steps along its walk: each call at the first node from where the agent is that
 * offers its tool, with the moves that get there before it.
 */
import type { CompiledSop } from '../../../contract/compiled-sop.js';

/** What part an act plays. */
export type Role =
  /** A lookup at authentication (`find_user_id_*`), and the talk of a failed one retried. */
  | 'lookup'
  | 'retry-talk'
  /** A read of the order an intent is about (`get_order_details`). */
  | 'read'
  /** A change of data (the tools a confirmation policy guards), the agent's question before it, the user's yes. */
  | 'change'
  | 'ask'
  | 'yes'
  /** Anything else: other lookups, what is said around them. */
  | 'other';

export type Act =
  | { readonly act: 'user'; readonly text: string; readonly role?: Role; readonly intent?: number }
  | { readonly act: 'say'; readonly text: string; readonly role?: Role; readonly intent?: number }
  | { readonly act: 'move'; readonly node: string; readonly intent?: number }
  | {
      readonly act: 'call';
      readonly tool: string;
      readonly args: Readonly<Record<string, unknown>>;
      /** The node of the walk where the call is made. */
      readonly node: string;
      readonly role: Role;
      readonly intent?: number;
      /** The answer never came back (it timed out after it may have reached the server). */
      readonly lost?: true;
    }
  | { readonly act: 'todo'; readonly todos: readonly Todo[] };

export interface Todo {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
  readonly completion_node: string;
}

export type Line = { readonly user: string; readonly role?: Role } | { readonly say: string; readonly role?: Role };

/** One thing an intent does: lines, a call, lines; `at` moves to a node first (a step without a call). */
export interface Step {
  readonly at?: string;
  readonly before?: readonly Line[];
  readonly call?: { readonly tool: string; readonly args: Readonly<Record<string, unknown>>; readonly role: Role };
  readonly after?: readonly Line[];
}

export function lineAct(line: Line, intent?: number): Act {
  const tag = { ...(line.role === undefined ? {} : { role: line.role }), ...(intent === undefined ? {} : { intent }) };
  return 'user' in line ? { act: 'user', text: line.user, ...tag } : { act: 'say', text: line.say, ...tag };
}

/**
 * The acts of `steps` along `walk` (nodes in order, the first one not yet entered), ending on its last node, then
 * `closing`. Throws when a call's tool is offered nowhere ahead on the walk: the intent does not fit the SOP.
 */
export function placeSteps(
  sop: CompiledSop,
  walk: readonly string[],
  steps: readonly Step[],
  closing: readonly Line[],
  intent?: number,
): Act[] {
  const acts: Act[] = [];
  const tag = intent === undefined ? {} : { intent };
  let at = -1;
  const moveTo = (index: number) => {
    for (let next = at + 1; next <= index; next++) acts.push({ act: 'move', node: walk[next]!, ...tag });
    at = Math.max(at, index);
  };
  const offers = (index: number, tool: string) => (sop.toolsByNode[walk[index]!] ?? []).includes(tool);
  for (const step of steps) {
    if (step.at !== undefined) {
      const index = walk.indexOf(step.at, Math.max(at, 0));
      if (index < 0) throw new Error(`the walk ${walk.join(' ')} has no ${step.at} after ${walk[at] ?? 'its start'}`);
      moveTo(index);
    }
    let callAt = at;
    if (step.call !== undefined) {
      const tool = step.call.tool;
      callAt = at >= 0 && offers(at, tool) ? at : walk.findIndex((_node, index) => index > at && offers(index, tool));
      if (callAt < 0) throw new Error(`no node of the walk ${walk.join(' ')} from ${walk[at] ?? 'its start'} offers ${tool}`);
      moveTo(callAt);
    }
    for (const line of step.before ?? []) acts.push(lineAct(line, intent));
    if (step.call !== undefined) acts.push({ act: 'call', ...step.call, node: walk[callAt]!, ...tag });
    for (const line of step.after ?? []) acts.push(lineAct(line, intent));
  }
  moveTo(walk.length - 1);
  for (const line of closing) acts.push(lineAct(line, intent));
  return acts;
}
