/**
 * The opening: what (nearly) every conversation does first, before any intent: the user's lookup in a support
 * agent, opening a ticket, finding the employee and verifying a code in a helpdesk. The draft puts it between START
 * and the ROUTE hub, once, instead of in front of every intent.
 *
 * Found step by step from the start of each conversation: the tools that come next (each in at least `noise` of the
 * conversations that go on) join the opening when
 *   - together they come next in at least 1 − `noise` of those conversations, and when they are several ways to go
 *     on, all are reads (one lookup or another): several changes to choose from are different requests, which the
 *     hub tells apart;
 *   - each is called almost only there: at least 1 − `noise` of its calls come before the conversation's first
 *     change that is not an opening tool (nor one of these), so a loop of the opening (a code sent and checked
 *     again) stays in it, and a read every request makes again does not;
 *   - every intent starts with them: in each group of conversations by their first change after the opening (the
 *     INFO group when none), most (at least half) call one: a step a whole intent goes without is that intent's,
 *     not the opening's (groups of fewer than RARE_INTENT_SHARE of the conversations, or of one, do not count).
 * A conversation's opening is the run of calls at its start whose tools are opening tools (retries included).
 * Reading an order right after finding the user is common, but not before changing the default address: it is an
 * intent's step, not the opening's.
 */
import { RARE_INTENT_SHARE } from './intents.js';
import type { ObservedConversation } from './observed-log.js';
import type { ToolKind } from './tool-kinds.js';

/** The share of an intent's conversations that must start with a step for it to be the opening's. */
const MOST = 0.5;

export interface Opening {
  /** The opening tools (ids), in the order they joined. */
  readonly tools: readonly number[];
  /** Per conversation: how many of its calls are its opening. */
  readonly ends: Int32Array;
}

export function findOpening(conversations: readonly ObservedConversation[], kinds: readonly ToolKind[], noise: number): Opening {
  const toolCount = kinds.length;
  const ends = new Int32Array(conversations.length);
  const member = new Uint8Array(toolCount);
  const tools: number[] = [];
  const callsOf = new Int32Array(toolCount);
  for (const c of conversations) for (const tool of c.calls) callsOf[tool]! += 1;
  for (;;) {
    const next = new Int32Array(toolCount);
    let going = 0;
    for (const [i, c] of conversations.entries()) {
      if (ends[i]! >= c.calls.length) continue;
      next[c.calls[ends[i]!]!]! += 1;
      going += 1;
    }
    if (going === 0) break;
    const candidates: number[] = [];
    for (let tool = 0; tool < toolCount; tool++)
      if (member[tool] === 0 && next[tool]! > 0 && next[tool]! >= noise * going) candidates.push(tool);
    if (candidates.length === 0) break;
    const trial = Uint8Array.from(member);
    for (const tool of candidates) trial[tool] = 1;
    // A call is inside the opening when no change but the opening's (and the candidates') came before it.
    const inside = new Int32Array(toolCount);
    for (const c of conversations)
      for (const tool of c.calls) {
        if (kinds[tool] === 'change' && trial[tool] === 0) break;
        inside[tool]! += 1;
      }
    const kept = candidates.filter((tool) => inside[tool]! >= (1 - noise) * callsOf[tool]!);
    const covered = kept.reduce((sum, tool) => sum + next[tool]!, 0);
    if (kept.length === 0 || covered < (1 - noise) * going) break;
    if (kept.length > 1 && kept.some((tool) => kinds[tool] === 'change')) break;
    const grown = Uint8Array.from(member);
    for (const tool of kept) grown[tool] = 1;
    const grownEnds = extend(conversations, ends, grown);
    if (!everyIntentStarts(conversations, kinds, ends, grownEnds)) break;
    kept.sort((a, b) => next[b]! - next[a]! || a - b);
    for (const tool of kept) {
      member[tool] = 1;
      tools.push(tool);
    }
    ends.set(grownEnds);
  }
  return { tools, ends };
}

/** Whether, in each intent's group large enough to count, nearly every conversation's opening grew into the step. */
function everyIntentStarts(
  conversations: readonly ObservedConversation[],
  kinds: readonly ToolKind[],
  before: Int32Array,
  after: Int32Array,
): boolean {
  const groups = new Map<number, { size: number; grew: number }>();
  for (const [i, c] of conversations.entries()) {
    let first = after[i]!;
    while (first < c.calls.length && kinds[c.calls[first]!] !== 'change') first++;
    const intent = first < c.calls.length ? c.calls[first]! : -1;
    const group = groups.get(intent) ?? { size: 0, grew: 0 };
    group.size += 1;
    if (after[i]! > before[i]!) group.grew += 1;
    groups.set(intent, group);
  }
  const minimum = Math.max(2, RARE_INTENT_SHARE * conversations.length);
  return [...groups.values()].every((g) => g.size < minimum || g.grew >= MOST * g.size);
}

/** Each conversation's opening run, extended over the calls of `member` tools. */
function extend(conversations: readonly ObservedConversation[], from: Int32Array, member: Uint8Array): Int32Array {
  const ends = Int32Array.from(from);
  for (const [i, c] of conversations.entries()) {
    let end = ends[i]!;
    while (end < c.calls.length && member[c.calls[end]!] === 1) end++;
    ends[i] = end;
  }
  return ends;
}
