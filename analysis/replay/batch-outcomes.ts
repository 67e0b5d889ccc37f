/**
 * Whether each task of a batch succeeded: `--outcomes FILE`, a JSON object mapping a transcript to its outcome
 * (`true` / `false`, or a number: a reward, success when it is 1), and the rewards τ²-bench simulations carry. A key
 * names a transcript by its name as the report shows it (`runs/a.json`, `results.json#sim-7`), its file name, its
 * file name without the extension, or its own id (a τ²-bench simulation's id, a Claude Code session's id); the
 * most specific match wins, and a key of the file beats the transcript's own reward.
 */
export type OutcomeTable = ReadonlyMap<string, boolean>;

export type OutcomesRead = { readonly ok: true; readonly table: OutcomeTable } | { readonly ok: false; readonly error: string };

/** A reward counts as a success when it is 1 (τ²-bench's rule, with its tolerance). */
export function isSuccess(reward: number): boolean {
  return Math.abs(reward - 1) <= 1e-6;
}

export function parseOutcomes(text: string): OutcomesRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the outcomes file is not JSON (${(error as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, error: 'the outcomes file is not a JSON object mapping each transcript to true, false or a reward' };
  const table = new Map<string, boolean>();
  for (const [key, outcome] of Object.entries(value as Record<string, unknown>)) {
    if (typeof outcome === 'boolean') table.set(key, outcome);
    else if (typeof outcome === 'number' && Number.isFinite(outcome)) table.set(key, isSuccess(outcome));
    else
      return {
        ok: false,
        error: `the outcome of ${JSON.stringify(key)} is ${JSON.stringify(outcome)}; expected true, false or a reward (a number)`,
      };
  }
  return { ok: true, table };
}

/**
 * The names a key may give a transcript, most specific first: `part` is its id within a file of several, `id` its
 * own id (a simulation's, a session's).
 */
export function outcomeKeys(shown: string, part: string | undefined, id: string | undefined): string[] {
  const base = shown.split('/').at(-1)!;
  const stem = base.replace(/\.(jsonl|json)$/i, '');
  const suffix = part === undefined ? '' : `#${part}`;
  const keys = [`${shown}${suffix}`, `${base}${suffix}`, `${stem}${suffix}`];
  if (id !== undefined) keys.push(id);
  return [...new Set(keys)];
}

/** The outcome of a transcript: the first of its keys the table has, else its reward; and which key matched. */
export function outcomeOf(
  table: OutcomeTable | undefined,
  keys: readonly string[],
  reward: number | undefined,
): { readonly outcome: boolean | null; readonly key: string | null } {
  for (const key of keys) if (table?.has(key) === true) return { outcome: table.get(key)!, key };
  return { outcome: reward === undefined ? null : isSuccess(reward), key: null };
}
