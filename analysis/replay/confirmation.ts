/**
 * Whether the user actually confirmed a guarded call (a policy with `confirmation`): at the confirmation step on the
 * run's path (the last `passes` node on it), the agent said something (the question), then the user answered, and
 * the user's last message before the call matches the policy's pattern. One confirmation allows one call: a second
 * call on the same "yes" is not confirmed. Needs what was said, so only chat transcripts are checked this way.
 */
import { type ConversationEvent, placeText } from './conversation.js';

export type ConfirmationVerdict = { readonly ok: true; readonly answer: number } | { readonly ok: false; readonly message: string };

/** A guarded call to check, with the conversation around it (not the gateway's question to the user). */
export interface ConfirmationCheck {
  readonly events: readonly ConversationEvent[];
  /** Index of the guarded call in `events`. */
  readonly call: number;
  /** The confirmation step on the path, and the index of the move that entered it. */
  readonly step: string;
  readonly enteredAt: number;
  readonly pattern: RegExp;
  /** Indexes of user messages that already confirmed a call. */
  readonly used: ReadonlySet<number>;
}

export function checkConfirmation(check: ConfirmationCheck): ConfirmationVerdict {
  const { events, call, step, enteredAt, pattern, used } = check;
  let answer = -1;
  for (let i = call - 1; i > enteredAt && answer < 0; i--) if (events[i]?.kind === 'user') answer = i;
  if (answer < 0) return { ok: false, message: `the user said nothing at ${step} between the move there and the call` };
  let asked = false;
  for (let i = answer - 1; i > enteredAt && !asked; i--) asked = events[i]?.kind === 'say';
  if (!asked)
    return { ok: false, message: `the agent asked nothing at ${step} before the user's message (${placeText(events[answer]!.place)})` };
  const text = (events[answer] as { text: string }).text;
  if (used.has(answer))
    return { ok: false, message: `the user's confirmation (${placeText(events[answer]!.place)}) was already used for an earlier call` };
  if (!pattern.test(text.trim())) {
    return {
      ok: false,
      message: `the user's last message before the call, ${quote(text)}, is not a confirmation (pattern /${pattern.source}/i)`,
    };
  }
  return { ok: true, answer };
}

function quote(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 79)}…` : line);
}
