/**
 * What a domain operation answers: a value, or a refusal the agent can read. Refusals are values, not exceptions,
 * so the tool layer can tell a business-rule failure (an `isError` result, nothing changed) from a bug.
 */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function refuse<T = never>(error: string): Outcome<T> {
  return { ok: false, error };
}
