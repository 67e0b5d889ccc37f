/**
 * What a generated machine needs to call another SOP's machine, as its caller's sub-flow node does: the called
 * machine runs as a child actor while the caller is at the sub-flow node; the caller forwards `GOTO.<call>.<id>`
 * events to it as `GOTO.<id>`, goes on along one of its own edges once the child stands on a terminal node that
 * maps to that edge (`exitFor`, the rule the server's expansion follows), and keeps the child's visit counts between
 * calls (`CallMemory`), so a visit limit inside a sub-flow holds across calls as it does on the server.
 *
 * Pure and browser-safe: no XState import. The machine a generated module builds is used through the few methods
 * every XState v5 machine has (`getInitialSnapshot`, `resolveState`).
 */
import type { SopEdge } from './compiled-sop.js';
import { entryOf } from './name-table.js';
import type { Visits } from './transitions.js';

/** What a caller keeps of a call between visits of its sub-flow node: the called machine's visits, and its own calls. */
export interface CallMemory {
  readonly visits?: Visits;
  readonly calls?: { readonly [node: string]: CallMemory };
}

/** A called machine's event as its caller receives it: `GOTO.VERIFY` of the call at `AUTHENTICATE` is `GOTO.AUTHENTICATE.VERIFY`. */
export type CalledEvent<Call extends string, E extends { readonly type: string }> = E extends { readonly type: `GOTO.${infer Id}` }
  ? Omit<E, 'type'> & { readonly type: `GOTO.${Call}.${Id}` }
  : never;

/** The event the called machine receives for `event` sent to its caller (`GOTO.<call>.<id>` → `GOTO.<id>`). */
export function calledEvent<E extends { readonly type: string }>(call: string, event: E): E {
  return { ...event, type: `GOTO.${event.type.slice(`GOTO.${call}.`.length)}` };
}

/**
 * The edge of a sub-flow node (`edges`, its `exits` as declared) that the called SOP's terminal `terminal` (labelled
 * `label`) leads on along: the declared exit's, else the first edge labelled with the terminal's id or label (trimmed,
 * in any case), else the node's only edge when it has no label.
 */
export function exitFor(
  edges: readonly SopEdge[],
  exits: { readonly [terminal: string]: string },
  terminal: string,
  label: string | null,
): SopEdge | undefined {
  const declared = entryOf(exits, terminal);
  if (declared !== undefined) return edges.find((edge) => edge.to === declared);
  const text = (value: string | null) => (value ?? '').trim().toLowerCase();
  const names = [text(terminal), text(label)];
  const labelled = edges.find((edge) => edge.condition !== null && names.includes(text(edge.condition)));
  if (labelled !== undefined) return labelled;
  return edges.length === 1 && edges[0]!.condition === null ? edges[0] : undefined;
}

/** What the caller reads of its child actor: its snapshot's state, tags, context, and the moves it can make. */
export interface CalleeRef {
  getSnapshot(): {
    readonly value: unknown;
    readonly context: unknown;
    hasTag(tag: 'terminal'): boolean;
    can(event: never): boolean;
    readonly machine: { readonly root: { readonly states: { readonly [id: string]: { readonly description?: string | undefined } } } };
  };
}

/** Whether the called machine can make the move `event` (a `GOTO.<call>.<id>` event of its caller). */
export function calleeCan(callee: CalleeRef | null, call: string, event: { readonly type: string }): boolean {
  return callee?.getSnapshot().can(calledEvent(call, event) as never) ?? false;
}

/** Whether the called machine stands on a terminal node that leads on along the caller's edge to `to`. */
export function returnedAlong(
  callee: CalleeRef | null,
  edges: readonly SopEdge[],
  exits: { readonly [terminal: string]: string },
  to: string,
): boolean {
  if (callee === null) return false;
  const snapshot = callee.getSnapshot();
  if (!snapshot.hasTag('terminal')) return false;
  const terminal = String(snapshot.value);
  const label = entryOf(snapshot.machine.root.states, terminal)?.description ?? null;
  return exitFor(edges, exits, terminal, label)?.to === to;
}

/** What the caller keeps of a call as it leaves the sub-flow node: the called machine's visits and calls. */
export function memoryOf(callee: CalleeRef | null): CallMemory {
  if (callee === null) return {};
  const context = callee.getSnapshot().context as CallMemory;
  return {
    ...(context.visits === undefined ? {} : { visits: context.visits }),
    ...(context.calls === undefined ? {} : { calls: context.calls }),
  };
}

interface ResumableMachine {
  getInitialSnapshot(scope: unknown, input?: unknown): { readonly value: unknown; readonly context: unknown };
  resolveState(config: { readonly value: never; readonly context: never }): unknown;
}

/**
 * The called machine, able to start where its last call left off: given `input` (the caller's `CallMemory` of the
 * call), its first snapshot holds those visit counts and calls; without, it starts as the machine does.
 */
export function resumable<M extends ResumableMachine>(machine: M): M {
  return Object.create(machine, {
    getInitialSnapshot: {
      value(scope: unknown, input?: unknown) {
        const initial = machine.getInitialSnapshot(scope, input);
        const memory = input as CallMemory | undefined;
        const context = initial.context as Record<string, unknown>;
        if (memory === undefined || context === null || typeof context !== 'object') return initial;
        const restored = { ...context };
        if (memory.visits !== undefined && 'visits' in context) restored['visits'] = memory.visits;
        if (memory.calls !== undefined && 'calls' in context) restored['calls'] = memory.calls;
        return machine.resolveState({ value: initial.value as never, context: restored as never });
      },
    },
  }) as M;
}
