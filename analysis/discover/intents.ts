/**
 * Grouping by intent: after its opening, a conversation is one request after another (cancel an order, then change
 * the default address), and the draft routes each from the ROUTE hub. Each request is a segment of calls, named by
 * what it changed: its first change (a tool whose name is not a reading verb, `tool-kinds.ts`). Segments that change
 * nothing (questions answered with reads) are the INFO intent.
 *
 * Where one request ends and the next begins, by the calls alone:
 *   - reads after a change start the next request: agents read what they are about to change (the order, then
 *     cancel it), so reads belong to the change that follows them; reads that no change follows are a question;
 *   - a change right after a change continues the request when it usually follows that change: in at least `noise`
 *     of the first tool's calls the second came next (unlock the account, then close the ticket); otherwise it is a
 *     new request (an exchange, then the default address);
 *   - the same tool again (a retry) continues it.
 * Each segment is mined with the others of its intent.
 */
import type { ObservedConversation } from './observed-log.js';
import type { ToolKind } from './tool-kinds.js';

/** A segment's intent: the id of its first change, or INFO when it changes nothing. */
export const INFO = -1;

export interface Segment {
  readonly conversation: number;
  /** Its calls' positions in the conversation: [start, end). */
  readonly start: number;
  readonly end: number;
  readonly intent: number;
}

export interface IntentGroup {
  readonly intent: number;
  readonly segments: readonly Segment[];
}

export interface Intents {
  /** Groups large enough to draft, most segments first (then by tool id; INFO last among equals). */
  readonly groups: readonly IntentGroup[];
  /** Groups left out as too rare (fewer than `minimum` segments). */
  readonly rare: readonly IntentGroup[];
  readonly minimum: number;
  readonly segments: number;
}

/** Segments at least this share of all (and at least two) make an intent the draft routes to; rarer ones are noise. */
export const RARE_INTENT_SHARE = 0.005;

export function groupIntents(
  conversations: readonly ObservedConversation[],
  openingEnds: Int32Array,
  kinds: readonly ToolKind[],
  noise: number,
): Intents {
  const follows = followUps(conversations, openingEnds, kinds);
  const byIntent = new Map<number, Segment[]>();
  let count = 0;
  for (const [index, c] of conversations.entries()) {
    let start = openingEnds[index]!;
    while (start < c.calls.length) {
      let end = start;
      let intent = INFO;
      while (end < c.calls.length && kinds[c.calls[end]!] === 'read') end++;
      if (end < c.calls.length) {
        intent = c.calls[end]!;
        end++;
        while (end < c.calls.length) {
          const previous = c.calls[end - 1]!;
          const tool = c.calls[end]!;
          if (tool !== previous && (kinds[tool] === 'read' || !follows.usual(previous, tool, noise))) break;
          end++;
        }
      }
      const list = byIntent.get(intent) ?? [];
      list.push({ conversation: index, start, end, intent });
      byIntent.set(intent, list);
      count += 1;
      start = end;
    }
  }
  const minimum = Math.max(2, Math.ceil(RARE_INTENT_SHARE * count));
  const all = [...byIntent].map(([intent, segments]) => ({ intent, segments }));
  all.sort((a, b) => b.segments.length - a.segments.length || (a.intent === INFO ? 1 : b.intent === INFO ? -1 : a.intent - b.intent));
  return {
    groups: all.filter((g) => g.segments.length >= minimum),
    rare: all.filter((g) => g.segments.length < minimum),
    minimum,
    segments: count,
  };
}

/** How often each change is followed directly by each other change, after the openings. */
function followUps(conversations: readonly ObservedConversation[], openingEnds: Int32Array, kinds: readonly ToolKind[]) {
  const calls = new Map<number, number>();
  const pairs = new Map<number, Map<number, number>>();
  for (const [index, c] of conversations.entries()) {
    for (let k = openingEnds[index]!; k < c.calls.length; k++) {
      const tool = c.calls[k]!;
      if (kinds[tool] !== 'change' || (k > 0 && c.calls[k - 1] === tool)) continue;
      calls.set(tool, (calls.get(tool) ?? 0) + 1);
      const next = c.calls[k + 1];
      if (next === undefined || next === tool || kinds[next] !== 'change') continue;
      const row = pairs.get(tool) ?? new Map<number, number>();
      row.set(next, (row.get(next) ?? 0) + 1);
      pairs.set(tool, row);
    }
  }
  return {
    usual: (first: number, second: number, noise: number): boolean =>
      (pairs.get(first)?.get(second) ?? 0) >= Math.max(1, noise * (calls.get(first) ?? 0)),
  };
}
